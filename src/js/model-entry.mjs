// seqorder/model: the trainable model's module for an app that makes models. Its loadSeqorder is seqorder's with the
// model module loaded alongside the main module; loadModelModule(so) loads it later, for an API loaded from seqorder
// (a page that needs models only in some of its parts). Only this entry point (and seqorder/pool) names the model
// module for bundlers (model-file.mjs), and imports its code (model-module.mjs): an app that imports seqorder alone
// ships neither. See model-entry.d.ts.
import { packagedModelUrl } from './model-file.mjs';
import { loadModelModule as loadInto, loadWithModel } from './model-module.mjs';

export { version } from './api.mjs';

/** loadSeqorder, the model module loaded too: see model-entry.d.ts. */
export function loadSeqorder(options) {
  return loadWithModel(options, packagedModelUrl());
}

/** Loads the model module of an API loaded without it: see model-entry.d.ts. */
export function loadModelModule(so) {
  return loadInto(so, packagedModelUrl());
}
