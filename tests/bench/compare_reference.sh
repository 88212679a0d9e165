#!/bin/sh
# Runs the Python reference (../shared/bench/reference.py, variant "fixed") and `attnscope bench`
# back to back, alternating, on the same machine, and prints AttnScope / reference ratios of the
# medians. Not run by CI: it takes several minutes per round.
#
#   tests/bench/compare_reference.sh [ROUNDS] [THREADS]     (defaults: 2 rounds, 2 threads)
#   ATTNSCOPE=build/app/attnscope  REFERENCE=../shared/bench/reference.py  PYTHON=/usr/bin/python3
#
# Needs Debian's PyTorch: apt-get install -y python3-torch
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${1:-2}
threads=${2:-2}
attnscope=${ATTNSCOPE:-$repo/build/app/attnscope}
reference=${REFERENCE:-$repo/../shared/bench/reference.py}
python=${PYTHON:-/usr/bin/python3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

[ -x "$attnscope" ] || { echo "no attnscope binary at $attnscope (build first, or set ATTNSCOPE)" >&2; exit 1; }
[ -f "$reference" ] || { echo "no reference.py at $reference (set REFERENCE)" >&2; exit 1; }
"$python" -c 'import torch' 2>/dev/null || { echo "$python has no torch: apt-get install -y python3-torch" >&2; exit 1; }

round=1
while [ "$round" -le "$rounds" ]; do
    echo "== round $round/$rounds: reference"
    OMP_NUM_THREADS=$threads "$python" "$reference" --variant fixed --time-to-acc 0.99 --latency 500 \
        --threads "$threads" --seed 0 | tee "$out/reference-$round.log" | grep -v '^JSON '
    echo "== round $round/$rounds: attnscope bench"
    "$attnscope" bench --threads "$threads" --json "$out/attnscope-$round.json"
    round=$((round + 1))
done

"$python" - "$out" "$rounds" "$threads" <<'PY'
import json, statistics, sys
out, rounds, threads = sys.argv[1], int(sys.argv[2]), sys.argv[3]
ref = {"sps": [], "tta": [], "lat_med": [], "lat_p99": []}
app = {"sps": [], "tta": [], "lat_med": [], "lat_p99": [], "beam_med": [], "beam_p99": [], "rss": [], "stall": []}
for r in range(1, rounds + 1):
    epochs = []
    for line in open(f"{out}/reference-{r}.log"):
        if not line.startswith("JSON "):
            continue
        rec = json.loads(line[5:])
        if rec["kind"] == "epoch":
            epochs.append(rec["samples_per_s"])
        elif rec["kind"] == "time_to_acc" and rec["reached"]:
            ref["tta"].append(rec["wall_s"])
        elif rec["kind"] == "latency":
            ref["lat_med"].append(rec["median_ms"])
            ref["lat_p99"].append(rec["p99_ms"])
    ref["sps"].append(statistics.median(epochs[1:] or epochs))  # first epoch is the warm-up
    a = json.load(open(f"{out}/attnscope-{r}.json"))
    app["sps"].append(a["train_samples_per_s"]["median"])
    if a["time_to_acc"]["reached"]:
        app["tta"].append(a["time_to_acc"]["wall_s"])
    app["lat_med"].append(a["greedy_latency"]["median_ms"])
    app["lat_p99"].append(a["greedy_latency"]["p99_ms"])
    app["beam_med"].append(a["beam5_latency"]["median_ms"])
    app["beam_p99"].append(a["beam5_latency"]["p99_ms"])
    app["rss"].append(a["peak_rss_mib"])
    app["stall"].append(a["gui_stall"]["worst_late_ms"])

def med(v):
    return statistics.median(v) if v else float("nan")

rows = [("training samples/s", "sps", True),
        ("time to 99% test exact match, wall s", "tta", False),
        ("greedy latency median, ms", "lat_med", False),
        ("greedy latency p99, ms", "lat_p99", False)]
print(f"\n{threads} threads, {rounds} alternating rounds, medians over rounds")
print(f"{'figure':40s} {'reference':>10s} {'AttnScope':>10s} {'speed-up':>9s}")
for name, key, higher_is_better in rows:
    r, a = med(ref[key]), med(app[key])
    ratio = a / r if higher_is_better else r / a
    print(f"{name:40s} {r:10.2f} {a:10.2f} {ratio:8.2f}x")
print(f"{'AttnScope beam-5 latency median, ms':40s} {'':10s} {med(app['beam_med']):10.2f}")
print(f"{'AttnScope beam-5 latency p99, ms':40s} {'':10s} {med(app['beam_p99']):10.2f}")
print(f"{'AttnScope peak memory, MiB':40s} {'':10s} {med(app['rss']):10.0f}")
print(f"{'AttnScope GUI worst stall training, ms':40s} {'':10s} {med(app['stall']):10.1f}")
PY
