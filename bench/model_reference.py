#!/usr/bin/python3
"""The seqorder model in PyTorch: the same architecture, initialization, data and Adam, written independently of the C++
core (autograd does the backward pass), to measure what the core's figures are compared against.

    /usr/bin/python3 bench/model_reference.py --time     # ms per Adam step, one thread (Debian's python3-torch)
    /usr/bin/python3 bench/model_reference.py --train    # accuracies on the order task after 800 steps, per setup
    /usr/bin/python3 bench/model_reference.py --study order 0 800 sqrtWidth rotary 1 2 7
                                                         # one JSON line per seed, as bench/model_study.cpp prints

The architecture (src/core/model/network.hpp): token embedding plus positions ('none', 'sinusoidal' added, 'learned'
added, 'rotary' rotating each head's query and key pairs; and, as docs/model.md's "Position schemes" specifies them
ahead of the core, 'alibi' and 'relative' biases on the scores, rotary_base, rotary_pairs, rope_scaling, positions per
sentence (position_ids, or drawn from a range: randomized positions), their numbers from bench/position_schemes.py), pre-norm blocks x + Wo attention(LN1(x)), then
x + relu(LN2(x) W1 + b1) W2 + b2, attention scaled by 1/sqrt(D/H) and optionally causal, a final LayerNorm (eps 1e-5)
and a readout: the mean over positions then (D, C) + bias ('mean'), or (D, C) + bias at every position ('each'). Weights are used as x @ W, W of shape (D_in, D_out). The
token vectors may be multiplied by a number (embed_scale, or 'sqrtWidth': sqrt(D)) before the positions are added.

Initialization: normal, std 0.02, for the embedding, learned positions, the four attention matrices, the MLP weights
and the readout weight; zero biases; LayerNorm gains 1. By default the values are drawn with the core's generator
(SplitMix64 and Marsaglia's polar method, src/core/model/random.hpp) as tests/fixtures/make_model_fixtures.py ports it
(the native tests compare that port with the core), so both implementations start from the same parameters (up to the last bit of a
logarithm); `--torch-init` draws them with torch.nn.init.normal_ instead. The sentences come from the same script's port
of the order task (src/core/model/task.hpp), with the seeds of the native training test
(tests/native/test_model_training.cpp): step k trains on order_task(32, 8 + k % 9, seed 1000 + k), and accuracy at
length T is measured on order_task(512, T, seed 500 + T, mirrored), 256 sentence-mirror pairs.
"""

import argparse
import json
import math
import os
import statistics
import sys
import time

# One thread, set before torch starts its OpenMP pool: torch.set_num_threads(1) alone leaves the pool's other threads
# spinning, which doubles the CPU time a step takes on a 2-core machine.
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["MKL_NUM_THREADS"] = "1"
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

# The core's generator and order task, as the model fixture script ports them (tests/fixtures/make_model_fixtures.py)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures"))
from make_model_fixtures import SplitMix64  # noqa: E402

import position_schemes  # noqa: E402  (bench/, beside this file)
from make_model_fixtures import induction_task as induction_task_numpy  # noqa: E402
from make_model_fixtures import lookback_task as lookback_task_numpy  # noqa: E402
from make_model_fixtures import order_task as order_task_numpy  # noqa: E402


def order_task(count, length, seed, mirrored):
    """ids (count, length) and targets (count) as the core's order_task draws them, as torch tensors."""
    ids, targets = order_task_numpy(count, length, seed, mirrored)
    return torch.from_numpy(ids).long(), torch.from_numpy(targets).long()


def induction_task(count, length, seed):
    """ids and targets (count, length) as the core's induction_task draws them (-1: ignored), as torch tensors."""
    ids, targets = induction_task_numpy(count, length, seed)
    return torch.from_numpy(ids).long(), torch.from_numpy(targets).long()


def lookback_task(count, length, back, seed):
    """ids and targets (count, length) as the core's lookback_task draws them (-1: ignored), as torch tensors."""
    ids, targets = lookback_task_numpy(count, length, back, seed)
    return torch.from_numpy(ids).long(), torch.from_numpy(targets).long()


def sinusoids_at(position_ids, width, base=10000.0):
    """(B, T, width) float64: the sinusoid table's rows at the given positions (B, T)."""
    t = position_ids.double()[..., None]
    f = base ** (-torch.arange(0, width, 2, dtype=torch.float64) / width)
    table = torch.empty(*position_ids.shape, width, dtype=torch.float64)
    table[..., 0::2] = torch.sin(t * f)
    table[..., 1::2] = torch.cos(t * f)
    return table


