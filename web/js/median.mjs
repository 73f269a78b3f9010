// The median of a list of numbers: one definition for the page (the lab's accuracies over seeds, the benchmark's
// timings) and the node benchmarks (bench/), which import it from here.

/** The median of numbers (the middle one of an odd count, the mean of the middle two of an even one; NaN for none). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  return n === 0 ? NaN : n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/** The middle half of numbers: [its first quartile, its third] (the values at 1/4 and 3/4 of the sorted list). */
export function middleHalf(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.round(p * (sorted.length - 1)))];
  return [at(0.25), at(0.75)];
}
