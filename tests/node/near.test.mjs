// watchNear (web/js/near.mjs) where no IntersectionObserver reports (node has none, as a browser that draws no frames
// reports nothing): the timer alone calls back, with the watched elements within `margin` viewport heights, and stops
// once nothing is watched. Elements are stand-ins with a getBoundingClientRect.
import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { LOOK_MS, isNear, watchNear } from '../../web/js/near.mjs';

beforeEach(() => { globalThis.innerHeight = 900; });
afterEach(() => { delete globalThis.innerHeight; });

/** An element whose top is at `top` px from the viewport's top (movable), `height` px tall. */
const box = (top, height = 100) => ({ top, getBoundingClientRect() { return { top: this.top, bottom: this.top + height }; } });

test('isNear: within margin viewport heights above or below, edges touching included', () => {
  assert.equal(isNear(box(0)), true);
  assert.equal(isNear(box(900)), true);
  assert.equal(isNear(box(901)), false);
  assert.equal(isNear(box(-100)), true);
  assert.equal(isNear(box(-101)), false);
  assert.equal(isNear(box(1800), 1), true);
  assert.equal(isNear(box(1801), 1), false);
  assert.equal(isNear(box(-1000), 1), true);
  assert.equal(isNear(box(-1001), 1), false);
});

test('without an observer, the timer reports the watched elements that come near, until unwatched', async () => {
  const far = box(5000);
  const close = box(1500);
  const calls = [];
  const near = watchNear({ margin: 1 }, (elements) => {
    calls.push(elements);
    for (const e of elements) near.unwatch(e);
  });
  near.watch(far);
  near.watch(close);
  await sleep(LOOK_MS * 2.5);
  assert.deepEqual(calls, [[close]]);
  far.top = 1700;  // scrolled near
  await sleep(LOOK_MS * 2.5);
  assert.deepEqual(calls, [[close], [far]]);
  far.top = 0;
  await sleep(LOOK_MS * 2.5);
  assert.equal(calls.length, 2, 'an unwatched element was reported');
});

test('stop: nothing more is reported, and no timer keeps the process alive', async () => {
  const element = box(5000);
  let calls = 0;
  const near = watchNear({ margin: 0 }, () => { calls += 1; });
  near.watch(element);
  near.stop();
  element.top = 0;
  await sleep(LOOK_MS * 2.5);
  assert.equal(calls, 0);
});
