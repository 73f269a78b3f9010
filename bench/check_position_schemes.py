#!/usr/bin/python3
"""Checks bench/position_schemes.py (the numbers of every position scheme of the PyTorch reference and of docs/model.md)
against transcriptions of their sources, written here independently, none of those projects a dependency:

  ALiBi slopes      the authors' get_slopes (ofirpress/attention_with_linear_biases, fairseq/models/transformer.py at
                    4b92f28a005ead2567abe2359f633e73e08f3833), H = 1 ... 64, bit for bit
  ALiBi bias        -m (i - j) causal and -m |i - j| bidirectional, from the slopes and a loop over i, j
  T5 buckets        Hugging Face transformers' T5Attention._relative_position_bucket (torch, float32 as there), every
                    distance -400 ... 400 of every valid (buckets 2 ... 79, maxDistance ... 299, both directions)
  rotary            Hugging Face transformers' _compute_default_rope_parameters, _compute_linear_scaling_rope_parameters,
                    _compute_dynamic_ntk_parameters (at seq_len giving the effective factor exactly) and
                    _compute_yarn_parameters, at huggingface/transformers ef46806472a64b0013ed413781e3afed82bfa047
                    (src/transformers/modeling_rope_utils.py), run in float64 (their .float() made .double()): equal to
                    the last bit; and run as written (float32): within float32's rounding
  YaRN temperature  that file's attention_factor = 0.1 ln(factor) + 1, squared (both q and k scaled by it)
  random positions  Floyd's draw: with range = length exactly 0 ... length - 1; subsets uniform (chi-square over every
                    subset of small ranges); Ruoss et al.'s draw (jax.random.choice without replacement, then sorted) has
                    the same distribution
  the reference     bench/model_reference.py's Model with positions 0 ... T-1 and no option gives the bits of the same
                    model before the options existed (its sinusoids and rotation), and its ALiBi and relative scores
                    equal a plain loop over (i, j)

    /usr/bin/python3 bench/check_position_schemes.py      # prints each check; exits 1 on the first failure
"""

import itertools
import math
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import position_schemes as ps  # noqa: E402

FAILED = []


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}")
    if not ok:
        FAILED.append(name)


# --------------------------------------------------------------------------------------------------------------------
# ALiBi: the authors' get_slopes, as written there
# --------------------------------------------------------------------------------------------------------------------


def get_slopes(n):
    def get_slopes_power_of_2(n):
        start = (2**(-2**-(math.log2(n)-3)))
        ratio = start
        return [start*ratio**i for i in range(n)]

    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)
    else:
        closest_power_of_2 = 2**math.floor(math.log2(n))
        return get_slopes_power_of_2(closest_power_of_2) + get_slopes(2*closest_power_of_2)[0::2][:n-closest_power_of_2]


def check_alibi():
    worst = [h for h in range(1, 65) if ps.alibi_slopes(h) != get_slopes(h)]
    check("ALiBi slopes = get_slopes, H = 1 ... 64, bit for bit", not worst, f"differ at H = {worst}" if worst else "")
    check("ALiBi slopes, H = 8: 2^-1 ... 2^-8", ps.alibi_slopes(8) == [2.0 ** -k for k in range(1, 9)])
    check("ALiBi slopes, H = 2: 2^-4, 2^-8", ps.alibi_slopes(2) == [2.0 ** -4, 2.0 ** -8])
    check("ALiBi slopes, H = 6: those of 4, then the 1st and 3rd of 8",
          ps.alibi_slopes(6) == [2.0 ** -2, 2.0 ** -4, 2.0 ** -6, 2.0 ** -8, 2.0 ** -1, 2.0 ** -3])
    rng = np.random.default_rng(3)
    positions = np.sort(rng.choice(50, size=(3, 7), replace=True), axis=1)
    positions = np.array([sorted(set(row) | set(range(50, 50 + 7 - len(set(row))))) for row in positions])
    slopes = ps.alibi_slopes(3)
    for causal in (True, False):
        got = ps.alibi_bias(slopes, positions, causal)
        want = np.empty_like(got)
        for b, h, i, j in itertools.product(range(3), range(3), range(7), range(7)):
            d = positions[b, i] - positions[b, j]
            want[b, h, i, j] = -(slopes[h] * float(abs(d) if not causal else d))
        check(f"ALiBi bias {'causal' if causal else 'bidirectional'} = loop over (i, j), drawn positions",
              np.array_equal(got, want))


