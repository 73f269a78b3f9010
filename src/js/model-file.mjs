// The model module (seqorder_model.wasm), named in a file of its own beside load.mjs, as its literal URL expression
// (see load.mjs's packagedCore): only seqorder/model (model-entry.mjs) and seqorder/pool (pool/index.mjs) import it,
// so bundlers emit the model module only for apps that import one of them.
export const packagedModelUrl = () => new URL('seqorder/seqorder_model.wasm', import.meta.url);
