// The CommonJS entry point: require('seqorder') in node. loadSeqorder is asynchronous anyway, so it imports the ES
// module (node can import() it from CommonJS) and the API is the same object an ES module user gets.
'use strict';

/** Loads the WebAssembly module and returns the API: see seqorder.d.ts. */
exports.loadSeqorder = (options) => import('./seqorder.mjs').then((seqorder) => seqorder.loadSeqorder(options));
/** Loads a pool of workers that run attention and models: see pool/index.d.ts. */
exports.loadSeqorderPool = (options) => import('./seqorder.mjs').then((seqorder) => seqorder.loadSeqorderPool(options));
exports.version = require('../../package.json').version;
