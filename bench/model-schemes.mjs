// The schemes part of npm run bench (bench/run.mjs): what each kind of positions costs a training step of the lab model
// (bench/model-train.mjs's LAB: vocab 16, width 32, 2 heads, 1 layer, float32; batches of 32 sentences of 12 tokens
// of the order task, Adam at lr 3e-3), as the ratio of its time per step to the same model's with positions 'none',
// and what a call option of the steps costs (ropeScaling, positionRange) as the ratio to the same model's steps
// without it; measured in one process: CPU time, rounds interleaved, each ratio the median of the per-round ratios.
import { median } from '../web/js/median.mjs';
import { BATCH, LAB, LENGTH } from './model-train.mjs';

const LR = 3e-3;
const BATCHES = 50;
// [label, the options createModel takes beside LAB's, the options of its steps beside lr, the label of the row without
// them (the same model)]
export const SCHEMES = [
  ['none', { positions: 'none' }],
  ['sinusoidal', { positions: 'sinusoidal' }],
  ['learned', { positions: 'learned', maxLength: LENGTH }],
  ['rotary', { positions: 'rotary' }],
  ['rotary, 4 of 8 pairs, base 500', { positions: 'rotary', rotaryPairs: 4, rotaryBase: 500 }],
  ['alibi', { positions: 'alibi' }],
  ['relative (32 buckets, maxDistance 128)', { positions: 'relative' }],
  ["rotary, ropeScaling 'yarn' (factor 4, originalLength 16)", { positions: 'rotary' },
    { ropeScaling: { method: 'yarn', factor: 4, originalLength: 16 } }, 'rotary'],
  ['rotary, positionRange 64', { positions: 'rotary' }, { positionRange: 64 }, 'rotary'],
  ['sinusoidal, positionRange 64', { positions: 'sinusoidal' }, { positionRange: 64 }, 'sinusoidal'],
  ['alibi, positionRange 64', { positions: 'alibi' }, { positionRange: 64 }, 'alibi'],
  ['relative, positionRange 64', { positions: 'relative' }, { positionRange: 64 }, 'relative (32 buckets, maxDistance 128)'],
];

/**
 * Runs the comparison: { rounds } interleaved, each scheme's round about `roundSeconds` of CPU time; `cpuSeconds(f)`
 * times f in this process. Returns { config, schemes: [{ name, options, stepOptions, msPerStep, samples, timesNone,
 * timesWithout }] } (timesWithout: over the row `without`, for a row with step options).
 */
export function benchSchemes({ so, rounds, roundSeconds, cpuSeconds, log }) {
  const batches = Array.from({ length: BATCHES }, (_, k) => so.orderTask({ count: BATCH, length: LENGTH, seed: 1000 + k }));
  const contenders = SCHEMES.map(([name, options, stepOptions = {}, without]) => {
    const model = so.createModel({ ...LAB, ...options });
    let next = 0;
    const run = (steps) => {
      for (let s = 0; s < steps; s++) {
        const { ids, targets } = batches[next];
        next = (next + 1) % BATCHES;
        model.step(ids, targets, { lr: LR, ...stepOptions });
      }
    };
    return { name, options, stepOptions, without, model, run, samples: [] };
  });
  for (const c of contenders) {
    c.run(5);  // compiled code, grown heap
    c.steps = Math.max(3, Math.round(roundSeconds / (cpuSeconds(() => c.run(3)) / 3)));
  }
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < contenders.length; i++) {
      const c = contenders[(r + i) % contenders.length];
      c.samples.push((1000 * cpuSeconds(() => c.run(c.steps))) / c.steps);  // ms per step
    }
    log(`  positions' cost, round ${r + 1}/${rounds}: ${contenders.map((c) => `${c.name} ${c.samples.at(-1).toFixed(3)}`).join(', ')} ms/step`);
  }
  for (const c of contenders) c.model.dispose();
  const none = contenders[0].samples;
  const ratio = (c, samples) => median(c.samples.map((x, r) => x / samples[r]));
  return {
    config: { ...LAB, positions: undefined, batch: BATCH, length: LENGTH, lr: LR },
    schemes: contenders.map((c) => ({
      name: c.name, options: c.options, stepOptions: c.stepOptions, msPerStep: median(c.samples), samples: c.samples,
      timesNone: ratio(c, none),
      timesWithout: c.without === undefined ? undefined : ratio(c, contenders.find((o) => o.name === c.without).samples),
    })),
  };
}

/** The report's table: one row per scheme. */
export function schemesTable({ config, schemes }) {
  return [
    `Positions' cost: ms per Adam step of the lab model (vocab ${config.vocab}, width ${config.width}, ${config.heads} heads, ${config.layers} layer, ${config.dtype}; batches of ${config.batch} sentences of ${config.length} tokens) with each kind of positions, and its time over the same model's without positions; a step option's (ropeScaling, positionRange), over the same model's steps without it (medians of per-round ratios, one run).`,
    '',
    '| positions | ms per step | ÷ none | ÷ without the step option |',
    '| --- | --- | --- | --- |',
    ...schemes.map((s) => `| ${s.name} | ${s.msPerStep.toFixed(3)} | ${s.name === 'none' ? '—' : `${s.timesNone.toFixed(3)}×`} | ${s.timesWithout === undefined ? '—' : `${s.timesWithout.toFixed(3)}×`} |`),
  ].join('\n');
}
