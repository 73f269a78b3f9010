// bench/page-ready.mjs in each test engine (ENGINES): one first visit (a new profile, opened as it starts), then a load filling a profile's
// caches and one warm load of the built site, the JSON it writes holding, for each load, a first contentful paint and the page's seqorder:ready mark as positive times with the paint
// first (the page paints before its sections have run), and the first visit's and the warm load's as the medians. Times are never bounded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { ENGINES, VERSION_PATTERNS } from './helpers/engines/index.mjs';

const script = fileURLToPath(new URL('../../bench/page-ready.mjs', import.meta.url));

for (const engine of ENGINES) test(`${engine}: page-ready times a cold and a warm load`, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'seqorder-page-ready-'));
  try {
    const json = path.join(dir, 'page-ready.json');
    await promisify(execFile)(process.execPath, [script, '--browser', engine, '--cold', '1', '--settle', '0', '--loads', '1', '--json', json], { timeout: 180_000 });
    const report = JSON.parse(readFileSync(json, 'utf8'));
    assert.match(report.browser, VERSION_PATTERNS[engine]);
    assert.equal(report.settle, 0);
    assert.deepEqual(report.loads.map((l) => l.load), ['cold 1', 'fill', 'warm 1']);
    for (const { load, fcp, ready, flag } of report.loads) {
      assert.equal(flag, 'true', `load ${load}`);
      assert.ok(fcp > 0 && ready > 0 && fcp <= ready, `load ${load}: first contentful paint ${fcp} ms, ready ${ready} ms`);
    }
    const times = (l) => ({ fcp: l.fcp, ready: l.ready });
    assert.deepEqual(report.median, { cold: times(report.loads[0]), warm: times(report.loads[2]) });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
