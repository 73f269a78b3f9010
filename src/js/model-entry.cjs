// require('seqorder/model') in node: seqorder/model's functions, through the ES module (node can import() it from
// CommonJS; both are asynchronous anyway), so the API is the same object an ES module user gets.
'use strict';

/** loadSeqorder, the model module loaded too: see model-entry.d.ts. */
exports.loadSeqorder = (options) => import('./model-entry.mjs').then((entry) => entry.loadSeqorder(options));
/** Loads the model module of an API loaded without it: see model-entry.d.ts. */
exports.loadModelModule = (so) => import('./model-entry.mjs').then((entry) => entry.loadModelModule(so));
exports.version = require('../../package.json').version;