# --------------------------------------------------------------------------------------------------------------------
# T5: Hugging Face transformers' T5Attention._relative_position_bucket, as written there (torch)
# --------------------------------------------------------------------------------------------------------------------


def _relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    relative_buckets = 0
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
    # now relative_position is in the range [0, inf)

    # half of the buckets are for exact increments in positions
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact

    # The other half of the buckets are for logarithmically bigger bins in positions up to max_distance
    relative_position_if_large = max_exact + (
        torch.log(relative_position.float() / max_exact)
        / math.log(max_distance / max_exact)
        * (num_buckets - max_exact)
    ).to(torch.long)
    relative_position_if_large = torch.min(
        relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1)
    )

    relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
    return relative_buckets


def float64_bucket(d, bidirectional, num_buckets, max_distance):
    """The same rule in float64 (to count where T5's float32 arithmetic decides a bucket)."""
    offset = 0
    if bidirectional:
        num_buckets //= 2
        offset = num_buckets if d > 0 else 0
        n = abs(d)
    else:
        n = max(-d, 0)
    exact = num_buckets // 2
    if n < exact:
        return offset + n
    return offset + min(exact + int(math.log(n / exact) / math.log(max_distance / exact) * (num_buckets - exact)),
                        num_buckets - 1)


def check_relative():
    distances = torch.arange(-400, 401)
    configs = differ = float64_differ = 0
    first = None
    for buckets in range(2, 80):
        for max_distance in range(2, 300):
            for causal in (False, True):
                try:
                    ps.check_relative_options(buckets, max_distance, causal)
                except ValueError:
                    continue
                configs += 1
                want = _relative_position_bucket(distances, not causal, buckets, max_distance).numpy()
                got = ps.relative_bucket(distances.numpy(), causal, buckets, max_distance)
                if not np.array_equal(got, want):
                    differ += 1
                    first = first or (buckets, max_distance, causal)
                plain = [float64_bucket(int(d), not causal, buckets, max_distance) for d in distances]
                float64_differ += not np.array_equal(np.array(plain), want)
    check(f"T5 buckets = _relative_position_bucket, {configs} (buckets, maxDistance, direction), d = -400 ... 400",
          differ == 0, f"{differ} differ, first {first}" if differ else "")
    print(f"     (the same rule in float64 would differ from T5's float32 in {float64_differ} of them; "
          "the defaults agree either way)")
    d = np.arange(-20, 21)
    check("T5 buckets, defaults bidirectional: 0 ... 7 exact, 8 + 2 log2(n / 8) beyond, +16 for keys after",
          ps.relative_bucket(d, False).tolist() ==
          [10] * 5 + [9] * 4 + [8] * 4 + [7, 6, 5, 4, 3, 2, 1, 0] + [17, 18, 19, 20, 21, 22, 23] + [24] * 4 + [25] * 4
          + [26] * 5)
    check("T5 buckets, causal: keys after the query (never seen) in bucket 0; 128 and beyond in bucket 31",
          ps.relative_bucket(np.array([3, 0, -1, -15, -16, -64, -127, -128, -1000]), True).tolist() ==
          [0, 0, 1, 15, 16, 26, 31, 31, 31])