def sinusoids(length, width, base=10000.0):
    """(length, width): column 2i = sin(t f_i), 2i+1 = cos(t f_i), f_i = base^(-2i/width), in float64."""
    t = torch.arange(length, dtype=torch.float64)[:, None]
    f = base ** (-torch.arange(0, width, 2, dtype=torch.float64) / width)
    table = torch.empty(length, width, dtype=torch.float64)
    table[:, 0::2] = torch.sin(t * f)
    table[:, 1::2] = torch.cos(t * f)
    return table


class Model(torch.nn.Module):
    """positions: 'none', 'sinusoidal', 'learned' (max_length rows), 'rotary' (rotary_base, rotary_pairs: the first p
    pairs of each head), 'alibi' or 'relative' (buckets, max_distance); docs/model.md specifies each, and
    bench/position_schemes.py computes their numbers."""

    def __init__(self, vocab=16, width=32, heads=2, layers=1, positions="none", max_length=None, causal=False,
                 classes=2, seed=0, torch_init=False, embed_scale=1.0, readout="mean", rotary_base=10000.0,
                 rotary_pairs=None, buckets=32, max_distance=128):
        super().__init__()
        self.width, self.heads, self.positions, self.causal, self.readout = width, heads, positions, causal, readout
        self.rotary_base = float(rotary_base)
        self.rotary_pairs = width // heads // 2 if rotary_pairs is None else rotary_pairs
        self.buckets, self.max_distance = buckets, max_distance
        if positions == "relative":
            position_schemes.check_relative_options(buckets, max_distance, causal)
        if positions == "alibi":
            self.slopes = position_schemes.alibi_slopes(heads)
        # the two position streams (randomized positions): training draws and evaluation draws
        self.training_stream = SplitMix64(seed ^ position_schemes.TRAINING_STREAM)
        self.evaluation_stream = SplitMix64(seed ^ position_schemes.EVALUATION_STREAM)
        # the number the token vectors are multiplied by: 'sqrtWidth' is sqrt(width) (Vaswani et al. 2017, 3.4)
        self.embed_scale = math.sqrt(width) if embed_scale == "sqrtWidth" else float(embed_scale)
        D = width
        shapes = [("embed", (vocab, D), "normal")]
        if positions == "learned":
            shapes.append(("positions", (max_length, D), "normal"))
        if positions == "relative":
            shapes.append(("relativeBias", (buckets, heads), "normal"))  # T5's table, shared by every layer
        for i in range(layers):
            p = f"layers.{i}."
            shapes += [(p + "norm1.gain", (D,), "ones"), (p + "norm1.bias", (D,), "zeros")]
            shapes += [(p + "attention." + w, (D, D), "normal") for w in ("wq", "wk", "wv", "wo")]
            shapes += [(p + "norm2.gain", (D,), "ones"), (p + "norm2.bias", (D,), "zeros"),
                       (p + "mlp.w1", (D, 4 * D), "normal"), (p + "mlp.b1", (4 * D,), "zeros"),
                       (p + "mlp.w2", (4 * D, D), "normal"), (p + "mlp.b2", (D,), "zeros")]
        shapes += [("norm.gain", (D,), "ones"), ("norm.bias", (D,), "zeros"),
                   ("readout.weight", (D, classes), "normal"), ("readout.bias", (classes,), "zeros")]
        self.names = [name for name, _, _ in shapes]
        self.params = torch.nn.ParameterDict()
        g = SplitMix64(seed)
        torch.manual_seed(seed)
        for name, shape, init in shapes:
            if init == "normal" and torch_init:
                value = torch.nn.init.normal_(torch.empty(shape), std=0.02)
            elif init == "normal":
                count = math.prod(shape)
                value = torch.tensor([0.02 * g.normal() for _ in range(count)], dtype=torch.float64).reshape(shape)
            else:
                value = (torch.zeros if init == "zeros" else torch.ones)(shape)
            self.params[name.replace(".", "_")] = torch.nn.Parameter(value.float())
        self.layers = layers

    def p(self, name):
        return self.params[name.replace(".", "_")]

    def rotate(self, x, position_ids, rope_scaling=None):
        """x (B, H, T, hd): in each head, pair (2i, 2i+1) of row t (i < rotary_pairs) rotated by p_t * f_i, f_i as
        position_schemes.rotary_frequencies gives them; the other pairs pass through."""
        pairs = self.rotary_pairs
        f = torch.from_numpy(position_schemes.rotary_frequencies(pairs, self.rotary_base, rope_scaling))
        angles = position_ids.double()[:, None, :, None] * f  # (B, 1, T, pairs), float64
        sin, cos = torch.sin(angles).float(), torch.cos(angles).float()
        rotated, passed = x[..., :2 * pairs], x[..., 2 * pairs:]
        even, odd = rotated[..., 0::2], rotated[..., 1::2]
        rotated = torch.stack((even * cos - odd * sin, even * sin + odd * cos), dim=-1).flatten(-2)
        return torch.cat((rotated, passed), dim=-1)

    def position_bias(self, position_ids):
        """(B, H, T, T), added to the scaled scores: ALiBi's -m_h (p_i - p_j) (causal) or -m_h |p_i - p_j|, in float64
        rounded once; or T5's relativeBias[bucket(p_j - p_i), h] (a gather, so gradients reach the table)."""
        if self.positions == "alibi":
            return torch.from_numpy(position_schemes.alibi_bias(self.slopes, position_ids.numpy(), self.causal)).float()
        distance = position_ids[:, None, :] - position_ids[:, :, None]  # (B, T, T): p_j - p_i
        bucket = torch.from_numpy(position_schemes.relative_bucket(distance.numpy(), self.causal, self.buckets,
                                                                   self.max_distance))
        return self.p("relativeBias")[bucket].permute(0, 3, 1, 2)

    def draw_positions(self, count, length, position_range, training):
        """(count, length) positions drawn from the training or the evaluation stream (randomized positions)."""
        stream = self.training_stream if training else self.evaluation_stream
        return torch.from_numpy(position_schemes.random_positions(stream, count, length, position_range))

    def forward(self, ids, position_ids=None, rope_scaling=None):
        """ids (B, T); position_ids (B, T), increasing in each row (default 0 ... T-1 in every row); rope_scaling
        {'method', 'factor'[, 'originalLength']} for rotary positions."""
        B, T = ids.shape
        D, H = self.width, self.heads
        hd = D // H
        if position_ids is None:
            position_ids = torch.arange(T).expand(B, T)
        x = self.p("embed")[ids]
        if self.embed_scale != 1.0:
            x = x * self.embed_scale
        if self.positions == "sinusoidal":
            x = x + sinusoids_at(position_ids, D).float()
        elif self.positions == "learned":
            x = x + self.p("positions")[position_ids]
        mask = torch.triu(torch.ones(T, T, dtype=torch.bool), 1) if self.causal else None
        bias = self.position_bias(position_ids) if self.positions in ("alibi", "relative") else None
        temperature = None
        if rope_scaling is not None and rope_scaling["method"] == "yarn":
            temperature = position_schemes.yarn_temperature(rope_scaling["factor"])
        for i in range(self.layers):
            p = lambda name: self.p(f"layers.{i}.{name}")  # noqa: E731
            h = F.layer_norm(x, (D,), p("norm1.gain"), p("norm1.bias"), 1e-5)
            q, k, v = ((h @ p("attention." + w)).view(B, T, H, hd).transpose(1, 2) for w in ("wq", "wk", "wv"))
            if self.positions == "rotary":
                q, k = self.rotate(q, position_ids, rope_scaling), self.rotate(k, position_ids, rope_scaling)
            scores = q @ k.transpose(-1, -2) / math.sqrt(hd)
            if temperature is not None:
                scores = scores * temperature
            if bias is not None:
                scores = scores + bias
            if mask is not None:
                scores = scores.masked_fill(mask, float("-inf"))
            heads = torch.softmax(scores, dim=-1) @ v
            x = x + heads.transpose(1, 2).reshape(B, T, D) @ p("attention.wo")
            h = F.layer_norm(x, (D,), p("norm2.gain"), p("norm2.bias"), 1e-5)
            x = x + torch.relu(h @ p("mlp.w1") + p("mlp.b1")) @ p("mlp.w2") + p("mlp.b2")
        x = F.layer_norm(x, (D,), self.p("norm.gain"), self.p("norm.bias"), 1e-5)
        features = x.mean(dim=1) if self.readout == "mean" else x
        return features @ self.p("readout.weight") + self.p("readout.bias")


