// seqorder from CommonJS: require() gives the same API; loadSeqorder returns a promise, as in ES modules.
const { loadSeqorder, version } = require('seqorder');

loadSeqorder().then((so) => {
  const pe = so.positions(3, 4);
  const rows = Array.from({ length: 3 }, (_, t) => Array.from(pe.data.subarray(4 * t, 4 * t + 4), (v) => v.toFixed(3)).join(' '));
  console.log(`seqorder node-cjs ${version}: positions (3, 4)\n${rows.join('\n')}`);
});
