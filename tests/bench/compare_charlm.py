#!/usr/bin/python3
"""Runs the PyTorch reference (../shared/bench/charlm_reference.py) and `attnscope charlm` followed by
`attnscope generate --latency` on the same text with the same settings, alternating who goes first,
and reports medians over the rounds:

- speed: training characters/s (characters trained on per second of training, forward, backward
  and update; validation excluded on both sides), each run's median over its epochs after the
  first (the warm-up), at --threads threads; target: AttnScope at least 3x the reference;
- sampling latency per character, median and p99 over --latency characters (batch 1, the state
  carried, temperature 1, after the text's first characters as the prime); target: median at most
  0.1 ms;
- quality: validation bits per character after the same number of epochs (the last --val share of
  the text, read from a zero state); target: no worse than the reference's;
- memory: peak RSS of each training process.
The settings are the issue's: GRU, hidden 256, 2 layers, embed 64, seq-len 64, batch 32, Adam at
lr 2e-3, clip 1, val 0.05. Round r uses seed r on both sides (from --first-seed); OMP_NUM_THREADS is the thread count
for both. Not run by CI: a round on the text below takes minutes.

A text: the first 536,000 characters of the King James Bible (Debian's bible-kjv), one verse a line:

  apt-get install -y bible-kjv python3-torch
  tests/bench/kjv_corpus.sh /tmp/kjv.txt && head -c 536000 /tmp/kjv.txt > kjv536k.txt
  tests/bench/compare_charlm.py --text kjv536k.txt [--epochs 3] [--rounds 3] [--first-seed 1] [--threads 2]
        [--latency 1000] [--attnscope build/app/attnscope] [--reference PATH] [--python /usr/bin/python3]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument("--text", required=True)
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--rounds", type=int, default=3)
p.add_argument("--first-seed", type=int, default=1)
p.add_argument("--threads", type=int, default=2)
p.add_argument("--latency", type=int, default=1000)
p.add_argument("--attnscope", default=os.path.join(repo, "build/app/attnscope"))
p.add_argument("--reference", default=os.path.join(repo, "../shared/bench/charlm_reference.py"))
p.add_argument("--python", default="/usr/bin/python3")
args = p.parse_args()
if not os.access(args.attnscope, os.X_OK):
    sys.exit(f"no attnscope binary at {args.attnscope} (build first, or give --attnscope)")
if not os.path.isfile(args.reference):
    sys.exit(f"no charlm_reference.py at {args.reference} (give --reference)")
if subprocess.run([args.python, "-c", "import torch"], stderr=subprocess.DEVNULL).returncode != 0:
    sys.exit(f"{args.python} has no torch: apt-get install -y python3-torch")

# The same option names on both sides.
settings = ["--hidden", "256", "--layers", "2", "--embed", "64", "--seq-len", "64", "--batch", "32",
            "--lr", "2e-3", "--clip", "1", "--val", "0.05", "--epochs", str(args.epochs)]
with open(args.text, encoding="utf-8", errors="replace") as f:
    prime = f.read(4)
env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))


def run_peak(command):
    """Runs `command`; its standard output and its peak RSS in MiB (the child's own, from wait4)."""
    with tempfile.TemporaryFile(mode="w+") as err:
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err, text=True, env=env)
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            err.seek(0)
            sys.exit(f"{' '.join(command)} failed ({code}):\n{err.read()}")
    return out, usage.ru_maxrss / 1024


def json_lines(text):
    return [json.loads(line[5:]) for line in text.splitlines() if line.startswith("JSON ")]


def speed(per_epoch):
    return statistics.median(per_epoch[1:] or per_epoch)


def reference(seed):
    out, rss = run_peak([args.python, args.reference, "--text", args.text, *settings, "--threads",
                         str(args.threads), "--seed", str(seed), "--sample", "0", "--prime", prime,
                         "--latency", str(args.latency)])
    records = json_lines(out)
    epochs = [r for r in records if r["kind"] == "epoch"]
    latency = next(r for r in records if r["kind"] == "latency")
    return {"chars_per_s": speed([e["chars_per_s"] for e in epochs]), "val_bpc": epochs[-1]["val_bpc"],
            "latency_median_ms": latency["median_ms"], "latency_p99_ms": latency["p99_ms"], "rss": rss}