# --------------------------------------------------------------------------------------------------------------------
# Rotary: Hugging Face transformers' rope initialisation functions (modeling_rope_utils.py at ef46806), as written there
# (torch, float32: `as_written`), and the same lines over Python floats (float64, each operation one libm or IEEE
# operation: torch's own float64 pow is SLEEF's, an ulp off libm's for some arguments). `Vec` gives Python floats the
# few tensor operations the functions use, elementwise in the same order.
# --------------------------------------------------------------------------------------------------------------------


class Vec:
    def __init__(self, values):
        self.v = [float(x) for x in values]

    def _map(self, other, op):
        if isinstance(other, Vec):
            return Vec(op(a, b) for a, b in zip(self.v, other.v))
        return Vec(op(a, other) for a in self.v)

    def __truediv__(self, o): return self._map(o, lambda a, b: a / b)
    def __rtruediv__(self, o): return self._map(o, lambda a, b: b / a)
    def __mul__(self, o): return self._map(o, lambda a, b: a * b)
    __rmul__ = __mul__
    def __add__(self, o): return self._map(o, lambda a, b: a + b)
    __radd__ = __add__
    def __sub__(self, o): return self._map(o, lambda a, b: a - b)
    def __rsub__(self, o): return self._map(o, lambda a, b: b - a)
    def __rpow__(self, o): return self._map(o, lambda a, b: math.pow(b, a))
    def numpy(self): return np.array(self.v)


class Float64Torch:
    """arange, and clamp: what the functions ask of torch, over Python floats."""

    @staticmethod
    def arange(start, stop=None, step=1):
        return Vec(range(start, stop, step) if stop is not None else range(start))

    @staticmethod
    def clamp(x, lo, hi):
        return Vec(min(max(a, lo), hi) for a in x.v)


class Float32Torch:
    @staticmethod
    def arange(start, stop=None, step=1):
        return (torch.arange(start, stop, step) if stop is not None else torch.arange(start)).float()

    @staticmethod
    def clamp(x, lo, hi):
        return torch.clamp(x, lo, hi)


def _compute_default_rope_parameters(base, dim, xp):
    attention_factor = 1.0  # Unused in this type of RoPE
    inv_freq = 1.0 / (base ** (xp.arange(0, dim, 2) / dim))
    return inv_freq, attention_factor


def _compute_linear_scaling_rope_parameters(base, dim, factor, xp):
    inv_freq, attention_factor = _compute_default_rope_parameters(base, dim, xp)
    inv_freq = inv_freq / factor
    return inv_freq, attention_factor


def _compute_dynamic_ntk_parameters(base, dim, max_position_embeddings, factor, seq_len, xp):
    attention_factor = 1.0  # Unused in this type of RoPE
    seq_len = seq_len if seq_len is not None and seq_len > max_position_embeddings else max_position_embeddings
    base = base * ((factor * seq_len / max_position_embeddings) - (factor - 1)) ** (dim / (dim - 2))
    inv_freq = 1.0 / (base ** (xp.arange(0, dim, 2) / dim))
    return inv_freq, attention_factor


