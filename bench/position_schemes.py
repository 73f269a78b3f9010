"""The position schemes of seqorder's model, as docs/model.md ("Position schemes") specifies them: the numbers each
scheme is made of, in float64, for the PyTorch reference (bench/model_reference.py) and for the C++ side to be checked
against. bench/check_position_schemes.py compares every function here with transcriptions of its source (the ALiBi
authors' get_slopes, T5's _relative_position_bucket, Hugging Face transformers' rope initialisation functions, the
draw of Ruoss et al.'s randomized positions).

    alibi_slopes(heads)                              m_1 ... m_H, as the ALiBi authors' get_slopes computes them
    alibi_bias(slopes, positions, causal)            (B, H, T, T): -m_h (p_i - p_j), or -m_h |p_i - p_j| bidirectional
    relative_bucket(distance, causal, buckets, max_distance)   T5's bucket of a key's distance p_j - p_i
    rotary_frequencies(pairs, base, scaling)         f_0 ... f_(p-1) of a (possibly partial, possibly stretched) rotation
    yarn_temperature(factor)                         the number YaRN multiplies the attention logits by
    random_positions(stream, count, length, range_)  (count, length) sorted positions, each row drawn without
                                                     replacement from 0 ... range_ - 1 (Floyd's algorithm)
"""

import math

import numpy as np

# ---------------------------------------------------------------------------------------------------------------
# ALiBi (Press, Smith and Lewis, "Train Short, Test Long", ICLR 2022)
# ---------------------------------------------------------------------------------------------------------------


def _geometric_slopes(n):
    """n a power of two: start * start^i for i = 0 .. n-1, start = 2^(-2^(3 - log2 n)) = 2^(-8/n)."""
    start = 2.0 ** (-(2.0 ** -(math.log2(n) - 3)))
    return [start * start ** i for i in range(n)]


def alibi_slopes(heads):
    """The head slopes m_1 ... m_H (float64), bit for bit as the authors' get_slopes: for H a power of two the geometric
    sequence 2^(-8/H), 2^(-16/H), ... computed as start * ratio**i; otherwise the slopes of the largest power of two
    P < H, then every other slope of 2P (its 1st, 3rd, 5th, ...) until H slopes are there."""
    if heads < 1:
        raise ValueError("heads must be at least 1")
    if heads & (heads - 1) == 0:
        return _geometric_slopes(heads)
    power = 1 << (heads.bit_length() - 1)
    return _geometric_slopes(power) + alibi_slopes(2 * power)[0::2][: heads - power]


def alibi_bias(slopes, positions, causal):
    """(B, H, T, T) float64: bias[b, h, i, j] = -(m_h * (p_i - p_j)) when causal (keys j > i are masked anyway), else
    -(m_h * |p_i - p_j|); positions (B, T) int, increasing in each row. Each value is one float64 product of the slope
    and an exact integer distance."""
    p = np.asarray(positions, dtype=np.int64)
    distance = p[:, :, None] - p[:, None, :]  # (B, T, T): p_i - p_j
    if not causal:
        distance = np.abs(distance)
    m = np.asarray(slopes, dtype=np.float64)[None, :, None, None]
    return -(m * distance[:, None, :, :].astype(np.float64))


# ---------------------------------------------------------------------------------------------------------------
# T5's relative bias (Raffel et al., JMLR 2020; Mesh TensorFlow's and Hugging Face's _relative_position_bucket)
# ---------------------------------------------------------------------------------------------------------------


def relative_bucket(distance, causal, buckets=32, max_distance=128):
    """The bucket of each key's distance d = p_j - p_i (an int array), as T5 computes it with bidirectional = not causal:
    bidirectional, half the buckets for d <= 0 and half (offset by buckets // 2) for d > 0, on |d|; causal, every bucket
    for n = max(-d, 0). Within a direction of b buckets, n < b // 2 is its own bucket; larger n go to
    b // 2 + trunc(log(n / (b // 2)) / log(max_distance / (b // 2)) * (b - b // 2)), at most b - 1, computed in float32
    as T5 does (float32 n / (b // 2), its float32 logarithm correctly rounded, the float64 log(max_distance / (b // 2)) rounded to float32,
    the product rounded to float32, then truncated)."""
    d = np.asarray(distance, dtype=np.int64)
    if causal:
        per, offset, n = buckets, np.zeros_like(d), np.maximum(-d, 0)
    else:
        per = buckets // 2
        offset, n = np.where(d > 0, per, 0), np.abs(d)
    exact = per // 2
    with np.errstate(divide="ignore"):  # n = 0 (small anyway) takes the log of 0
        quotient = (n.astype(np.float32) / np.float32(exact)).astype(np.float32)
        # the float32 logarithm correctly rounded: the float64 logarithm rounded to float32 (as torch.log gives it;
        # numpy's float32 log is an ulp off for some arguments, e.g. log(2.25))
        scaled = np.log(quotient.astype(np.float64)).astype(np.float32)
        ratio = np.float32(math.log(max_distance / exact))
        large = ((scaled / ratio).astype(np.float32) * np.float32(per - exact)).astype(np.float32)
    large = np.where(n < exact, 0, large)  # only the small distances' infinities, never used
    large = np.minimum(exact + np.trunc(large).astype(np.int64), per - 1)
    return offset + np.where(n < exact, n, large)


