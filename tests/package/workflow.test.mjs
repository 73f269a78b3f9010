// The CI workflow for the public repository's hosted runners (.github/workflows/ci.yml) cannot run here: its syntax and
// the facts it rests on are checked instead. It must parse as YAML, trigger on pushes and pull requests, run .ci/run as
// root in a Debian bookworm container with node >= 20 within CI's 90 minutes, and name only steps that exist here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkTools, importTool, root } from './tools.mjs';

const file = path.join(root, '.github', 'workflows', 'ci.yml');

test('.github/workflows/ci.yml parses and runs .ci/run in a Debian bookworm container', { timeout: 30_000 }, async () => {
  checkTools();
  const { parseDocument } = await importTool('yaml');
  const document = parseDocument(readFileSync(file, 'utf8'), { prettyErrors: true, uniqueKeys: true });
  assert.deepEqual([...document.errors, ...document.warnings].map((e) => e.message), [], 'YAML errors');
  const workflow = document.toJS();
  assert.equal(typeof workflow.name, 'string');
  assert.ok(workflow.on.push && 'pull_request' in workflow.on, 'runs on pushes and pull requests');
  const jobs = Object.values(workflow.jobs);
  assert.equal(jobs.length, 1);
  const [job] = jobs;
  assert.equal(job['runs-on'], 'ubuntu-latest');
  assert.ok(job['timeout-minutes'] <= 90, 'within CI\'s 90 minutes');
  assert.match(job.container.image, /^debian:bookworm(-slim)?$/);
  const known = new Set(['name', 'run', 'uses', 'with', 'env', 'if', 'id', 'shell', 'working-directory', 'timeout-minutes', 'continue-on-error']);
  for (const step of job.steps) {
    assert.ok(Object.keys(step).every((k) => known.has(k)), `unknown step key in ${JSON.stringify(step)}`);
    assert.ok(('run' in step) !== ('uses' in step), `a step runs a command or uses an action: ${JSON.stringify(step)}`);
    if (step.uses) assert.match(step.uses, /^actions\/(checkout|setup-node|upload-artifact)@v\d+$/);
    if (step.run) execFileSync('bash', ['-n', '-c', step.run]);  // shell syntax
  }
  const runs = job.steps.map((s) => s.run ?? '');
  const checkout = job.steps.findIndex((s) => s.uses?.startsWith('actions/checkout@'));
  const ci = runs.findIndex((r) => r.trim() === 'bash .ci/run');
  assert.ok(checkout >= 0 && ci > checkout, 'checks out, then runs bash .ci/run');
  const node = job.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
  assert.ok(Number(node?.with?.['node-version']) >= 20, 'node >= 20 (bookworm packages node 18)');
  assert.ok(existsSync(path.join(root, '.ci', 'run')), '.ci/run exists');
  for (const upload of job.steps.filter((s) => s.uses?.startsWith('actions/upload-artifact@')))
    assert.equal(upload.with.path.replace(/\/$/, ''), 'build-logs', 'uploads the logs scripts/test.sh writes (build-logs/)');
});
