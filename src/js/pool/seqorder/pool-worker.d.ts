/**
 * The pool's worker script (seqorder/pool-worker.mjs): started by loadSeqorderPool as a module Worker, never imported.
 * It exports nothing; the package exports its path so that bundlers and servers find the file.
 */
export {};
