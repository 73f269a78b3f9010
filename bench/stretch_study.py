#!/usr/bin/python3
"""Stretching a trained rotary model to longer sentences, in the PyTorch reference (bench/model_reference.py): what
each ropeScaling method gives zero-shot and after N fine-tuning steps at the longer length, beside fine-tuning without
a stretch. It chooses the bench page's default number of fine-tuning steps ("Stretch it").

    /usr/bin/python3 bench/stretch_study.py [--seeds 1,2,3] [--steps 400] [--factors 2,4,8] [--tunes 0,25,50,100,200]
    /usr/bin/python3 bench/stretch_study.py --summarize runs.jsonl     # bench/results/stretch-study.json from a run's lines
    /usr/bin/python3 bench/stretch_study.py --write                    # its table into docs/model.md

The model is the bench page's default rotary model (web/js/lab/config.mjs's BENCH_RUN): the word 2 back, vocab 16,
width 32, 2 heads (8 pairs each), 1 layer, bidirectional, token vectors x sqrt(D), Adam at lr 3e-3, batch 32, step k
on sentences of length 8 + k % 9 drawn with the lab's seeds (bench/model_study.cpp's data_seed). Then, for each factor
s and each method (none: the positions as they are; linear, ntk, yarn with originalLength 16), a copy of the trained
model (its Adam state too) takes N more steps on sentences of length 16 s with that scaling, and is measured at 16,
32, 64 and 128 words (256 sentences each) with the same scaling. One JSON line per (seed, factor, method, N) on
stdout; --summarize gathers them with the machine into bench/results/stretch-study.json, and --write puts its table
between docs/model.md's <!-- stretch-study --> markers.
"""

import argparse
import copy
import json
import os
import platform
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model_reference as ref  # noqa: E402

import torch  # noqa: E402

BACK = 2
LENGTHS = (16, 32, 64, 128)


def data_seed(seed, n):
    return 1_000_000 * seed + n


def accuracy(model, ids, targets, scaling):
    with torch.no_grad():
        said = model(ids, rope_scaling=scaling).argmax(dim=-1)
    counted = targets != -1
    return ((said == targets) & counted).sum().item() / counted.sum().item()


ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
RESULTS = os.path.join(ROOT, "bench", "results", "stretch-study.json")
METHODS = {"none": "none (the positions as they are)", "linear": "linear (position interpolation)", "ntk": "ntk",
           "yarn": "yarn (originalLength 16)"}


def summarize(files, args):
    results = [json.loads(line) for f in files for line in open(f) if line.strip()]
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
               platform.processor())
    report = {"steps": args.steps, "seeds": sorted({r["seed"] for r in results}),
              "factors": sorted({r["factor"] for r in results}), "tunes": sorted({r["tune"] for r in results}),
              "machine": {"cpu": cpu, "date": time.strftime("%Y-%m-%d"), "torch": torch.__version__},
              "results": results}
    with open(RESULTS, "w") as out:
        out.write(json.dumps(report, indent=1) + "\n")
    print(table(report))


def cell(values):
    if not values:
        return "—"
    values = sorted(100 * v for v in values)
    median = statistics.median(values)
    return f"{median:.0f}" if round(values[0]) == round(values[-1]) else f"{median:.0f} ({values[0]:.0f}–{values[-1]:.0f})"


