// The CommonJS entry point of seqorder/pool: require('seqorder/pool') in node. loadSeqorderPool is asynchronous
// anyway, so it imports the ES module, and the pool is the same object an ES module user gets.
'use strict';

/** Loads a pool of workers that run attention and models: see index.d.ts. */
exports.loadSeqorderPool = (options) => import('./index.mjs').then((pool) => pool.loadSeqorderPool(options));
