// The pool's kernel module (seqorder_kernel.wasm, for workers that share memory), named in a file of its own beside
// load.mjs, as its literal URL expression (see load.mjs's packagedCore): only seqorder/pool (pool/index.mjs) imports
// it, so bundlers emit the kernel only for apps that import that entry point.
export const packagedKernelUrl = () => new URL('seqorder/seqorder_kernel.wasm', import.meta.url);
