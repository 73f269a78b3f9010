// The median of a list of numbers: one definition for the page (the lab's accuracies over seeds, the benchmark's
// timings) and the node benchmarks (bench/), which import it from here.

/** The median of numbers (the middle one of an odd count, the mean of the middle two of an even one; NaN for none). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  return n === 0 ? NaN : n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}
