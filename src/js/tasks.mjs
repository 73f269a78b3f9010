// The lesson's two tasks, the data the trainable model learns from, over one instance of the main module (the tasks
// are made there, so that they need no model module): orderTask, lookbackTask, inductionTask, taskWords. Like api.mjs,
// each call reads its arguments once (arguments.mjs: JS kinds only), runs one call of the core
// (src/core/api/model_calls.hpp, through src/bindings/embind.cpp: the core checks every value) and returns JS-owned
// results (heap.mjs).
import { optional, readBoolean, readNumber, readOptions } from './arguments.mjs';

const optionalNumber = optional(readNumber);
const optionalBoolean = optional(readBoolean);

/** orderTask, lookbackTask, inductionTask and taskWords over the main module `core`, calling it through heap.mjs's `run`. */
export function makeTaskApi(core, run) {
  /** A task's sentences, { ids, targets }: the core's `coreTask` on `args`, its options as read. */
  function task(coreTask, args) {
    return run((call) => {
      const [ids, targets] = call.core(coreTask, args);
      return { ids: call.output(ids), targets: call.output(targets) };
    });
  }

  /** The lesson's task: count sentences of length tokens, target 1 when robot comes before person. */
  function orderTask(options) {
    const o = readOptions('options', options, ['count', 'length', 'seed', 'mirrored']);
    return task(core.orderTask, {
      count: readNumber('count', o.count),
      length: readNumber('length', o.length),
      seed: optionalNumber('seed', o.seed),
      mirrored: optionalBoolean('mirrored', o.mirrored),
    });
  }

  /** The second task: count sentences of length random words; the target at position t is the word back places earlier. */
  function lookbackTask(options) {
    const o = readOptions('options', options, ['count', 'length', 'back', 'seed']);
    return task(core.lookbackTask, {
      count: readNumber('count', o.count),
      length: readNumber('length', o.length),
      back: optionalNumber('back', o.back),
      seed: optionalNumber('seed', o.seed),
    });
  }

  /** The third task: count sentences of length random words; the target at t is the word that followed the last
   * earlier occurrence of the word at t (-1 where it has not occurred before). */
  function inductionTask(options) {
    const o = readOptions('options', options, ['count', 'length', 'seed']);
    return task(core.inductionTask, {
      count: readNumber('count', o.count),
      length: readNumber('length', o.length),
      seed: optionalNumber('seed', o.seed),
    });
  }

  /** The tasks' vocabulary: a token's id is its index ('the', 'robot', 'follows', 'person', …). */
  const taskWords = Object.freeze(core.taskWords());

  return { orderTask, lookbackTask, inductionTask, taskWords };
}
