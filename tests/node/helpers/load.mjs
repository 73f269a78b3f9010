// Loads the built package the way a user does (dist/lib/seqorder.mjs, or $SEQORDER_DIST/lib).
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dist = path.resolve(root, process.env.SEQORDER_DIST ?? 'dist');
export const lib = path.join(dist, 'lib');
export const { loadSeqorder, loadSeqorderPool, version } = await import(pathToFileURL(path.join(lib, 'seqorder.mjs')).href);
export const siteDir = path.join(dist, 'site');