def check_relative_options(buckets, max_distance, causal):
    """The rules of relative's options: a direction of b buckets (buckets, or buckets / 2 bidirectional, then buckets
    even) needs b >= 2, and max_distance > b // 2 (T5's logarithm divides by log(max_distance / (b // 2)))."""
    if not causal and buckets % 2:
        raise ValueError("buckets must be even for bidirectional attention (half the buckets per direction)")
    per = buckets if causal else buckets // 2
    if per < 2:
        raise ValueError("buckets must be at least 2 (causal) or 4 (bidirectional)")
    if max_distance <= per // 2:
        raise ValueError("maxDistance must be greater than the exact buckets of a direction")


# ---------------------------------------------------------------------------------------------------------------
# Rotary frequencies: base, partial rotation and the stretching methods
# ---------------------------------------------------------------------------------------------------------------


def rotary_frequencies(pairs, base=10000.0, scaling=None):
    """f_0 ... f_(p-1) (float64) of a rotation of p pairs (rotated width d = 2p; pair i turns by p_t * f_i):

      no scaling   f_i = base^(-2i/d)                                   (pow(base, -(2i)/d): the model's bits today)
      'linear'     f_i = (1 / base^(2i/d)) / factor                     (position interpolation, Chen et al. 2023)
      'ntk'        f_i = 1 / b^(2i/d), b = base * factor^(d/(d-2))      (NTK-aware: 'dynamic' at a fixed factor)
      'yarn'       NTK-by-parts (Peng et al. 2023, alpha 1, beta 32): f_i = g_i (1 - e_i) + h_i e_i with
                   h_i = 1 / base^(2i/d), g_i = 1 / (factor base^(2i/d)), e_i = 1 - clamp((i - lo) / (hi - lo), 0, 1),
                   lo = max(floor(c(32)), 0), hi = min(ceil(c(1)), d - 1) (hi + 0.001 when equal),
                   c(r) = (d log(L / (r 2 pi))) / (2 log base), L = scaling['originalLength']

    each as Hugging Face transformers' rope initialisation functions compute it (there in float32), here in float64 in
    the same order of operations. scaling: None or {'method', 'factor'[, 'originalLength']}."""
    d = 2 * pairs
    # one libm or IEEE operation at a time, over Python floats (as std::pow and the C++ side compute them; numpy's and
    # torch's vectorized pow are not libm's)
    exponents = [float(2 * i) / d for i in range(pairs)]  # (2i)/d, one division
    if scaling is None:
        return np.array([math.pow(base, -float(2 * i) / d) for i in range(pairs)])
    method, factor = scaling["method"], float(scaling["factor"])
    if method == "linear":
        return np.array([(1.0 / math.pow(base, x)) / factor for x in exponents])
    if method == "ntk":
        stretched = base * math.pow(factor, d / (d - 2))
        return np.array([1.0 / math.pow(stretched, x) for x in exponents])
    if method == "yarn":
        length = scaling["originalLength"]

        def correction(rotations):
            return (d * math.log(length / (rotations * 2 * math.pi))) / (2 * math.log(base))

        lo, hi = max(math.floor(correction(32)), 0), min(math.ceil(correction(1)), d - 1)
        if lo == hi:
            hi += 0.001
        frequencies = []
        for i, x in enumerate(exponents):
            extrapolation = 1.0 - min(max((float(i) - lo) / (hi - lo), 0.0), 1.0)
            power = math.pow(base, x)
            frequencies.append((1.0 / (factor * power)) * (1.0 - extrapolation) + (1.0 / power) * extrapolation)
        return np.array(frequencies)
    raise ValueError(f"unknown ropeScaling method {method!r}")


def yarn_temperature(factor):
    """YaRN's attention temperature: the logits multiplied by 1/t = (0.1 ln(factor) + 1)^2 (the paper's sqrt(1/t), which
    Hugging Face multiplies both cos and sin by, so both q and k), in float64."""
    m = 0.1 * math.log(factor) + 1.0
    return m * m


# ---------------------------------------------------------------------------------------------------------------
# Randomized positions (Ruoss et al., ACL 2023)
# ---------------------------------------------------------------------------------------------------------------


def sorted_sample(stream, length, range_):
    """length distinct integers of 0 .. range_ - 1, each subset equally likely, ascending: Floyd's algorithm (Bentley and
    Floyd, CACM 1987), one stream.uniform_below(j + 1) per j = range_ - length ... range_ - 1, taking j when the drawn
    number is already chosen. With range_ == length every draw is taken or replaced by j, so the result is 0 ... length-1."""
    chosen = set()
    for j in range(range_ - length, range_):
        r = stream.uniform_below(j + 1)
        chosen.add(j if r in chosen else r)
    return sorted(chosen)


def random_positions(stream, count, length, range_):
    """(count, length) int64: row after row, one sorted_sample each, from the one stream."""
    return np.array([sorted_sample(stream, length, range_) for _ in range(count)], dtype=np.int64).reshape(count, length)


# The model's two position streams (SplitMix64, src/core/model/random.hpp), seeded from the model's seed: training
# draws (step, train) from one, evaluation draws (forward, loss, attentionWeights) from the other, so evaluating a
# model never changes how it trains.
TRAINING_STREAM = 1 << 63
EVALUATION_STREAM = 1 << 62
