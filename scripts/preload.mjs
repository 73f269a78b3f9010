// Completes a built page's module preloads: for each <link rel="modulepreload"> the page lists (its first screen's
// entry modules), links for every module that one imports statically, and those import, once each, written after the
// page's own links with the first one's other attributes. Browsers fetch a preloaded module but not what it imports, so without these the first screen's
// modules arrive one level of imports at a time.
//   node scripts/preload.mjs <site dir>   (every .html file at its top)
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// A static import or re-export: `import … from '…'`, `import '…'`, `export … from '…'` at the start of a line (the
// project's modules write one per statement, over several lines when long).
const STATIC = /^(?:import|export)\s(?:[^'";]*?\sfrom\s*)?'([^']+)'/gm;

/** The relative module specifiers `file` imports statically. */
export function staticImports(source) {
  return [...source.matchAll(STATIC)].map((m) => m[1]).filter((s) => s.startsWith('./') || s.startsWith('../'));
}

/** Every module `entries` (paths within `site`) import, directly or not, in the order first met; entries excluded. */
export function closure(site, entries) {
  const seen = new Set(entries);
  const found = [];
  const queue = [...entries];
  while (queue.length) {
    const file = queue.shift();
    const full = path.join(site, file);
    if (!existsSync(full)) throw new Error(`scripts/preload.mjs: ${file} is not in ${site}`);
    for (const specifier of staticImports(readFileSync(full, 'utf8'))) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      if (seen.has(target)) continue;
      seen.add(target);
      found.push(target);
      queue.push(target);
    }
  }
  return found;
}

/** The page's HTML with the imports of its modulepreload links linked too, after its last modulepreload link. */
export function completePreloads(site, html) {
  const links = [...html.matchAll(/^([ \t]*)<link rel="modulepreload" href="([^"]+)"([^>]*)>\n/gm)];
  if (!links.length) return html;
  const entries = links.map((m) => m[2]);
  const [, indent, , rest] = links[0];  // the first link's indent and further attributes (its fetchpriority) for all
  const added = closure(site, entries).map((file) => `${indent}<link rel="modulepreload" href="${file}"${rest}>\n`).join('');
  const last = links.at(-1);
  const at = last.index + last[0].length;
  return html.slice(0, at) + added + html.slice(at);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [site] = process.argv.slice(2);
  for (const page of readdirSync(site).filter((name) => name.endsWith('.html'))) {
    const file = path.join(site, page);
    writeFileSync(file, completePreloads(site, readFileSync(file, 'utf8')));
  }
}