def table(report):
    """A row per factor and method: the accuracy at the stretched length 16 s after N fine-tuning steps, for each N,
    and at the trained length 16 before and after the most steps."""
    tunes, last = report["tunes"], report["tunes"][-1]
    head = ["factor s", "ropeScaling", *(f"T = 16 s, N = {n}" for n in tunes), "T = 16, N = 0", f"T = 16, N = {last}"]
    lines = ["| " + " | ".join(head) + " |", "|---" * len(head) + "|"]
    for factor in report["factors"]:
        for method in METHODS:
            runs = [r for r in report["results"] if r["factor"] == factor and r["method"] == method]
            at = lambda n, T: cell([r["accuracy"][str(T)] for r in runs if r["tune"] == n])  # noqa: E731
            lines.append(f"| {factor} | {METHODS[method]} | " + " | ".join(at(n, 16 * factor) for n in tunes) +
                         f" | {at(0, 16)} | {at(last, 16)} |")
    machine = report["machine"]
    lines.append(f"\nEach cell: the accuracy (%) of the word {BACK} back, median (min–max) over seeds "
                 f"{', '.join(map(str, report['seeds']))}, after N Adam steps on sentences of 16 s words with that "
                 f"scaling (N = 0: zero-shot); the model trained {report['steps']} steps on 8 … 16 words. "
                 f"`bench/stretch_study.py`, PyTorch {machine['torch']}, {machine['cpu']}, {machine['date']}.")
    return "\n".join(lines)


def write_docs():
    with open(RESULTS) as f:
        report = json.load(f)
    docs = os.path.join(ROOT, "docs", "model.md")
    begin, end = "<!-- stretch-study -->", "<!-- /stretch-study -->"
    with open(docs) as f:
        doc = f.read()
    at, stop = doc.find(begin), doc.find(end)
    if at < 0 or stop < at:
        raise ValueError(f"no {begin} ... {end} in docs/model.md")
    with open(docs, "w") as f:
        f.write(f"{doc[:at + len(begin)]}\n{table(report)}\n{doc[stop:]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    numbers = lambda text: [int(x) for x in text.split(",")]  # noqa: E731
    parser.add_argument("--seeds", type=numbers, default=[1, 2, 3])
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--factors", type=numbers, default=[2, 4, 8])
    parser.add_argument("--tunes", type=numbers, default=[0, 25, 50, 100, 200])
    parser.add_argument("--summarize", nargs="+", metavar="FILE", help="JSON-lines files of a run")
    parser.add_argument("--write", action="store_true", help="the results' table into docs/model.md")
    args = parser.parse_args()
    if args.summarize:
        summarize(args.summarize, args)
    if args.write:
        write_docs()
    if args.summarize or args.write:
        return
    torch.set_num_threads(1)
    for seed in args.seeds:
        model = ref.Model(positions="rotary", seed=seed, embed_scale="sqrtWidth", readout="each", classes=16)
        optimizer = torch.optim.Adam(model.parameters(), lr=3e-3, betas=(0.9, 0.999), eps=1e-8)
        for k in range(args.steps):
            ids, targets = ref.lookback_task(32, 8 + k % 9, BACK, data_seed(seed, 1000 + k))
            ref.adam_step(model, optimizer, ids, targets)
        sets = {T: ref.lookback_task(256, T, BACK, data_seed(seed, 500 + T)) for T in LENGTHS}
        for factor in args.factors:
            for method in ("none", "linear", "ntk", "yarn"):
                scaling = None if method == "none" else {"method": method, "factor": float(factor),
                                                         **({"originalLength": 16} if method == "yarn" else {})}
                tuned = copy.deepcopy(model)
                tuned_optimizer = torch.optim.Adam(tuned.parameters(), lr=3e-3, betas=(0.9, 0.999), eps=1e-8)
                tuned_optimizer.load_state_dict(optimizer.state_dict())
                done = 0
                for n in sorted(args.tunes):
                    for k in range(done, n):
                        ids, targets = ref.lookback_task(32, 16 * factor, BACK, data_seed(seed, 2000 + k))
                        ref.adam_step(tuned, tuned_optimizer, ids, targets, rope_scaling=scaling)
                    done = n
                    print(json.dumps({"seed": seed, "factor": factor, "method": method, "tune": n,
                                      "accuracy": {str(T): accuracy(tuned, *sets[T], scaling) for T in LENGTHS}}),
                          flush=True)


if __name__ == "__main__":
    main()
