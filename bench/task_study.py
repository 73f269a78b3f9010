#!/usr/bin/python3
"""Which tasks beyond order and lookback separate the position schemes? Measured with the PyTorch reference
(bench/model_reference.py) before any of them is in seqorder's core: each candidate task (copy, reverse and count
below; induction as tests/fixtures/make_model_fixtures.py ports the core's inductionTask, kept by this study) trained
as the lab trains (width 32, 2 heads, token vectors x sqrt(width), 800 Adam steps at lr 3e-3, batches of 32 sentences
of 8 ... 16 words, step k on the task's sentences of length 8 + k % 9 from seed 1000 + k; validation on 256 sentences
of 12 words, seed 7, every 20 steps), with 1 layer (the lab's setup) and 2 layers, no positions (bidirectional and
causal) and every scheme with the task's mask (MASKS), seeds 1, 2 and 7; then the accuracy over the counted positions
of 512 sentences of each length 16, 32, 64 and 128 (1x, 2x, 4x and 8x the longest trained length; seed 500 + T).

    nice -n 10 /usr/bin/python3 bench/task_study.py --run --worker 0 --workers 2 > build-bench/task-study-0.jsonl &
    nice -n 10 /usr/bin/python3 bench/task_study.py --run --worker 1 --workers 2 > build-bench/task-study-1.jsonl
    /usr/bin/python3 bench/task_study.py --summarize build-bench/task-study-*.jsonl   # bench/results/task-study.json
                                                                                      # and the table (markdown)
    /usr/bin/python3 bench/task_study.py --write     # that table into docs/model.md, between its task-study markers
"""

import argparse
import json
import math
import os
import platform
import statistics
import sys
import time

os.environ["OMP_NUM_THREADS"] = "1"
os.environ["MKL_NUM_THREADS"] = "1"
import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model_reference as ref  # noqa: E402
import make_model_fixtures as tasks  # noqa: E402  (model_reference put tests/fixtures on the path)

# The candidates that were not kept (induction was: tests/fixtures/make_model_fixtures.py ports the core's
# induction_task), each drawn from SplitMix64 as the core's tasks are.
BLANK = tasks.WORDS.index("the")


def copy_task(count, length, seed, reverse=False):
    """'copy' (and 'reverse'): the first n = ceil(length / 2) words drawn uniformly from the 15 words other than the blank
    ('the'), then length - n blanks; the target at blank t is the word t - n places back (copy) or the word mirrored
    across the boundary, ids[2n - 1 - t] (reverse); -1 (ignored) at the words. One SplitMix64 stream, n draws of
    uniform_below(15) per sentence (an index into the words in vocabulary order)."""
    words = [i for i in range(len(tasks.WORDS)) if i != BLANK]
    g = tasks.SplitMix64(seed)
    n = (length + 1) // 2
    ids = np.full((count, length), BLANK, dtype=np.int32)
    targets = np.full((count, length), -1, dtype=np.int32)
    for s in range(count):
        ids[s, :n] = [words[g.uniform_below(len(words))] for _ in range(n)]
        for t in range(n, length):
            targets[s, t] = ids[s, 2 * n - 1 - t] if reverse else ids[s, t - n]
    return ids, targets


def count_task(count, length, seed, cap=15):
    """'count': words drawn uniformly from the whole vocabulary (as lookback_task draws them); the target at t is how many
    times the word at t appeared before t (0 the first time), at most cap."""
    g = tasks.SplitMix64(seed)
    ids = np.array([[g.uniform_below(len(tasks.WORDS)) for _ in range(length)] for _ in range(count)], dtype=np.int32)
    ids = ids.reshape(count, length)
    targets = np.zeros((count, length), dtype=np.int32)
    for s in range(count):
        seen = [0] * len(tasks.WORDS)
        for t in range(length):
            targets[s, t] = min(seen[ids[s, t]], cap)
            seen[ids[s, t]] += 1
    return ids, targets



TASKS = {
    "copy": lambda count, length, seed: copy_task(count, length, seed),
    "reverse": lambda count, length, seed: copy_task(count, length, seed, reverse=True),
    "count": lambda count, length, seed: count_task(count, length, seed),
    "induction": lambda count, length, seed: tasks.induction_task(count, length, seed),
}
# Each task's attention: copy and reverse bidirectional (the blanks follow the words), count and induction causal (both
# ask about what came before); every task also without positions both ways.
MASKS = {"copy": "bidirectional", "reverse": "bidirectional", "count": "causal", "induction": "causal"}
KINDS = ["sinusoidal", "learned", "rotary", "alibi", "relative"]


def setups(task):
    return ["none-bidirectional", "none-causal"] + [f"{kind}-{MASKS[task]}" for kind in KINDS]



LENGTHS = [16, 32, 64, 128]
SEEDS = [1, 2, 7]
DEPTHS = [1, 2]
STEPS = 800


def sentences(task, count, length, seed):
    ids, targets = TASKS[task](count, length, seed)
    return torch.from_numpy(ids).long(), torch.from_numpy(targets).long()


def accuracy(model, ids, targets):
    with torch.no_grad():
        said = model(ids).argmax(dim=-1)
    counted = targets != -1
    return ((said == targets) & counted).sum().item() / max(1, counted.sum().item())


def chance(task, length):
    """The accuracy of the best guess that ignores where words stand, on the evaluation sentences: the most frequent
    target among the counted positions (count: '0 before'; the others: the most frequent word)."""
    _, targets = sentences(task, 512, length, 500 + length)
    counted = targets[targets != -1]
    return counted.bincount().max().item() / counted.numel()


