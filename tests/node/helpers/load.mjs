// Loads the built package the way a user does (dist/lib, or $SEQORDER_DIST/lib): loadSeqorder as an app that makes
// models has it (seqorder/model, model-entry.mjs: the main module and the model module), loadMainModule as seqorder's
// own (seqorder.mjs: the main module alone, loadModelModule loading the model module later).
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dist = path.resolve(root, process.env.SEQORDER_DIST ?? 'dist');
export const lib = path.join(dist, 'lib');
export const { loadSeqorder, loadModelModule, version } = await import(pathToFileURL(path.join(lib, 'model-entry.mjs')).href);
export const { loadSeqorder: loadMainModule } = await import(pathToFileURL(path.join(lib, 'seqorder.mjs')).href);
export const { loadSeqorderPool } = await import(pathToFileURL(path.join(lib, 'pool', 'index.mjs')).href);
export const siteDir = path.join(dist, 'site');
/**
 * A module of the built page by its path in the site ('js/experiments/order.mjs'): the page's modules import the
 * package's figures from the site's lib/, so they run as built, not from web/.
 */
export const siteModule = (file) => import(pathToFileURL(path.join(siteDir, file)).href);
