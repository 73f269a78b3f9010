#!/usr/bin/python3
"""Writes the hand-made seeds of the fuzz corpus (fuzz/corpus/TARGET/seed-*), one file per case named below.

Each seed spells, in the byte format of fuzz_input.hpp (read from the front, zeros past the end), a call a reader of
the lesson would make or a boundary the core must hold; the js-* seeds end with the draws of the package's path
(calls.hpp: numbers, dtypes, shapes, out lengths as a JS caller passes them). The rest of fuzz/corpus/ is what
libFuzzer found and `scripts/fuzz.sh --merge` kept (inputs that add coverage); crash-* files are past findings, kept as
regressions.

    /usr/bin/python3 fuzz/make_seeds.py
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

# Input::size(small_max): [0, n] for n <= small_max, [200, lo, hi] for a 2-byte n, [216, k] for edges[k]
EDGES = {-1: 0, -2: 1, 0: 2, 1: 3, 'min': 4, 'max': 5, 2**31: 6, 2**32: 7, 2**53 - 1: 8, 2**53: 9, 2**53 + 1: 10,
         2**62: 11, 2**40: 12, 1000000: 13, 3: 14, 65537: 15, 'max-1': 16, -(2**53): 17}


def small(n):
    return bytes([0, n])


def two(n):
    return bytes([200]) + struct.pack('<H', n)


def edge(name):
    return bytes([216, EDGES[name]])


def flag(b):
    return bytes([1 if b else 0])


# Input::special(): [k] for table[k] (k < 48); the table starts NaN, +inf, -inf, 0, -0, DBL_MIN, denorm_min, ...
NAN, INF, NINF, ZERO, NZERO, DMIN, DENORM = range(7)


def special(k):
    return bytes([k])


def raw_double(x):
    return bytes([48 * 2 + 1]) + struct.pack('<d', x)  # any k >= 48 reads 8 raw bytes


# Input::fill(): kind (0 moderate, 1 wide, 2 any bits, 3 small integers), 4-byte xorshift seed, plants (0..3),
# then for each plant a 2-byte index and a special value.
def fill(kind=0, seed=12345, plants=()):
    out = bytes([kind]) + struct.pack('<I', seed) + bytes([len(plants)])
    for index, value in plants:
        out += struct.pack('<H', index) + value
    return out


# draw_start: [0] zero, [1] + size(1000), [2] + size(40) -> 2^53 - n, [3] + 3 bytes, [4] + size(8)
def start_zero():
    return bytes([0])


def start_small(n):
    return bytes([4]) + small(n)


def start_near_limit(n):
    return bytes([2]) + small(n)


# draw_base: [0] 10000, [1, n] n, [2, n] 1 + n/64, [3, e] 2^(e - 128), [4] + special
def base_lesson():
    return bytes([0])


def base_special(k):
    return bytes([4]) + special(k)


def base_int(n):
    return bytes([1, n])


# ---- the package's path (calls.hpp), drawn after all of the above; a zero byte is always the plain case ----

# Input::number(): [0] the number meant, [208 + k] mistake k of Input::misread
MEANT = bytes([0])
(FRACTION, NUDGED, M_NAN, M_INF, M_NEG_INF, M_NEG_ZERO, NEGATED, PLUS_ONE, MINUS_ONE, MAX_SAFE, TWO_53, TWO_53_PLUS_2,
 TWO_64, E300, TWO_40) = range(15)


def mistake(k):
    return bytes([208 + k])


# Input::dtype(): [0] the data's own dtype, [224 + i] the i-th other: the other float type ("other", where the call must
# refuse it), 'int32', '', 'float16', 'Float32', 'float64 ', 'int64', 'bfloat16'
DTYPE_OTHER, DTYPE_INT32, DTYPE_EMPTY, DTYPE_FLOAT16 = (bytes([224 + i]) for i in range(4))

# Input::name() for positions' layout: [0] the one meant, else ['interleaved', 'halves', 'Halves', '', 'interleaved ',
# 'sequential'][k % 6]
LAYOUT = {'interleaved': bytes([228]), 'halves': bytes([229]), 'Halves': bytes([224]), 'sequential': bytes([227])}


# Input::shape(): [0] the shape meant; else up to 3 changes, each [224, what, axis (, a mistake byte)], then [0]
def reshape(*changes):
    return b''.join(bytes([224]) + c for c in changes) + (b'' if len(changes) == 3 else bytes([0]))


def entry_mistake(axis, k):
    return bytes([0, axis, k])


def entry_plus_one(axis):
    return bytes([9, axis])


def entry_2_40(axis):
    return bytes([2, axis])


def swap(axis):  # axis and axis + 1
    return bytes([3, axis])


def insert_one(axis):
    return bytes([4, axis])


SAME = bytes([0])

# Input::lead_axes(batch): [0] as drawn ([B] or none), [1] [1, B], [2] [B, 1], [3] [1, 1, B], [4] none for B = 1,
# [5] [0, 2^40] for B = 0, [6] [2^40, 2^40, 0] for B = 0
LEAD_AS_DRAWN, LEAD_ONE_BEFORE, LEAD_ONE_AFTER, LEAD_TWO_ONES_BEFORE, LEAD_NONE, LEAD_ZERO_HUGE, LEAD_HUGE_HUGE_ZERO = (
    bytes([k]) for k in range(7))

# Input::out_length(count): [0] no out array, [3] count, [5] count + 1, [6] count - 1
NO_OUT, OUT_RIGHT, OUT_ONE_MORE, OUT_ONE_LESS = bytes([0]), bytes([3]), bytes([5]), bytes([6])


def package_positions(length=MEANT, width=MEANT, start=MEANT, dtype=MEANT, layout=MEANT, out=NO_OUT):
    return length + width + start + dtype + layout + out


POSITIONS = {
    # f32, halves, length, width, start, base
    'lesson-table-40x16': flag(0) + flag(0) + small(40) + small(16) + start_zero() + base_lesson(),
    'float32-halves': flag(1) + flag(1) + small(33) + small(64) + start_small(7) + base_lesson(),
    'near-2^53': flag(0) + flag(0) + small(17) + small(8) + start_near_limit(17) + base_lesson(),
    'past-2^53': flag(0) + flag(0) + small(17) + small(8) + start_near_limit(16) + base_lesson(),
    'odd-width': flag(0) + flag(0) + small(3) + small(7) + start_zero() + base_lesson(),
    'empty-huge-width': flag(0) + flag(0) + small(0) + edge(2**40) + start_zero() + base_lesson(),
    'huge-length': flag(1) + flag(0) + edge(2**40) + small(2) + start_zero() + base_lesson(),
    'base-denormal': flag(0) + flag(0) + small(1) + small(48) + start_zero() + base_special(DENORM),
    'base-nan': flag(0) + flag(0) + small(2) + small(4) + start_zero() + base_special(NAN),
    'base-one': flag(1) + flag(0) + small(9) + small(6) + start_small(3) + base_int(1),
    'negative-length': flag(0) + flag(0) + edge(-1) + small(4) + start_zero() + base_lesson(),
}
LESSON_TABLE = POSITIONS['lesson-table-40x16']
POSITIONS.update({
    'js-length-fraction': LESSON_TABLE + package_positions(length=mistake(FRACTION)),
    'js-width-nan': LESSON_TABLE + package_positions(width=mistake(M_NAN)),
    'js-start-past-2^53': LESSON_TABLE + package_positions(start=mistake(TWO_53_PLUS_2)),
    'js-start-minus-zero': LESSON_TABLE + package_positions(start=mistake(M_NEG_ZERO), out=OUT_RIGHT),
    'js-layout-sequential': LESSON_TABLE + package_positions(layout=LAYOUT['sequential']),
    'js-layout-halves-out-right': POSITIONS['float32-halves'] + package_positions(layout=LAYOUT['halves'], out=OUT_RIGHT),
    'js-dtype-int32': LESSON_TABLE + package_positions(dtype=DTYPE_INT32),
    'js-out-length-one-more': LESSON_TABLE + package_positions(out=OUT_ONE_MORE),
    # past the 1 GiB limit and a wrong out length: the size is the error, nothing allocated
    'js-huge-table-wrong-out-length': POSITIONS['huge-length'] + package_positions(out=OUT_ONE_MORE),
    'js-empty-2^40-wide-out-0': POSITIONS['empty-huge-width'] + package_positions(out=OUT_RIGHT),
    'js-width-2^53-1': POSITIONS['empty-huge-width'] + package_positions(width=mistake(MAX_SAFE)),  # odd
})

EMBED = {
    # f32, V, D, ids rank byte (1 + b % 3), ids dims, table rank byte (0 -> rank 3), table fill, ids bytes
    'lookup-3x4-ids-5': flag(0) + small(3) + small(4) + bytes([0]) + small(5) + bytes([1]) + fill(0) + bytes([0, 1, 2, 1, 0]),
    'batch-2x3-float32': flag(1) + small(5) + small(2) + bytes([1]) + small(2) + small(3) + bytes([1]) + fill(2) +
                         bytes([4, 3, 2, 1, 0, 4]),
    'id-equal-to-vocab': flag(0) + small(3) + small(2) + bytes([0]) + small(4) + bytes([1]) + fill(0) + bytes([0, 1, 2, 255 - 2]),
    'negative-id': flag(0) + small(3) + small(2) + bytes([0]) + small(2) + bytes([1]) + fill(0) + bytes([0, 224]),
    'empty-vocab': flag(0) + small(0) + small(2) + bytes([0]) + small(1) + bytes([1]),
    'nan-rows-copied': flag(0) + small(2) + small(3) + bytes([0]) + small(2) + bytes([1]) +
                       fill(0, plants=[(0, special(NAN)), (4, special(NZERO))]) + bytes([0, 1]),
    'rank-3-ids': flag(0) + small(2) + small(2) + bytes([2]) + small(1) + small(1) + small(1) + bytes([1]),
}


def package_embed(table_dtype=MEANT, table_shape=SAME, ids_dtype=MEANT, ids_shape=SAME, out=NO_OUT):
    return table_dtype + table_shape + ids_dtype + ids_shape + out


LOOKUP = EMBED['lookup-3x4-ids-5']
EMBED.update({
    'js-table-shape-disagrees': LOOKUP + package_embed(table_shape=reshape(entry_plus_one(0))),
    'js-table-shape-swapped': LOOKUP + package_embed(table_shape=reshape(swap(0)), out=OUT_RIGHT),
    'js-ids-float32': LOOKUP + package_embed(ids_dtype=DTYPE_OTHER),
    'js-table-int32': LOOKUP + package_embed(table_dtype=DTYPE_INT32),
    'js-ids-as-1x5': LOOKUP + package_embed(ids_shape=reshape(insert_one(0)), out=OUT_RIGHT),
    'js-ids-shape-nan': LOOKUP + package_embed(ids_shape=reshape(entry_mistake(0, M_NAN))),
    'js-bad-id-named-b-t': EMBED['batch-2x3-float32'][:-6] + bytes([4, 3, 2, 1, 0, 250]) + package_embed(),
    # V = 0, D = 2^40 and no ids: an empty result (0, 2^40), nothing allocated
    'js-empty-table-2^40-wide': flag(0) + small(0) + small(2) + bytes([0]) + small(0) + bytes([1]) + fill(0) +
                                package_embed(table_shape=reshape(entry_2_40(1)), out=OUT_RIGHT),
})

LEARNED = {
    # f32, P, D, length, start mode byte (odd: edge P - length + (b % 3) - 1), ..., wrong rank byte, table fill
    'rows-2..6-of-8': flag(0) + small(8) + small(4) + small(5) + bytes([0]) + small(2) + bytes([1]) + fill(0),
    'last-valid-start': flag(1) + small(8) + small(3) + small(5) + bytes([1, 1]) + bytes([1]) + fill(0),
    'one-past-the-end': flag(0) + small(8) + small(3) + small(5) + bytes([1, 2]) + bytes([1]) + fill(0),
    'start-int64-max': flag(0) + small(3) + small(2) + small(5) + bytes([0]) + edge('max') + bytes([1]) + fill(0),
    'huge-length-zero-width': flag(0) + small(3) + small(0) + edge(2**62) + bytes([0]) + small(0) + bytes([1]),
}


def package_learned(dtype=MEANT, shape=SAME, length=MEANT, start=MEANT, out=NO_OUT):
    return dtype + shape + length + start + out


ROWS = LEARNED['rows-2..6-of-8']
LEARNED.update({
    'js-length-fraction': ROWS + package_learned(length=mistake(FRACTION)),
    'js-start-nan': ROWS + package_learned(start=mistake(M_NAN)),
    'js-start-2^53': ROWS + package_learned(start=mistake(TWO_53)),  # a whole number in range, past the table
    'js-start-2^64': ROWS + package_learned(start=mistake(TWO_64)),
    'js-table-rank-3': ROWS + package_learned(shape=reshape(insert_one(2))),
    'js-table-shape-disagrees': ROWS + package_learned(shape=reshape(entry_plus_one(1))),
    'js-out-length-right': ROWS + package_learned(out=OUT_RIGHT),
    'js-out-length-one-less': ROWS + package_learned(out=OUT_ONE_LESS),
})

ADD = {
    # f32, rank byte (1 + b % 4), [batch], length, width, start, base, x fill, span batch byte
    'lesson-x-6x8': flag(0) + bytes([1]) + small(6) + small(8) + start_zero() + base_lesson() + fill(0) + bytes([1]),
    'batch-3-float32': flag(1) + bytes([2]) + small(3) + small(5) + small(4) + start_small(2) + base_lesson() + fill(1) + bytes([1]),
    'nan-and-inf-in-x': flag(0) + bytes([1]) + small(2) + small(4) + start_zero() + base_lesson() +
                        fill(0, plants=[(1, special(NAN)), (2, special(INF)), (5, special(NINF))]) + bytes([1]),
    'empty-batch-huge-shape': flag(0) + bytes([2]) + small(0) + edge(2**40) + edge(2**40) + start_zero() + base_lesson(),
    'odd-width': flag(0) + bytes([1]) + small(2) + small(3) + start_zero() + base_lesson() + fill(0),
}


# after x's fill and the span API's batch byte ([1]: the batch as drawn)
def package_add(lead=LEAD_AS_DRAWN, dtype=MEANT, shape=SAME, start=MEANT, out=NO_OUT):
    return lead + dtype + shape + start + out


LESSON_X, BATCH_3 = ADD['lesson-x-6x8'], ADD['batch-3-float32']
ADD.update({
    'js-lead-1-1-B': BATCH_3 + package_add(lead=LEAD_TWO_ONES_BEFORE, out=OUT_RIGHT),
    'js-lead-B-1': BATCH_3 + package_add(lead=LEAD_ONE_AFTER),
    'js-shape-swapped': LESSON_X + package_add(shape=reshape(swap(0)), out=OUT_RIGHT),  # (8, 6): valid, other T and D
    'js-x-int32': LESSON_X + package_add(dtype=DTYPE_INT32),
    'js-start-fraction': LESSON_X + package_add(start=mistake(FRACTION)),
    'js-start-2^53': LESSON_X + package_add(start=mistake(TWO_53)),
    'js-out-length-one-more': LESSON_X + package_add(out=OUT_ONE_MORE),
    # x (2^40, 2^40, 0, 3, 2): an empty x whose leading axes multiply past 64 bits (calls.cpp's product must not overflow)
    'js-empty-huge-leading-axes': flag(0) + bytes([2]) + small(0) + small(3) + small(2) + start_zero() + base_lesson() +
                                  fill(0) + bytes([1]) + package_add(lead=LEAD_HUGE_HUGE_ZERO, out=OUT_RIGHT),
})


def attention(f32, rank3, B, Tq, Tk, D, Dv, causal, qs_mode, mismatch=b'\x00', fills=(fill(0), fill(0), fill(0)),
              package=b''):
    out = flag(f32) + flag(rank3) + (small(B) if rank3 else b'') + (small(Tq) if Tq < 256 else two(Tq)) + small(Tk)
    return out + small(D) + small(Dv) + flag(causal) + qs_mode + mismatch + b''.join(fills) + package


# after the fills: the fast path's short span ([0]: none), then the package's call
def package_attention(lead=LEAD_AS_DRAWN, q=(MEANT, SAME), k=(MEANT, SAME), v=(MEANT, SAME), query_start=MEANT,
                      steps=False, out=NO_OUT):
    return bytes([0]) + lead + b''.join(q + k + v) + query_start + flag(steps) + out


QS_UNSET, QS_DEFAULT, QS_ZERO, QS_PAST, QS_MINUS_ONE = bytes([0]), bytes([3]), bytes([4]), bytes([5]), bytes([6])

ATTENTION = {
    'lesson-4-steps': attention(0, 0, 1, 4, 4, 8, 8, 0, QS_UNSET),
    'causal-float32-batch': attention(1, 1, 2, 5, 5, 8, 3, 1, QS_UNSET),
    'causal-cached-decoding': attention(0, 0, 1, 1, 6, 4, 4, 1, QS_DEFAULT),
    'causal-query-start-0': attention(1, 0, 1, 3, 7, 4, 2, 1, QS_ZERO),
    'query-start-past-end': attention(0, 0, 1, 3, 7, 4, 2, 1, QS_PAST),
    'query-start-without-causal': attention(0, 0, 1, 3, 3, 4, 2, 0, QS_ZERO),
    'no-keys': attention(0, 1, 2, 3, 0, 4, 2, 0, QS_UNSET),
    'zero-width': attention(0, 0, 1, 2, 2, 0, 2, 0, QS_UNSET),
    'more-queries-than-keys-causal': attention(0, 0, 1, 5, 3, 2, 2, 1, QS_UNSET),
    'nan-in-masked-key': attention(1, 0, 1, 4, 4, 4, 4, 1, QS_UNSET,
                                   fills=(fill(0), fill(0, plants=[(15, special(NAN))]), fill(0, plants=[(15, special(NAN))]))),
    'huge-scores': attention(0, 0, 1, 3, 3, 4, 2, 0, QS_UNSET, fills=(fill(1), fill(1), fill(0))),
    'equal-scores': attention(1, 0, 1, 4, 8, 4, 4, 1, QS_UNSET, fills=(fill(3), fill(3), fill(3))),
    'mismatched-d': attention(0, 0, 1, 2, 2, 3, 2, 0, QS_UNSET, mismatch=bytes([15, 0])),
    # B = 0 with Tk = 2^40: a valid, empty call, which allocates no (Tk) row buffers
    'empty-batch-huge-keys': flag(0) + flag(1) + small(0) + small(3) + edge(2**40) + small(2) + small(1) + flag(1) +
                             QS_UNSET + bytes([0]),
    'js-three-leading-axes-steps': attention(1, 1, 2, 5, 5, 8, 3, 1, QS_UNSET, package=package_attention(
        lead=LEAD_TWO_ONES_BEFORE, steps=True, out=OUT_RIGHT)),
    'js-float64-steps': attention(0, 1, 2, 3, 4, 4, 2, 0, QS_UNSET, package=package_attention(steps=True, out=OUT_RIGHT)),
    'js-no-batch-axis-for-b-1': attention(0, 1, 1, 3, 4, 4, 2, 0, QS_UNSET, package=package_attention(lead=LEAD_NONE)),
    'js-k-leading-axes-swapped': attention(0, 1, 2, 3, 3, 4, 2, 0, QS_UNSET, package=package_attention(
        lead=LEAD_ONE_BEFORE, k=(MEANT, reshape(swap(0))))),
    'js-v-one-more-axis': attention(0, 0, 1, 3, 3, 4, 2, 0, QS_UNSET, package=package_attention(
        v=(MEANT, reshape(insert_one(0))))),
    'js-k-float64-q-float32': attention(1, 0, 1, 3, 3, 4, 2, 0, QS_UNSET, package=package_attention(k=(DTYPE_OTHER, SAME))),
    'js-q-shape-fraction': attention(0, 0, 1, 3, 3, 4, 2, 0, QS_UNSET, package=package_attention(
        q=(MEANT, reshape(entry_mistake(1, FRACTION))))),
    'js-query-start-fraction': attention(1, 0, 1, 3, 7, 4, 2, 1, QS_ZERO, package=package_attention(
        query_start=mistake(FRACTION))),
    'js-query-start-minus-zero': attention(1, 0, 1, 3, 7, 4, 2, 1, QS_ZERO, package=package_attention(
        query_start=mistake(M_NEG_ZERO))),
    'js-out-length-one-less': attention(1, 1, 2, 5, 5, 8, 3, 1, QS_UNSET, package=package_attention(out=OUT_ONE_LESS)),
    # steps of 128 KiB each and a wrong out length: refused before any step is allocated
    'js-steps-wrong-out-length': attention(1, 0, 1, 4096, 8, 1, 1, 0, QS_UNSET, package=package_attention(
        steps=True, out=OUT_ONE_MORE)),
    # q, k, v (2^40, 2^40, 0, ..): empty, their leading axes multiply past 64 bits (calls.cpp's product must not overflow)
    'js-empty-huge-leading-axes': attention(0, 1, 0, 3, 3, 2, 1, 0, QS_UNSET, package=package_attention(
        lead=LEAD_HUGE_HUGE_ZERO, steps=True, out=OUT_RIGHT)),
    # no query rows beside a key: q's batch is 1 (no leading axes), not 0
    'js-no-queries-one-key': attention(1, 0, 1, 0, 1, 8, 0, 1, QS_UNSET, package=package_attention()),
}



# model_fuzz.cpp: f32, vocab, width, heads, layers, positions byte (none, sinusoidal, learned, rotary, 'absolute'),
# maxLength (flag, size), causal, readout byte (mean, each, 'last'), classes, 8 seed bytes, new-parameters flag, then a
# round: batch, length, id bytes (id k < 232: byte k), short-targets byte (0: short), ignore-all byte (0: all -1),
# target bytes (t: t + 1), extra-gradient byte (0: one too many), lr byte (0: 1e-3, 1: 0, 2: 0.1, 3: -1, 4: NaN,
# 5: 1e39, 6: 1e308). Byte 237 draws the first value past the range (vocab for an id, classes for a target): PAST, and
# PAST - 1 in a target list. Then the count of further operations, each a byte (0: a round with allocation k failing,
# k the next byte; 1: set_parameters, mode byte (0 moderate, 1 as drawn, 2 huge) and fill(); 2: a forward at
# (1 + byte % 3, 1 + byte % 24) on ids byte % vocab, compared with the twin's; 3: dispose and create; 4: a round;
# 5: train, a flag (then allocation byte % 64 failing), 1 + byte % 4 batches, an lr byte (0: 1e-3, 1: 0.1, 2: 0, 3: -1,
# 4: NaN, 5: 1e38, 6: 1e307); 6: the package's path, a room byte (0, 1: none, 2: plenty, 3: the next 3 bytes), then
# 1 + byte % 4 calls, each a kind byte (0 forward, 1 step, 2 train of byte % 4 batches) and its batches, each tensor
# followed by its dtype and shape bytes (0 0: as drawn), and for step and train an lr byte (0: 1e-3, 1: 0.05, 2: -1,
# 3: NaN, 4: none). A batch: 1 + byte % 3 sentences of 1 + byte % 10 tokens, a defect byte (below 200: none; 200: an
# id past the vocabulary at the next byte's index, then its value byte; 216: an id of -1 at an index; 224: a target
# past the classes at an index, then a flag (-2 or classes); 232: ids one short; 240: T past maxLength; 248: B = 0),
# its id bytes (% vocab) and target bytes (t + 1).
NONE, SINUSOIDAL, LEARNED_P, ROTARY, ABSOLUTE = range(5)
MEAN, EACH, LAST = range(3)
PAST = 237
OP_FAILING_ROUND, OP_SET_PARAMETERS, OP_COMPARE, OP_DISPOSE, OP_ROUND, OP_TRAIN, OP_PACKAGE = range(7)


def model_round(vocab, readout, batch=2, length=5, ids=None, targets=None, ignore_all=False, lr=0):
    size = lambda n: n if isinstance(n, bytes) else small(n)  # noqa: E731
    out = size(batch) + size(length)
    ids = ids if ids is not None else [(3 * i + 1) % 16 % max(1, vocab if isinstance(vocab, int) else 1)
                                       for i in range(batch * length)]
    if targets is None:
        targets = [i % 2 for i in range(batch * length if readout == EACH else batch)]
    return out + bytes(ids) + bytes([1, 0 if ignore_all else 1]) + bytes(t + 1 for t in targets) + bytes([1, lr])


def model(f32, vocab, width, heads, layers, positions, max_length, causal, readout, classes, batch=2, length=5,
          ids=None, targets=None, ignore_all=False, lr=0, params=False, ops=()):
    size = lambda n: n if isinstance(n, bytes) else small(n)  # noqa: E731
    out = flag(f32) + size(vocab) + size(width) + size(heads) + size(layers) + bytes([positions])
    out += (flag(1) + size(max_length)) if max_length is not None else flag(0)
    out += flag(causal) + bytes([readout]) + size(classes) + bytes(8) + flag(params) + (fill(0) if params else b'')
    out += model_round(vocab, readout, batch, length, ids, targets, ignore_all, lr)
    return out + (bytes([len(ops)]) + b''.join(ops) if ops else b'')


def sequence_of_rounds(vocab, readout, lengths, fail_at):
    """A round at each length, with allocation `fail_at` of each call failing, then a compared forward at each."""
    ops = [bytes([OP_FAILING_ROUND, fail_at]) + model_round(vocab, readout, length=t, lr=2) for t in lengths]
    return ops + [bytes([OP_COMPARE, 0, t - 1]) + bytes(range(t)) for t in lengths]


def train_batch(batch, length, ids, targets, defect=b'\x00'):
    """A batch of train (draw_batch): batch and length as drawn (1 + byte % 3, 1 + byte % 10), a defect, ids, targets."""
    return bytes([batch - 1, length - 1]) + defect[:1] + bytes(ids) + bytes(t + 1 for t in targets) + defect[1:]


def lesson_batch(k, batch=2, length=5, defect=b'\x00'):
    return train_batch(batch, length, [(3 * i + k) % 16 for i in range(batch * length)],
                       [(i + k) % 2 for i in range(batch)], defect)


def train_op(batches, lr=0, fail_at=None):
    fail = flag(0) if fail_at is None else flag(1) + bytes([fail_at])
    return bytes([OP_TRAIN]) + fail + bytes([len(batches) - 1]) + b''.join(batches) + bytes([lr])


def package_op(calls, room=None):
    """calls: [(kind, [batch bytes with their tensors' bytes], lr byte or None)]."""
    out = bytes([OP_PACKAGE]) + (bytes([0]) if room is None else bytes([3]) + struct.pack('<I', room)[:3])
    out += bytes([len(calls) - 1])
    for kind, batches, lr in calls:
        out += bytes([kind]) + (bytes([len(batches)]) if kind == 2 else b'') + b''.join(batches)
        out += bytes([lr]) if lr is not None else b''
    return out


def as_tensors(batch, ids_dtype=b'\x00', ids_shape=b'\x00'):
    """A drawn batch followed by its tensors' dtype and shape draws (ids, then targets)."""
    return batch + ids_dtype + ids_shape + b'\x00\x00'


MODEL = {
    'lesson-sinusoidal': model(1, 16, 8, 2, 1, SINUSOIDAL, None, 0, MEAN, 2),
    'rotary-causal-each': model(1, 16, 8, 2, 2, ROTARY, None, 1, EACH, 3, targets=[0, -1, 2, 1, -1] * 2),
    'learned-float64': model(0, 12, 4, 1, 4, LEARNED_P, 6, 0, MEAN, 2, lr=2, params=True),
    'learned-too-long': model(1, 16, 4, 2, 1, LEARNED_P, 4, 0, MEAN, 2, length=6),
    'learned-without-maxLength': model(1, 16, 4, 2, 1, LEARNED_P, None, 0, MEAN, 2),
    'maxLength-without-learned': model(1, 16, 4, 2, 1, NONE, 8, 0, MEAN, 2),
    'rotary-odd-head-width': model(1, 16, 6, 2, 1, ROTARY, None, 0, MEAN, 2),
    'heads-not-dividing': model(0, 16, 8, 3, 1, NONE, None, 0, MEAN, 2),
    'five-layers': model(1, 16, 4, 1, 5, NONE, None, 0, MEAN, 2),
    'unknown-positions': model(1, 16, 8, 2, 1, ABSOLUTE, None, 0, MEAN, 2),
    'unknown-readout': model(1, 16, 8, 2, 1, NONE, None, 0, LAST, 2),
    'vocab-2^40': model(1, edge(2**40), 8, 2, 1, NONE, None, 0, MEAN, 2),
    'too-many-parameters': model(1, two(65535), two(4096), 1, 1, NONE, None, 0, MEAN, 2),
    'huge-width': model(0, 4, edge(2**32), 1, 1, NONE, None, 0, MEAN, 2),
    'id-equal-to-vocab': model(1, 5, 4, 1, 1, NONE, None, 0, MEAN, 2, batch=1, length=3, ids=[0, PAST, 1]),
    'target-equal-to-classes': model(1, 5, 4, 1, 1, NONE, None, 1, MEAN, 2, batch=2, length=3, targets=[1, PAST - 1]),
    'all-targets-ignored': model(1, 8, 8, 2, 1, SINUSOIDAL, None, 1, EACH, 2, ignore_all=True),
    'lr-nan': model(0, 8, 4, 2, 1, ROTARY, None, 0, MEAN, 2, lr=4),
    'zero-batch': model(1, 8, 4, 2, 1, NONE, None, 0, MEAN, 2, batch=0),
    'huge-length': model(1, 8, 4, 2, 1, NONE, None, 0, EACH, 2, batch=1, length=edge(2**40), ids=[], targets=[]),
    # sequences: a sinusoidal model failing allocations at new lengths (its table rebuilt after each failure)
    'sequence-sinusoidal-failing-lengths': model(1, 16, 8, 2, 1, SINUSOIDAL, None, 0, MEAN, 2, length=4,
                                                 ops=sequence_of_rounds(16, MEAN, [9, 3, 7], 5)),
    'sequence-learned-each-failing': model(0, 12, 4, 1, 2, LEARNED_P, 9, 1, EACH, 3, length=4,
                                           ops=sequence_of_rounds(12, EACH, [8, 2], 11)),
    # parameters set to NaN (refused), huge (steps refused), moderate again; a dispose between
    'sequence-parameters': model(1, 16, 8, 2, 1, ROTARY, None, 1, EACH, 3, ops=[
        bytes([OP_SET_PARAMETERS, 1]) + fill(2), bytes([OP_ROUND]) + model_round(16, EACH, lr=2),
        bytes([OP_SET_PARAMETERS, 2]) + fill(0), bytes([OP_ROUND]) + model_round(16, EACH, lr=2),
        bytes([OP_DISPOSE]), bytes([OP_SET_PARAMETERS, 0]) + fill(0), bytes([OP_ROUND]) + model_round(16, EACH, lr=6)]),
    # train: three batches; a bad id in the third; lengths changing with an allocation failing; lr 1e38 (the second
    # step refused after the first was taken)
    'sequence-train': model(1, 16, 8, 2, 1, SINUSOIDAL, None, 0, MEAN, 2, ops=[
        train_op([lesson_batch(0), lesson_batch(1), lesson_batch(2)]),
        train_op([lesson_batch(0), lesson_batch(1), lesson_batch(2, defect=bytes([200, 3, 0]))]),
        train_op([lesson_batch(0, 2, 4), lesson_batch(1, 3, 9), lesson_batch(2, 1, 2)], fail_at=9),
        train_op([lesson_batch(3), lesson_batch(4)], lr=5)]),
    # the package's path: forward, step and train as a JS caller hands them over; ids of another dtype; a tight room
    'sequence-package': model(1, 16, 8, 2, 1, ROTARY, None, 1, MEAN, 2, ops=[
        package_op([(0, [as_tensors(lesson_batch(0))], None), (1, [as_tensors(lesson_batch(1))], 0),
                    (2, [as_tensors(lesson_batch(2)), as_tensors(lesson_batch(3))], 1)]),
        package_op([(2, [as_tensors(lesson_batch(0)), as_tensors(lesson_batch(1), ids_dtype=bytes([224]))], 0),
                    (1, [as_tensors(lesson_batch(2, defect=bytes([224, 1, 1])))], 4)]),
        package_op([(1, [as_tensors(lesson_batch(0))], 0), (2, [as_tensors(lesson_batch(1, 3, 10))], 0)],
                   room=17000)]),
}

TARGETS = {'positions': POSITIONS, 'embed': EMBED, 'learned_positions': LEARNED, 'add_positions': ADD,
           'attention': ATTENTION, 'model': MODEL}

if __name__ == '__main__':
    for target, seeds in TARGETS.items():
        folder = os.path.join(HERE, 'corpus', target)
        os.makedirs(folder, exist_ok=True)
        for name, data in seeds.items():
            with open(os.path.join(folder, 'seed-' + name), 'wb') as f:
                f.write(data)
        print(f'{target}: {len(seeds)} seeds in {folder}')