def run_one(task, depth, setup, seed):
    kind, mask = setup.split("-")
    model = ref.Model(positions=kind, max_length=16 if kind == "learned" else None, causal=mask == "causal",
                      layers=depth, seed=seed, embed_scale="sqrtWidth", readout="each", classes=16)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3, betas=(0.9, 0.999), eps=1e-8)
    validation = sentences(task, 256, 12, 7)
    curve, reached = [], None
    started = time.process_time()
    for k in range(STEPS):
        ids, targets = sentences(task, 32, 8 + k % 9, 1000 + k)
        logits = model(ids)
        loss = F.cross_entropy(logits.reshape(-1, 16), targets.reshape(-1), ignore_index=-1)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if (k + 1) % 20 == 0:
            curve.append(accuracy(model, *validation))
            if reached is None and curve[-1] >= 0.95:
                reached = k + 1
    lengths = {str(t): accuracy(model, *sentences(task, 512, t, 500 + t))
               for t in LENGTHS if kind != "learned" or t <= 16}
    return {"task": task, "layers": depth, "setup": setup, "seed": seed, "lastLoss": loss.item(),
            "stepsTo95": reached, "validation": curve, "accuracy": lengths,
            "cpuSeconds": round(time.process_time() - started, 1)}


def jobs():
    """Every run, seed by seed (so that a partial run covers every task and setup once first)."""
    return [(task, depth, setup, seed) for seed in SEEDS for depth in DEPTHS for task in TASKS for setup in setups(task)]


def with_block(doc, text):
    """doc with text between its <!-- task-study --> and <!-- /task-study --> markers."""
    begin, end = "<!-- task-study -->", "<!-- /task-study -->"
    at, stop = doc.find(begin), doc.find(end)
    if at < 0 or stop < at:
        raise ValueError(f"no {begin} ... {end}")
    return f"{doc[:at + len(begin)]}\n{text}\n{doc[stop:]}"


def summarize(files):
    results = [json.loads(line) for f in files for line in open(f) if line.strip()]
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
               platform.processor())
    report = {"steps": STEPS, "seeds": SEEDS, "lengths": LENGTHS, "embedScale": "sqrtWidth",
              "machine": {"cpu": cpu, "date": time.strftime("%Y-%m-%d"), "torch": torch.__version__},
              "chance": {task: {str(t): chance(task, t) for t in LENGTHS} for task in TASKS}, "results": results}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "task-study.json")
    with open(path, "w") as out:
        out.write(json.dumps(report, indent=1) + "\n")
    print(table(report))


def write_docs():
    """The table of bench/results/task-study.json into docs/model.md, between its <!-- task-study --> markers."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    with open(os.path.join(root, "bench", "results", "task-study.json")) as f:
        report = json.load(f)
    docs = os.path.join(root, "docs", "model.md")
    with open(docs) as f:
        text = with_block(f.read(), table(report))
    with open(docs, "w") as f:
        f.write(text)


def cell(values):
    if not values:
        return "—"
    values = sorted(100 * v for v in values)
    median = statistics.median(values)
    return f"{median:.0f}" if values[0] == values[-1] else f"{median:.0f} ({values[0]:.0f}–{values[-1]:.0f})"


def table(report):
    lines = []
    for task in TASKS:
        lines.append(f"\n{task} (the most frequent target: " +
                     ", ".join(f"T = {t} {100 * report['chance'][task][str(t)]:.0f}%" for t in LENGTHS) + ")\n")
        lines.append("| positions | layers | steps to 95%, seeds 1 / 2 / 7 | " +
                     " | ".join(f"T = {t} ({t // 16}×)" for t in LENGTHS) + " |")
        lines.append("|---" * (3 + len(LENGTHS)) + "|")
        for setup in setups(task):
            for depth in DEPTHS:
                runs = sorted((r for r in report["results"]
                               if r["task"] == task and r["setup"] == setup and r["layers"] == depth),
                              key=lambda r: SEEDS.index(r["seed"]))
                if not runs:
                    continue
                steps = " / ".join(str(r["stepsTo95"] or "—") for r in runs)
                cells = [cell([r["accuracy"][str(t)] for r in runs if str(t) in r["accuracy"]]) for t in LENGTHS]
                lines.append(f"| {setup.replace('-', ', ')} | {depth} | {steps} | " + " | ".join(cells) + " |")
    machine = report["machine"]
    lines.append(f"\nEach cell: the accuracy (%) over the counted positions, median (min–max) over seeds "
                 f"{', '.join(map(str, report['seeds']))}; steps: the first multiple of 20 at which the validation "
                 f"accuracy reached 95% (— never, within {report['steps']}). `bench/task_study.py`, PyTorch "
                 f"{machine['torch']}, {machine['cpu']}, {machine['date']}.")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", action="store_true")
    parser.add_argument("--worker", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", help="task[,task...]: only these tasks")
    parser.add_argument("--layers", type=int, help="only the runs of this depth")
    parser.add_argument("--skip", nargs="*", default=[], metavar="FILE", help="results files whose runs to skip")
    parser.add_argument("--summarize", nargs="+", metavar="FILE",
                        help="results files (JSON lines) into bench/results/task-study.json, and its table")
    parser.add_argument("--write", action="store_true",
                        help="bench/results/task-study.json's table into docs/model.md (its task-study markers)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)
    if args.run:
        done = {(r["task"], r["layers"], r["setup"], r["seed"])
                for f in args.skip for r in map(json.loads, filter(str.strip, open(f)))}
        chosen = [j for j in jobs() if (not args.only or j[0] in args.only.split(",")) and j not in done
                  and (not args.layers or j[1] == args.layers)]
        for task, depth, setup, seed in chosen[args.worker::args.workers]:
            print(json.dumps(run_one(task, depth, setup, seed)), flush=True)
    if args.summarize:
        summarize(args.summarize)
    if args.write:
        write_docs()


if __name__ == "__main__":
    main()
