// atNextFrame (web/js/next-frame.mjs): the callback runs once, at the next animation frame or, when no frame
// comes, after FRAME_WAIT_MS; and not at all once cancelled. Animation frames are played by hand here (node has none).
import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { FRAME_WAIT_MS, atNextFrame } from '../../web/js/next-frame.mjs';

let frames;  // the callbacks waiting for a frame, by id
beforeEach(() => {
  frames = new Map();
  let next = 1;
  globalThis.requestAnimationFrame = (f) => { frames.set(next, f); return next++; };
  globalThis.cancelAnimationFrame = (id) => { frames.delete(id); };
});
afterEach(() => {
  delete globalThis.requestAnimationFrame;
  delete globalThis.cancelAnimationFrame;
});
/** Runs the callbacks waiting for a frame, as a browser that draws one does. */
const drawFrame = () => {
  const waiting = [...frames.values()];
  frames.clear();
  for (const f of waiting) f(performance.now());
};

test('a frame that comes: the callback runs then, once (the wait is cancelled)', async () => {
  let calls = 0;
  atNextFrame(() => { calls += 1; });
  assert.equal(calls, 0);
  drawFrame();
  assert.equal(calls, 1);
  await sleep(FRAME_WAIT_MS + 50);
  assert.equal(calls, 1);
});

test('no frame: the callback runs after FRAME_WAIT_MS, once (the frame request is cancelled)', async () => {
  let calls = 0;
  atNextFrame(() => { calls += 1; });
  await sleep(FRAME_WAIT_MS / 2);
  assert.equal(calls, 0);
  await sleep(FRAME_WAIT_MS);
  assert.equal(calls, 1);
  assert.equal(frames.size, 0, 'the frame request was left behind');
  drawFrame();
  assert.equal(calls, 1);
});

test('cancelled: the callback never runs', async () => {
  let calls = 0;
  const cancel = atNextFrame(() => { calls += 1; });
  cancel();
  drawFrame();
  await sleep(FRAME_WAIT_MS + 50);
  assert.equal(calls, 0);
});
