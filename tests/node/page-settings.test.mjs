// The page's settings declarations (web/js/settings.mjs), in node: a declaration is checked when it is made, a value
// read from the URL is accepted exactly when it is one of the setting's values, what the URL writes reads back as
// the same value, and the sweep's values are all values of the setting.
import test from 'node:test';
import assert from 'node:assert/strict';
import { declareSettings, defaults, describe, encode, parse, sweepValues, violation } from '../../web/js/settings.mjs';

const SPECS = declareSettings({
  on: { kind: 'toggle', id: 'x-on', label: 'On', default: false },
  width: { kind: 'slider', id: 'x-width', label: 'Width', min: 2, max: 256, step: 2, default: 64 },
  seed: { kind: 'number', id: 'x-seed', label: 'Seed', min: 0, max: 1e9, default: 1, sweep: [1, 2, 7] },
  rate: { kind: 'number', id: 'x-rate', label: 'Rate', min: 1e-4, max: 0.1, step: 0, default: 3e-3 },
  pick: { kind: 'select', id: 'x-pick', label: 'Pick', default: '2,1,0', options: [{ value: '2,1,0', label: 'a' }, { value: '1,0,2', label: 'b' }] },
  count: { kind: 'select', id: 'x-count', label: 'Count', default: 8, options: [{ value: 8, label: '8' }, { value: 16, label: '16' }] },
  models: { kind: 'set', id: 'x-models', label: 'Models', default: ['none', 'rotary'], min: 1, max: 3,
    options: ['none', 'sinusoidal', 'learned', 'rotary'].map((value) => ({ value, label: value })) },
  words: { kind: 'list', id: 'x-words', label: 'Words', default: ['the', 'robot'], min: 2, max: 4,
    options: ['the', 'robot', 'person'].map((value) => ({ value, label: value })) },
});

test('a declaration is checked: kind, id, label, options, a default among its values, sweep values', () => {
  const bad = [
    [{ kind: 'dial', id: 'a', label: 'A', default: 1 }, /kind must be one of/],
    [{ kind: 'toggle', id: 'A b', label: 'A', default: true }, /id must be/],
    [{ kind: 'toggle', id: 'a', label: '', default: true }, /label/],
    [{ kind: 'toggle', id: 'a', label: 'A', default: 1 }, /default 1 is not on/],
    [{ kind: 'slider', id: 'a', label: 'A', min: 5, max: 1, default: 3 }, /min ≤ max/],
    [{ kind: 'slider', id: 'a', label: 'A', min: 2, max: 8, step: 2, default: 3 }, /default 3 is not a whole number from 2 to 8 in steps of 2/],
    [{ kind: 'select', id: 'a', label: 'A', options: [], default: 'x' }, /needs options/],
    [{ kind: 'select', id: 'a', label: 'A', options: [{ value: 'x', label: 'x' }, { value: 'x', label: 'y' }], default: 'x' }, /share a value/],
    [{ kind: 'set', id: 'a', label: 'A', options: [{ value: 'x,y', label: 'x' }], default: [] }, /joined by ','/],
    [{ kind: 'slider', id: 'a', label: 'A', min: 0, max: 4, default: 1, sweep: [9] }, /sweep value 9/],
  ];
  for (const [spec, message] of bad) assert.throws(() => declareSettings({ s: spec }), message, JSON.stringify(spec));
  assert.deepEqual(defaults(SPECS), { on: false, width: 64, seed: 1, rate: 3e-3, pick: '2,1,0', count: 8, models: ['none', 'rotary'], words: ['the', 'robot'] });
  assert.ok(Object.isFrozen(SPECS) && Object.isFrozen(SPECS.width));
});

test('a URL value is accepted exactly when it is one of the setting\'s values; anything else names the rule', () => {
  const accepted = [
    ['on', '1', true], ['on', '0', false], ['on', 'true', true],
    ['width', '2', 2], ['width', '256', 256], ['width', '130', 130],
    ['seed', '0', 0], ['seed', '1000000000', 1e9], ['rate', '0.001', 0.001], ['rate', '1e-3', 0.001],
    ['pick', '1,0,2', '1,0,2'], ['count', '16', 16],
    ['models', 'rotary,none', ['none', 'rotary']], ['models', 'learned', ['learned']],
    ['words', 'robot,the,robot', ['robot', 'the', 'robot']],
  ];
  for (const [name, text, value] of accepted) assert.deepEqual(parse(SPECS[name], text), { value }, `${name}=${text}`);
  const refused = [
    ['on', 'yes'], ['on', ''], ['width', '7'], ['width', '0'], ['width', '258'], ['width', '64px'], ['width', ''], ['width', 'NaN'],
    ['width', 'Infinity'], ['seed', '1.5'], ['seed', '-1'], ['rate', '1'], ['pick', '0,1,2'], ['count', '12'],
    ['models', ''], ['models', 'none,none'], ['models', 'none,sinusoidal,learned,rotary'], ['models', 'alibi'],
    ['words', 'the'], ['words', 'the,robot,person,the,robot'], ['words', 'the,box'],
  ];
  for (const [name, text] of refused) {
    const result = parse(SPECS[name], text);
    assert.equal(result.value, undefined, `${name}=${text} was accepted as ${JSON.stringify(result.value)}`);
    assert.equal(result.error, describe(SPECS[name]));
  }
  assert.match(describe(SPECS.width), /a whole number from 2 to 256 in steps of 2/);
  assert.match(describe(SPECS.models), /1 to 3 of none, sinusoidal, learned, rotary/);
});

test('what the URL writes reads back as the same value, for every sweep value of every setting', () => {
  for (const spec of Object.values(SPECS)) {
    for (const value of sweepValues(spec)) {
      assert.equal(violation(spec, value), null, `${spec.name}: sweep value ${JSON.stringify(value)}`);
      const back = parse(spec, encode(spec, value));
      assert.deepEqual(back.value, value, `${spec.name}: ${JSON.stringify(value)} → ${encode(spec, value)} → ${JSON.stringify(back)}`);
    }
  }
  assert.deepEqual(sweepValues(SPECS.width), [2, 256, 130]);
  assert.deepEqual(sweepValues(SPECS.on), [false, true]);
  assert.deepEqual(sweepValues(SPECS.seed), [1, 2, 7]);
  assert.deepEqual(sweepValues(SPECS.models), [['none'], ['sinusoidal'], ['learned'], ['rotary'], ['none', 'rotary']]);
});