def attnscope(seed, folder):
    _, rss = run_peak([args.attnscope, "charlm", "--text", args.text, "--out", folder, "--cell", "gru", *settings,
                       "--threads", str(args.threads), "--seed", str(seed), "--prime", prime])
    metrics = json.load(open(os.path.join(folder, "metrics.json")))
    epochs = metrics["epochs"]
    out, _ = run_peak([args.attnscope, "generate", "--model", os.path.join(folder, "model.ckpt"), "--prime", prime,
                       "--temperature", "1", "--seed", str(seed), "--latency", str(args.latency)])
    latency = next(r for r in json_lines(out) if r["kind"] == "latency")
    return {"chars_per_s": speed([e["chars_per_s"] for e in epochs]),
            "val_bpc": epochs[-1]["validation_bits_per_char"],
            "latency_median_ms": latency["median_ms"], "latency_p99_ms": latency["p99_ms"], "rss": rss}


figures = ("chars_per_s", "latency_median_ms", "latency_p99_ms", "val_bpc", "rss")
results = {tool: {k: [] for k in figures} for tool in ("reference", "attnscope")}
with tempfile.TemporaryDirectory() as tmp:
    for r in range(1, args.rounds + 1):
        # Alternate who goes first, so that a drift of the machine does not favour one side.
        order = ("reference", "attnscope") if r % 2 else ("attnscope", "reference")
        for tool in order:
            print(f"== round {r}/{args.rounds}: {tool}", flush=True)
            seed = args.first_seed + r - 1
            result = reference(seed) if tool == "reference" else attnscope(seed, os.path.join(tmp, f"run-{r}"))
            print(f"   {result['chars_per_s']:,.0f} chars/s, validation {result['val_bpc']:.3f} bits/char, "
                  f"sampling {result['latency_median_ms']:.4f} ms median, {result['rss']:.0f} MiB", flush=True)
            for k in figures:
                results[tool][k].append(result[k])

med = {tool: {k: statistics.median(v) for k, v in figures_.items()} for tool, figures_ in results.items()}
ref, app = med["reference"], med["attnscope"]
print(f"\n{args.text}: {args.rounds} alternating round(s) of {args.epochs} epoch(s), {args.threads} thread(s), medians "
      f"over rounds; settings: GRU {' '.join(settings)}")
print(f"{'figure':40s} {'reference':>10s} {'AttnScope':>10s} {'ratio':>8s}  target")
print(f"{'training chars/s':40s} {ref['chars_per_s']:10,.0f} {app['chars_per_s']:10,.0f} "
      f"{app['chars_per_s'] / ref['chars_per_s']:7.2f}x  >= 3x: {'met' if app['chars_per_s'] >= 3 * ref['chars_per_s'] else 'not met'}")
print(f"{'sampling latency per character, median ms':40s} {ref['latency_median_ms']:10.4f} {app['latency_median_ms']:10.4f} "
      f"{ref['latency_median_ms'] / app['latency_median_ms']:7.2f}x  <= 0.1 ms: {'met' if app['latency_median_ms'] <= 0.1 else 'not met'}")
print(f"{'sampling latency per character, p99 ms':40s} {ref['latency_p99_ms']:10.4f} {app['latency_p99_ms']:10.4f} "
      f"{ref['latency_p99_ms'] / app['latency_p99_ms']:7.2f}x")
print(f"{f'validation bits/char after {args.epochs} epochs':40s} {ref['val_bpc']:10.3f} {app['val_bpc']:10.3f} "
      f"{app['val_bpc'] - ref['val_bpc']:+8.3f}  <= reference: {'met' if app['val_bpc'] <= ref['val_bpc'] else 'not met'}")
print(f"{'peak RSS while training, MiB':40s} {ref['rss']:10.0f} {app['rss']:10.0f}")
print("JSON " + json.dumps({"text": args.text, "rounds": args.rounds, "epochs": args.epochs, "threads": args.threads,
                            "latency_chars": args.latency, "median": med, "runs": results}))
