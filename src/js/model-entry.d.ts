/**
 * seqorder/model: the trainable model's module, for an app that makes models (createModel). Its loadSeqorder is
 * seqorder's with the model module (seqorder_model.wasm) loaded alongside the main module; loadModelModule loads it
 * later into an API loaded from 'seqorder'. Bundlers emit the model module only for an app that imports this entry
 * point (or seqorder/pool).
 * @example
 * import { loadSeqorder } from 'seqorder/model';
 * const so = await loadSeqorder();
 * const model = so.createModel({ vocab: so.taskWords.length, width: 32, classes: 2, seed: 1 });
 * @see https://github.com/seqorder/seqorder/blob/main/docs/api.md#the-model-module
 * @module seqorder/model
 */
import type { Seqorder } from './seqorder.js';

export { loadSeqorder, version } from './seqorder.js';

/**
 * Loads the model module into `so`, an API loaded from 'seqorder' (where its loadSeqorder's options say the model
 * module is), so that so.createModel runs: for a page that needs models only in some of its parts, which fetches the
 * module when one of them comes. Resolves once it is loaded (at once, if it was); calls while it loads share that
 * load. A failure changes nothing: createModel still says how to load it, and loadModelModule may be called again.
 * @example
 * import { loadSeqorder } from 'seqorder';
 * const so = await loadSeqorder();                        // positions, attention: the main module alone
 * // later, when the part of the page that trains a model comes
 * const { loadModelModule } = await import('seqorder/model');
 * await loadModelModule(so);
 * const model = so.createModel({ vocab: 8, width: 16, classes: 2 });
 * @throws {TypeError} (a rejection) when so is not an API that loadSeqorder resolved to
 * @throws {Error} (a rejection) when the model module cannot be fetched or compiled (the message names the URL, what
 *         came back and the modelWasmUrl option)
 */
export function loadModelModule(so: Seqorder): Promise<void>;
