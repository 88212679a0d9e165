#!/bin/sh
# Runs the Python reference Transformer (../shared/bench/transformer_reference.py) and
# `attnscope bench --architecture transformer` back to back, alternating, on the same machine, and
# prints the medians and the AttnScope / reference ratios. Not run by CI: a round takes minutes.
#
#   tests/bench/compare_transformer.sh [ROUNDS] [THREADS]     (defaults: 2 rounds, 2 threads)
#   ATTNSCOPE=build/app/attnscope  REFERENCE=../shared/bench/transformer_reference.py  PYTHON=/usr/bin/python3
#
# Needs Debian's PyTorch: apt-get install -y python3-torch
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${1:-2}
threads=${2:-2}
attnscope=${ATTNSCOPE:-$repo/build/app/attnscope}
reference=${REFERENCE:-$repo/../shared/bench/transformer_reference.py}
python=${PYTHON:-/usr/bin/python3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

[ -x "$attnscope" ] || { echo "no attnscope binary at $attnscope (build first, or set ATTNSCOPE)" >&2; exit 1; }
[ -f "$reference" ] || { echo "no transformer_reference.py at $reference (set REFERENCE)" >&2; exit 1; }
"$python" -c 'import torch' 2>/dev/null || { echo "$python has no torch: apt-get install -y python3-torch" >&2; exit 1; }

round=1
while [ "$round" -le "$rounds" ]; do
    echo "== round $round/$rounds: reference"
    # Dropout 0 as AttnScope's default Transformer: the same configuration on both sides.
    OMP_NUM_THREADS=$threads "$python" "$reference" --epochs 10 --dropout 0 --latency 500 --threads "$threads" --seed 0 \
        | tee "$out/reference-$round.log" | { grep -v '^JSON ' || true; }
    echo "== round $round/$rounds: attnscope bench --architecture transformer"
    "$attnscope" bench --architecture transformer --threads "$threads" --json "$out/attnscope-$round.json"
    round=$((round + 1))
done

"$python" - "$out" "$rounds" "$threads" <<'PY'
import json, statistics, sys
out, rounds, threads = sys.argv[1], int(sys.argv[2]), sys.argv[3]
ref = {"sps": [], "exact": [], "lat_med": [], "lat_p99": []}
app = {"sps": [], "exact": [], "tta": [], "lat_med": [], "lat_p99": []}
for r in range(1, rounds + 1):
    epochs = []
    for line in open(f"{out}/reference-{r}.log"):
        if not line.startswith("JSON "):
            continue
        rec = json.loads(line[5:])
        if rec["kind"] == "epoch":
            epochs.append(rec["samples_per_s"])
        elif rec["kind"] == "test":
            ref["exact"].append(rec["exact_match"])
        elif rec["kind"] == "latency":
            ref["lat_med"].append(rec["median_ms"])
            ref["lat_p99"].append(rec["p99_ms"])
    ref["sps"].append(statistics.median(epochs[1:] or epochs))  # the first epoch is the warm-up
    a = json.load(open(f"{out}/attnscope-{r}.json"))
    app["sps"].append(a["train_samples_per_s"]["median"])
    app["exact"].append(a["test_exact_match"])
    if a["time_to_acc"]["reached"]:
        app["tta"].append(a["time_to_acc"]["wall_s"])
    app["lat_med"].append(a["greedy_latency"]["median_ms"])
    app["lat_p99"].append(a["greedy_latency"]["p99_ms"])

def med(v):
    return statistics.median(v) if v else float("nan")

print(f"\n{rounds} rounds, {threads} threads; medians (every round in brackets)")
print(f"  training samples/s    reference {med(ref['sps']):8.0f} {[round(x) for x in ref['sps']]}")
print(f"                        attnscope {med(app['sps']):8.0f} {[round(x) for x in app['sps']]}"
      f"   ratio {med(app['sps']) / med(ref['sps']):.2f}x (target >= 2x)")
print(f"  test exact match      reference {100 * med(ref['exact']):7.2f}% {[round(100 * x, 2) for x in ref['exact']]}")
print(f"                        attnscope {100 * med(app['exact']):7.2f}% {[round(100 * x, 2) for x in app['exact']]}"
      "   (target >= 99.5%)")
print(f"  time to 99% test      attnscope {med(app['tta']):7.1f} s {[round(x, 1) for x in app['tta']]}"
      f" ({len(app['tta'])} of {rounds} rounds reached it)")
print(f"  greedy 10 words, ms   reference {med(ref['lat_med']):7.3f} median, {med(ref['lat_p99']):.3f} p99")
print(f"                        attnscope {med(app['lat_med']):7.3f} median, {med(app['lat_p99']):.3f} p99"
      "   (target <= 1 ms)")
PY