def _compute_yarn_parameters(base, dim, max_position_embeddings, factor, xp):
    attention_factor = 0.1 * math.log(factor) + 1.0
    beta_fast = 32
    beta_slow = 1

    def find_correction_dim(num_rotations, dim, base, max_position_embeddings):
        return (dim * math.log(max_position_embeddings / (num_rotations * 2 * math.pi))) / (2 * math.log(base))

    def find_correction_range(low_rot, high_rot, dim, base, max_position_embeddings):
        low = math.floor(find_correction_dim(low_rot, dim, base, max_position_embeddings))
        high = math.ceil(find_correction_dim(high_rot, dim, base, max_position_embeddings))
        return max(low, 0), min(high, dim - 1)

    def linear_ramp_factor(min, max, dim):
        if min == max:
            max += 0.001  # Prevent singularity
        linear_func = (xp.arange(dim) - min) / (max - min)
        ramp_func = xp.clamp(linear_func, 0, 1)
        return ramp_func

    pos_freqs = base ** (xp.arange(0, dim, 2) / dim)
    inv_freq_extrapolation = 1.0 / pos_freqs
    inv_freq_interpolation = 1.0 / (factor * pos_freqs)
    low, high = find_correction_range(beta_fast, beta_slow, dim, base, max_position_embeddings)
    inv_freq_extrapolation_factor = 1 - linear_ramp_factor(low, high, dim // 2)
    inv_freq = (
        inv_freq_interpolation * (1 - inv_freq_extrapolation_factor)
        + inv_freq_extrapolation * inv_freq_extrapolation_factor
    )
    return inv_freq, attention_factor


F64, F32 = Float64Torch, Float32Torch


def check_rotary():
    bases = [10000.0, 500.0, 1e6, 2.5]
    pair_counts = [1, 2, 3, 4, 8, 16, 32, 64]
    factors = [1.0, 1.5, 2.0, 4.0, 8.0, 3.0, 16.0]
    lengths = [8, 16, 12, 100, 2048]
    worst32 = 0.0
    ulp = {"linear": 0, "ntk": 0, "yarn": 0}
    cases = {"linear": 0, "ntk": 0, "yarn": 0}

    def compare(method, ours, theirs64, theirs32):
        nonlocal worst32
        cases[method] += 1
        if not np.array_equal(ours, theirs64.numpy()):
            ulp[method] += 1
        worst32 = max(worst32, float(np.max(np.abs(ours - theirs32.double().numpy()) / ours)))

    today, temperatures = [], []
    for base, pairs in itertools.product(bases, pair_counts):
        d = 2 * pairs
        ours = ps.rotary_frequencies(pairs, base)
        # the model's frequencies today: std::pow(base, -(2i) / width) (src/core/positions.cpp, position_frequencies)
        today.append(np.array_equal(ours, np.array([math.pow(base, -float(2 * i) / d) for i in range(pairs)])))
        for factor in factors:
            compare("linear", ps.rotary_frequencies(pairs, base, {"method": "linear", "factor": factor}),
                    _compute_linear_scaling_rope_parameters(base, d, factor, F64)[0],
                    _compute_linear_scaling_rope_parameters(base, d, factor, F32)[0])
            if d > 2:
                # 'dynamic' reaches the effective factor f at seq_len = M (2f - 1) / f; M = 16 f keeps that exact
                M = int(16 * factor) if factor == int(factor) else 32
                seq_len = M * (2 * factor - 1) / factor
                effective = factor * seq_len / M - (factor - 1)
                if seq_len == int(seq_len) and effective == factor and seq_len > M:
                    compare("ntk", ps.rotary_frequencies(pairs, base, {"method": "ntk", "factor": factor}),
                            _compute_dynamic_ntk_parameters(base, d, M, factor, int(seq_len), F64)[0],
                            _compute_dynamic_ntk_parameters(base, d, M, factor, int(seq_len), F32)[0])
                elif factor == 1.0:
                    compare("ntk", ps.rotary_frequencies(pairs, base, {"method": "ntk", "factor": factor}),
                            _compute_dynamic_ntk_parameters(base, d, 16, 1.0, None, F64)[0],
                            _compute_dynamic_ntk_parameters(base, d, 16, 1.0, None, F32)[0])
            for length in lengths:
                scaling = {"method": "yarn", "factor": factor, "originalLength": length}
                compare("yarn", ps.rotary_frequencies(pairs, base, scaling),
                        _compute_yarn_parameters(base, d, length, factor, F64)[0],
                        _compute_yarn_parameters(base, d, length, factor, F32)[0])
                m = _compute_yarn_parameters(base, d, length, factor, F64)[1]
                temperatures.append(ps.yarn_temperature(factor) == m * m)
    check(f"rotary without scaling = std::pow(base, -(2i)/d), {len(today)} (base, pairs)", all(today))
    for method in ("linear", "ntk", "yarn"):
        check(f"rotary '{method}' = Hugging Face's function in float64, bit for bit, {cases[method]} cases",
              ulp[method] == 0, f"{ulp[method]} differ" if ulp[method] else "")
    check("rotary, every method = Hugging Face's function as written (float32) within float32 rounding",
          worst32 < 2 ** -20, f"worst relative difference {worst32:.3g} (float32's unit roundoff: 6e-8)")
    check(f"YaRN temperature = Hugging Face's attention_factor squared, bit for bit, {len(temperatures)} cases",
          all(temperatures))
    f = ps.rotary_frequencies(4, 10000.0, {"method": "ntk", "factor": 1.0})
    check("'ntk' with factor 1 = no scaling, to the last bit of 1/b^x vs b^-x",
          np.allclose(f, ps.rotary_frequencies(4, 10000.0), rtol=2 ** -52, atol=0))


# --------------------------------------------------------------------------------------------------------------------
# Randomized positions: Floyd's algorithm
# --------------------------------------------------------------------------------------------------------------------


def check_random_positions():
    from make_model_fixtures import SplitMix64

    stream = SplitMix64(5)
    exact = all(ps.sorted_sample(stream, T, T) == list(range(T)) for T in range(1, 70))
    check("range = length: the draw is 0 ... length - 1", exact)
    stream = SplitMix64(11)
    rows = ps.random_positions(stream, 200, 9, 40)
    check("rows strictly increasing, within 0 ... range - 1",
          bool(np.all(np.diff(rows, axis=1) > 0) and rows.min() >= 0 and rows.max() < 40))
    # every 3-subset of 0 .. 6 (35 of them) equally likely: chi-square with 34 degrees of freedom
    stream = SplitMix64(2026)
    n = 35000
    counts = {}
    for _ in range(n):
        key = tuple(ps.sorted_sample(stream, 3, 7))
        counts[key] = counts.get(key, 0) + 1
    expected = n / 35
    chi2 = sum((counts.get(s, 0) - expected) ** 2 / expected for s in itertools.combinations(range(7), 3))
    check("every subset equally likely (3 of 7, 35000 draws)", len(counts) == 35 and chi2 < 65.2,
          f"chi-square {chi2:.1f} (34 degrees of freedom; 65.2 is its 0.1% point)")
    # The distribution Ruoss et al. draw from: jax.random.choice(arange(L), (T,), replace=False), sorted: a uniformly
    # random T-subset of 0 .. L-1 (their code, models/positional_encodings.py, noisy_fixed_positional_encodings).
    stream = SplitMix64(7)
    first = ps.random_positions(stream, 2, 5, 16)
    print(f"     (seed 7, 2 rows of 5 of 0 ... 15: {first.tolist()})")


# --------------------------------------------------------------------------------------------------------------------
# The reference model itself
# --------------------------------------------------------------------------------------------------------------------


def check_reference():
    import model_reference as ref

    torch.manual_seed(0)
    ids = torch.randint(0, 16, (3, 11))
    for positions in ("sinusoidal", "rotary", "none", "learned"):
        model = ref.Model(positions=positions, max_length=16, seed=4)
        explicit = torch.arange(11).expand(3, 11)
        with torch.no_grad():
            same = torch.equal(model(ids), model(ids, position_ids=explicit))
        check(f"reference, {positions}: positionIds 0 ... T-1 = no positionIds, bit for bit", same)
    # rotary with every pair rotated, base 10000 and no scaling: the rotation of the reference before the options
    model = ref.Model(positions="rotary", seed=4)
    x = torch.randn(3, 2, 11, 16)
    T, hd = 11, 16
    t = torch.arange(T, dtype=torch.float64)[:, None]
    f = 10000.0 ** (-torch.arange(0, hd, 2, dtype=torch.float64) / hd)
    angles = t * f
    sin, cos = torch.sin(angles).float(), torch.cos(angles).float()
    even, odd = x[..., 0::2], x[..., 1::2]
    old = torch.stack((even * cos - odd * sin, even * sin + odd * cos), dim=-1).flatten(-2)
    check("reference rotary (every pair, base 10000) = the rotation before the options",
          torch.equal(model.rotate(x, torch.arange(T).expand(3, T)), old))
    # rotaryPairs p: the first p pairs rotated as a head of width 2p would be, the others passed through
    partial = ref.Model(positions="rotary", seed=4, rotary_pairs=3, rotary_base=500.0)
    narrow = ref.Model(positions="rotary", width=12, heads=2, seed=4, rotary_base=500.0)  # heads of width 6: 3 pairs
    rows = torch.tensor([[0, 2, 3, 7, 8, 20, 21, 22, 30, 31, 40]] * 3)
    for scaling in (None, {"method": "yarn", "factor": 4.0, "originalLength": 16}):
        y, z = partial.rotate(x, rows, scaling), narrow.rotate(x[..., :6], rows, scaling)
        check(f"reference rotaryPairs 3 of 8 ({scaling['method'] if scaling else 'no scaling'}): the first 3 pairs as a "
              "head of 3 pairs, the others unchanged", torch.equal(y[..., :6], z) and torch.equal(y[..., 6:], x[..., 6:]))
    # positionRange = T: the draw is 0 ... T-1, and a short training run gives the bits of one without the option
    losses = {}
    for position_range in (None, 9):
        model = ref.Model(positions="rotary", seed=6, readout="each", classes=16)
        optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
        losses[position_range] = [ref.adam_step(model, optimizer, *ref.lookback_task(8, 9, 2, 30 + k),
                                                position_range=position_range) for k in range(5)]
    check("reference: positionRange = T trains to the bits of no option", losses[None] == losses[9])
    model = ref.Model(positions="learned", max_length=40, seed=6)
    a = ref.call_positions(model, torch.zeros(3, 5, dtype=torch.long), 40, training=True)
    b = ref.call_positions(model, torch.zeros(3, 5, dtype=torch.long), 40, training=False)
    c = ref.call_positions(ref.Model(positions="learned", max_length=40, seed=6), torch.zeros(3, 5, dtype=torch.long),
                           40, training=True)
    check("reference: training and evaluation draws come from two streams, each seeded by the model's seed",
          not torch.equal(a, b) and torch.equal(a, c))
    # ALiBi and relative scores against a loop
    for positions, causal in (("alibi", True), ("alibi", False), ("relative", False), ("relative", True)):
        model = ref.Model(positions=positions, heads=2, causal=causal, seed=3, buckets=8, max_distance=10)
        rows = torch.tensor([[0, 1, 2, 3, 4, 5], [1, 4, 9, 15, 22, 40]])
        bias = model.position_bias(rows).double()
        want = torch.empty(2, 2, 6, 6, dtype=torch.float64)
        for b, h, i, j in itertools.product(range(2), range(2), range(6), range(6)):
            d = int(rows[b, j] - rows[b, i])
            if positions == "alibi":
                m = ps.alibi_slopes(2)[h]
                want[b, h, i, j] = float(np.float32(-(m * (-d if causal else abs(d)))))
            else:
                bucket = _relative_position_bucket(torch.tensor([d]), not causal, 8, 10).item()
                want[b, h, i, j] = model.p("relativeBias")[bucket, h].double()
        check(f"reference {positions} ({'causal' if causal else 'bidirectional'}) bias = loop over (i, j)",
              torch.equal(bias, want))


def main():
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures"))
    torch.set_num_threads(1)
    check_alibi()
    check_relative()
    check_rotary()
    check_random_positions()
    check_reference()
    print(f"{len(FAILED)} failed" if FAILED else "every check passed")
    sys.exit(1 if FAILED else 0)


if __name__ == "__main__":
    main()
