#!/usr/bin/python3
"""Writes the hand-made seeds of the fuzz corpus (fuzz/corpus/TARGET/seed-*), one file per case named below.

Each seed spells, in the byte format of fuzz_input.hpp (read from the front, zeros past the end), a call a reader of
the lesson would make or a boundary the core must hold. The rest of fuzz/corpus/ is what libFuzzer found and
`scripts/fuzz.sh --merge` kept (inputs that add coverage); crash-* files are past findings, kept as regressions.

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

LEARNED = {
    # f32, P, D, length, start mode byte (odd: edge P - length + (b % 3) - 1), ..., wrong rank byte, table fill
    'rows-2..6-of-8': flag(0) + small(8) + small(4) + small(5) + bytes([0]) + small(2) + bytes([1]) + fill(0),
    'last-valid-start': flag(1) + small(8) + small(3) + small(5) + bytes([1, 1]) + bytes([1]) + fill(0),
    'one-past-the-end': flag(0) + small(8) + small(3) + small(5) + bytes([1, 2]) + bytes([1]) + fill(0),
    'start-int64-max': flag(0) + small(3) + small(2) + small(5) + bytes([0]) + edge('max') + bytes([1]) + fill(0),
    'huge-length-zero-width': flag(0) + small(3) + small(0) + edge(2**62) + bytes([0]) + small(0) + bytes([1]),
}

ADD = {
    # f32, rank byte (1 + b % 4), [batch], length, width, start, base, x fill, span batch byte
    'lesson-x-6x8': flag(0) + bytes([1]) + small(6) + small(8) + start_zero() + base_lesson() + fill(0) + bytes([1]),
    'batch-3-float32': flag(1) + bytes([2]) + small(3) + small(5) + small(4) + start_small(2) + base_lesson() + fill(1) + bytes([1]),
    'nan-and-inf-in-x': flag(0) + bytes([1]) + small(2) + small(4) + start_zero() + base_lesson() +
                        fill(0, plants=[(1, special(NAN)), (2, special(INF)), (5, special(NINF))]) + bytes([1]),
    'empty-batch-huge-shape': flag(0) + bytes([2]) + small(0) + edge(2**40) + edge(2**40) + start_zero() + base_lesson(),
    'odd-width': flag(0) + bytes([1]) + small(2) + small(3) + start_zero() + base_lesson() + fill(0),
}


def attention(f32, rank3, B, Tq, Tk, D, Dv, causal, qs_mode, mismatch=b'\x00', fills=(fill(0), fill(0), fill(0))):
    out = flag(f32) + flag(rank3) + (small(B) if rank3 else b'') + small(Tq) + small(Tk) + small(D) + small(Dv)
    return out + flag(causal) + qs_mode + mismatch + b''.join(fills)


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
    # B = 0 with Tk = 2^40: a valid, empty call (was: three (Tk) row buffers allocated)
    'empty-batch-huge-keys': flag(0) + flag(1) + small(0) + small(3) + edge(2**40) + small(2) + small(1) + flag(1) +
                             QS_UNSET + bytes([0]),
}



# model_fuzz.cpp: f32, vocab, width, heads, layers, positions byte (none, sinusoidal, learned, rotary, 'absolute'),
# maxLength (flag, size), causal, readout byte (mean, each, 'last'), classes, 8 seed bytes, new-parameters flag, batch,
# length, id bytes (id k < 232: byte k), short-targets byte (0: short), ignore-all byte (0: all -1), target bytes
# (t: t + 1), extra-gradient byte (0: one too many), lr byte (0: 1e-3, 1: 0, 2: 0.1, 3: -1, 4: NaN). Byte 237 draws
# the first value past the range (vocab for an id, classes for a target): PAST, and PAST - 1 in a target list.
NONE, SINUSOIDAL, LEARNED_P, ROTARY, ABSOLUTE = range(5)
MEAN, EACH, LAST = range(3)
PAST = 237


def model(f32, vocab, width, heads, layers, positions, max_length, causal, readout, classes, batch=2, length=5,
          ids=None, targets=None, ignore_all=False, lr=0, params=False):
    size = lambda n: n if isinstance(n, bytes) else small(n)  # noqa: E731
    out = flag(f32) + size(vocab) + size(width) + size(heads) + size(layers) + bytes([positions])
    out += (flag(1) + size(max_length)) if max_length is not None else flag(0)
    out += flag(causal) + bytes([readout]) + size(classes) + bytes(8) + flag(params) + (fill(0) if params else b'')
    out += size(batch) + size(length)
    ids = ids if ids is not None else [(3 * i + 1) % 16 % max(1, vocab if isinstance(vocab, int) else 1)
                                       for i in range(batch * length)]
    if targets is None:
        targets = [i % 2 for i in range(batch * length if readout == EACH else batch)]
    return out + bytes(ids) + bytes([1, 0 if ignore_all else 1]) + bytes(t + 1 for t in targets) + bytes([1, lr])


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