def call_positions(model, ids, position_range=None, position_ids=None, training=False):
    """The positions of one call, as seqorder's options give them: positionIds as given, positionRange drawn (from the
    training stream for a step, the evaluation stream otherwise), else None (0 ... T-1)."""
    if position_range is not None:
        return model.draw_positions(ids.shape[0], ids.shape[1], position_range, training)
    return position_ids


def adam_step(model, optimizer, ids, targets, position_range=None, position_ids=None, rope_scaling=None):
    """One step as seqorder's model.step takes it (mean cross-entropy over the targets that are not -1), with its
    position options; the loss before the step."""
    positions = call_positions(model, ids, position_range, position_ids, training=True)
    logits = model(ids, position_ids=positions, rope_scaling=rope_scaling)
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), ignore_index=-1)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


def train(model, steps=800, lr=3e-3, batch=32):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr, betas=(0.9, 0.999), eps=1e-8)
    for k in range(steps):
        ids, targets = order_task(batch, 8 + k % 9, 1000 + k, False)
        loss = F.cross_entropy(model(ids), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


def accuracy(model, length):
    ids, targets = order_task(512, length, 500 + length, True)
    with torch.no_grad():
        return (model(ids).argmax(dim=-1) == targets).float().mean().item()


SETUPS = [  # name, model arguments
    ("none, bidirectional", dict(positions="none")),
    ("sinusoidal", dict(positions="sinusoidal")),
    ("learned (16 rows)", dict(positions="learned", max_length=16)),
    ("rotary", dict(positions="rotary")),
    ("none, causal", dict(positions="none", causal=True)),
]
LENGTHS = [8, 12, 16, 24, 32]


def run_training(seeds, torch_init):
    print(f"accuracy after 800 Adam steps (lr 3e-3, batch 32, lengths 8..16), {len(seeds)} seed(s): "
          "mean [min, max] over seeds")
    print("| setup | " + " | ".join(f"T = {t}" for t in LENGTHS) + " | final loss |")
    print("|---" * (len(LENGTHS) + 2) + "|")
    for name, arguments in SETUPS:
        results = {t: [] for t in LENGTHS}
        losses = []
        for seed in seeds:
            model = Model(seed=seed, torch_init=torch_init, **arguments)
            losses.append(train(model))
            for t in LENGTHS:
                if arguments.get("max_length") is None or t <= arguments["max_length"]:
                    results[t].append(accuracy(model, t))
        cells = []
        for t in LENGTHS:
            r = results[t]
            cells.append("—" if not r else f"{100 * statistics.mean(r):.1f}% [{100 * min(r):.1f}, {100 * max(r):.1f}]")
        print(f"| {name} | " + " | ".join(cells) + f" | {statistics.mean(losses):.4f} |", flush=True)


def data_seed(seed, n):
    """The seed of a study run's sentences of stream n: the run's seed draws its sentences too (bench/model_study.cpp's
    data_seed, the lab's dataSeed in web/js/lab/tasks.mjs): step k's stream is 1000 + k, the held-out one 7, length
    T's 500 + T."""
    return 1_000_000 * seed + n


def study_options(setup):
    """The Model options a study setup gives (bench/model_study.cpp's apply_setup): a name (its kind of positions and
    mask, 'sinusoidal-causal') or the options spelled out, comma-separated key=value (positions=alibi,causal=1)."""
    options = {}
    if "=" not in setup:
        kind = setup.split("-")[0]
        options["causal"] = setup == "causal" or setup.endswith("-causal")
        options["positions"] = "none" if kind in ("none", "causal") else kind
    else:
        names = {"positions": "positions", "causal": "causal", "layers": "layers", "maxLength": "max_length",
                 "rotaryBase": "rotary_base", "rotaryPairs": "rotary_pairs", "buckets": "buckets",
                 "maxDistance": "max_distance", "positionRange": "position_range"}
        for item in setup.split(","):
            key, value = item.split("=", 1)
            if key not in names:
                raise ValueError(f"model_reference: unknown setup option {key}")
            options[names[key]] = (value if key == "positions" else value == "1" if key == "causal"
                                   else float(value) if key == "rotaryBase" else int(value))
    if options.get("positions") == "learned":
        options.setdefault("max_length", 16)
    return options


def study(task, back, steps, embed_scale, setup, seeds):
    """bench/model_study.cpp's runs, in PyTorch: one JSON line per seed (the lab's schedule and sets; see that file)."""
    order = task == "order"
    options = study_options(setup)
    position_range = options.pop("position_range", None)  # randomized positions: drawn in training and evaluation
    max_length = options.get("max_length")
    scale = embed_scale if embed_scale == "sqrtWidth" else float(embed_scale)

    def sentences(count, length, seed, mirrored):
        if order:
            return order_task(count, length, seed, mirrored)
        return induction_task(count, length, seed) if task == "induction" else lookback_task(count, length, back, seed)

    def accuracy_on(model, ids, targets):
        with torch.no_grad():
            said = model(ids, position_ids=call_positions(model, ids, position_range)).argmax(dim=-1)
        counted = targets != -1
        return ((said == targets) & counted).sum().item() / counted.sum().item()

    for seed in seeds:
        model = Model(**options, seed=seed, embed_scale=scale, readout="mean" if order else "each",
                      classes=2 if order else 16)
        optimizer = torch.optim.Adam(model.parameters(), lr=3e-3, betas=(0.9, 0.999), eps=1e-8)
        validation = sentences(128, 12, data_seed(seed, 7), True)
        curve, reached, first_loss = [], None, None
        for k in range(steps):
            ids, targets = sentences(32, 8 + k % 9, data_seed(seed, 1000 + k), False)
            loss = adam_step(model, optimizer, ids, targets, position_range=position_range)
            first_loss = loss if first_loss is None else first_loss
            if (k + 1) % 20 == 0:
                curve.append(accuracy_on(model, *validation))
                if reached is None and curve[-1] >= 0.95:
                    reached = k + 1
        lengths = {str(t): accuracy_on(model, *sentences(256, t, data_seed(seed, 500 + t), True))
                   for t in (8, 12, 16, 32, 64, 128) if max_length is None or t <= max_length}
        print(json.dumps({"implementation": "pytorch", "task": task, "back": back, "steps": steps,
                          "embedScale": embed_scale, "setup": setup, "seed": seed, "firstLoss": first_loss,
                          "lastLoss": loss, "stepsTo95": reached, "validation": curve, "accuracy": lengths}),
              flush=True)


def run_timing(rounds, steps):
    """ms per Adam step at V 16, D 32, H 2, L 1, T 12, batch 32, float32, one thread: median over rounds."""
    model = Model(positions="sinusoidal", seed=1)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3, betas=(0.9, 0.999), eps=1e-8)
    batches = [order_task(32, 12, 1000 + k, False) for k in range(steps)]

    def one_step(ids, targets):
        loss = F.cross_entropy(model(ids), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    with torch.no_grad():
        first = F.cross_entropy(model(batches[0][0]), batches[0][1]).item()
    for ids, targets in batches[:20]:
        one_step(ids, targets)  # warm-up
    times = []
    for _ in range(rounds):
        start = time.process_time()
        for ids, targets in batches:
            one_step(ids, targets)
        times.append(1e3 * (time.process_time() - start) / steps)
    print(f"pytorch {torch.__version__}, 1 thread: {statistics.median(times):.3f} ms per Adam step "
          f"(median of {rounds} rounds of {steps}; fastest {min(times):.3f}); loss on the first batch before any "
          f"step {first:.9g}")
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time", action="store_true",
                        help="ms per Adam step at the benchmark configuration (and the loss on its first batch)")
    parser.add_argument("--train", action="store_true", help="accuracies after training, per setup")
    parser.add_argument("--seeds", type=int, default=1, help="initial-parameter seeds 1..N for --train")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--torch-init", action="store_true", help="draw the initial parameters with torch instead")
    parser.add_argument("--study", nargs="+", metavar="ARG",
                        help="task back steps embedScale setup seed...: bench/model_study.cpp's runs, in PyTorch")
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)
    if args.time:
        run_timing(args.rounds, args.steps)
    if args.train:
        run_training(list(range(1, args.seeds + 1)), args.torch_init)
    if args.study:
        task, back, steps, scale, setup, *seeds = args.study
        study(task, int(back), int(steps), scale, setup, [int(s) for s in seeds])
    if not (args.time or args.train or args.study):
        parser.print_help()


if __name__ == "__main__":
    main()
