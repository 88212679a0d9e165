#!/usr/bin/python3
"""Runs gensim's Word2Vec (../shared/bench/word2vec_gensim.py) and `attnscope word2vec` on the same
corpus with the same settings, alternating, and reports medians over the rounds:

- speed: words/s (corpus words in the vocabulary, before subsampling, times epochs, over training
  seconds; gensim's own definition) at each thread count, and AttnScope / gensim;
- quality: for the 50 most frequent content words, the overlap of AttnScope's 10 nearest neighbours
  with gensim's, next to the overlap of two gensim runs with different seeds (the noise floor), each
  the mean over every pair of the rounds' runs at the most threads (round r uses seed r), with a
  bootstrap interval over the seeds for their difference, and
  analogy accuracy on --analogies for both;
- memory: peak RSS of each process, trained (one epoch) on the corpus's lines repeated to a million
  words.
Not run by CI: on the King James Bible (tests/bench/kjv_corpus.sh) a round takes minutes.

  tests/bench/compare_gensim.py --corpus kjv.txt [--analogies tests/bench/kjv-questions-words.txt]
        [--rounds 8] [--threads 1,2] [--attnscope build/app/attnscope] [--gensim PATH]
Needs: apt-get install -y python3-gensim
"""
import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile

import numpy as np

repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument("--corpus", required=True)
p.add_argument("--analogies", default=None)
p.add_argument("--rounds", type=int, default=8)
p.add_argument("--threads", default="1,2")
p.add_argument("--attnscope", default=os.path.join(repo, "build/app/attnscope"))
p.add_argument("--gensim", default=os.path.join(repo, "../shared/bench/word2vec_gensim.py"))
args = p.parse_args()
threads = [int(t) for t in args.threads.split(",")]
if args.rounds < 2:
    sys.exit("--rounds must be at least 2: the noise floor compares runs with different seeds")
# The settings: skip-gram, dim 100, window 5, negative 5, min count 5, sample 1e-3, 5 epochs.
settings = ["--dim", "100", "--window", "5", "--negative", "5", "--min-count", "5", "--sample", "1e-3",
            "--epochs", "5", "--alpha", "0.025"]
# Words too frequent to have meaningful neighbours: left out of the 50 "content words".
stopwords = set("""the and of to that in he shall unto for i his a they be is him not them it with all thou
thy was which my me but ye their have thee from as are when this out were by you up there hath then
had upon him her on we so she an or at what if our its your us do no into these those who whom will
did even also one let now because how before after over any may might would should every hast art""".split())


def run_measured(command):
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({proc.returncode})")
    return out, usage.ru_maxrss / 1024


def json_lines(text):
    return [json.loads(line[5:]) for line in text.splitlines() if line.startswith("JSON ")]


def gensim(workers, seed, vectors, corpus=None, extra=()):
    command = ["/usr/bin/python3", args.gensim, "--corpus", corpus or args.corpus, *settings, *extra,
               "--workers", str(workers),
               "--seed", str(seed), "--save-vectors", vectors]
    if args.analogies:
        command += ["--analogies", args.analogies]
    out, rss = run_measured(command)
    records = {r["kind"]: r for r in json_lines(out)}
    analogies = records.get("analogies", {}).get("accuracy")
    return {"words_per_s": records["train"]["words_per_s"], "rss": rss, "analogies": analogies,
            "vectors": vectors}


def attnscope(threads_, seed, folder, corpus=None, extra=()):
    command = [args.attnscope, "word2vec", "--corpus", corpus or args.corpus, "--out", folder, *settings, *extra,
               "--threads", str(threads_), "--seed", str(seed)]
    if args.analogies:
        command += ["--analogies", args.analogies]
    _, rss = run_measured(command)
    metrics = json.load(open(os.path.join(folder, "metrics.json")))
    analogies = metrics.get("analogies", {}).get("accuracy") if args.analogies else None
    return {"words_per_s": metrics["words_per_s"], "rss": rss, "analogies": analogies,
            "vectors": os.path.join(folder, "vectors.txt")}


def load(path):
    with open(path, encoding="utf-8") as f:
        count, dim = map(int, f.readline().split())
        words, rows = [], np.empty((count, dim), dtype=np.float32)
        for i, line in enumerate(f):
            parts = line.rstrip().split(" ")
            words.append(parts[0])
            rows[i] = np.asarray(parts[1:], dtype=np.float32)
    rows /= np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)
    return words, rows


def content_words(count):
    token = re.compile(r"[a-z]+(?:'[a-z]+)?")
    freq = {}
    for line in open(args.corpus, encoding="utf-8", errors="replace"):
        for w in token.findall(line.lower()):
            freq[w] = freq.get(w, 0) + 1
    ranked = sorted(freq, key=lambda w: (-freq[w], w))
    return [w for w in ranked if w not in stopwords][:count]


def neighbours(vectors, queries, k=10):
    words, rows = vectors
    index = {w: i for i, w in enumerate(words)}
    result = {}
    for q in queries:
        if q in index:
            sims = rows @ rows[index[q]]
            sims[index[q]] = -np.inf
            result[q] = set(words[i] for i in np.argsort(-sims)[:k])
    return result


def overlaps(a, b, queries):
    """Every run of a against every run of b: the mean share of the 10 nearest neighbours they agree on."""
    found = {path: neighbours(load(path), queries) for path in set(a) | set(b)}
    def one(x, y):
        shared = [q for q in queries if q in found[x] and q in found[y]]
        return statistics.mean(len(found[x][q] & found[y][q]) / 10 for q in shared)
    return [[one(x, y) for y in b] for x in a]


def pair_mean(matrix, rows, cols, same):
    """The mean over the chosen runs' pairs (over every two different runs when a matrix is a run set with itself)."""
    values = [matrix[i][j] for n, i in enumerate(rows) for m, j in enumerate(cols) if not same or (n < m and i != j)]
    return statistics.mean(values)


def bootstrap_gap(cross, floor, rounds, draws=2000):
    """95% interval of (AttnScope-gensim mean) - (gensim-gensim mean) when the seeds of each side are resampled."""
    rng = random.Random(1)
    gaps = []
    while len(gaps) < draws:
        g = [rng.randrange(rounds) for _ in range(rounds)]
        a = [rng.randrange(rounds) for _ in range(rounds)]
        if len(set(g)) > 1:
            gaps.append(pair_mean(cross, a, g, False) - pair_mean(floor, g, g, True))
    gaps.sort()
    return gaps[int(0.025 * draws)], gaps[int(0.975 * draws)]


with tempfile.TemporaryDirectory() as tmp:
    speed = {(tool, t): [] for tool in ("gensim", "attnscope") for t in threads}
    rss = {"gensim": [], "attnscope": []}
    analogies = {"gensim": [], "attnscope": []}
    for r in range(1, args.rounds + 1):
        for t in threads:
            # Alternate who goes first, so that a drift of the machine does not favour one side.
            order = ("gensim", "attnscope") if (r + t) % 2 else ("attnscope", "gensim")
            results = {}
            for tool in order:
                print(f"== round {r}/{args.rounds}, {t} thread(s): {tool}", flush=True)
                if tool == "gensim":
                    results[tool] = gensim(t, r, os.path.join(tmp, f"gensim-{r}-{t}.txt"))
                else:
                    results[tool] = attnscope(t, r, os.path.join(tmp, f"attnscope-{r}-{t}"))
                print(f"   {results[tool]['words_per_s']:,.0f} words/s, {results[tool]['rss']:.0f} MiB",
                      flush=True)
                speed[(tool, t)].append(results[tool]["words_per_s"])
            if t == max(threads):
                for tool in results:
                    if results[tool]["analogies"] is not None:
                        analogies[tool].append(results[tool]["analogies"])
    million = os.path.join(tmp, "million.txt")
    with open(million, "w", encoding="utf-8") as out:
        lines = [l for l in open(args.corpus, encoding="utf-8", errors="replace") if l.strip()]
        words, i = 0, 0
        while words < 1_000_000:
            out.write(lines[i % len(lines)])
            words += len(lines[i % len(lines)].split())
            i += 1
    for tool in ("gensim", "attnscope"):
        print(f"== memory, a million words, {tool}", flush=True)
        one_epoch = ("--epochs", "1")
        if tool == "gensim":
            rss[tool].append(gensim(max(threads), 1, os.path.join(tmp, "m.txt"), million, one_epoch)["rss"])
        else:
            rss[tool].append(attnscope(max(threads), 1, os.path.join(tmp, "m"), million, one_epoch)["rss"])
    queries = content_words(50)
    t = max(threads)
    runs = {tool: [os.path.join(tmp, f"gensim-{r}-{t}.txt") if tool == "gensim"
                   else os.path.join(tmp, f"attnscope-{r}-{t}", "vectors.txt") for r in range(1, args.rounds + 1)]
            for tool in ("gensim", "attnscope")}
    every = range(args.rounds)
    floor_matrix = overlaps(runs["gensim"], runs["gensim"], queries)
    cross_matrix = overlaps(runs["attnscope"], runs["gensim"], queries)
    own_matrix = overlaps(runs["attnscope"], runs["attnscope"], queries)
    floors = [floor_matrix[i][j] for i in every for j in every if i < j]
    cross = [cross_matrix[i][j] for i in every for j in every]
    own = [own_matrix[i][j] for i in every for j in every if i < j]
    gap_low, gap_high = bootstrap_gap(cross_matrix, floor_matrix, args.rounds)

    med = statistics.median
    print(f"\n{args.corpus}: {args.rounds} alternating rounds, medians over rounds (overlaps: means over pairs); settings: {' '.join(settings)}")
    print(f"{'figure':44s} {'gensim':>10s} {'AttnScope':>10s} {'ratio':>7s}")
    for t in threads:
        g, a = med(speed[("gensim", t)]), med(speed[("attnscope", t)])
        print(f"{f'training words/s, {t} thread(s)':44s} {g:10,.0f} {a:10,.0f} {a / g:6.2f}x")
    print(f"{f'peak RSS, MiB (a million words, {t} threads)':44s} {med(rss['gensim']):10.0f} {med(rss['attnscope']):10.0f}")
    if analogies["gensim"] and analogies["attnscope"]:
        g, a = med(analogies["gensim"]) * 100, med(analogies["attnscope"]) * 100
        print(f"{'analogy accuracy, %':44s} {g:10.1f} {a:10.1f} {a - g:+6.1f}")
    mean = statistics.mean
    print(f"{'top-10 neighbour overlap with gensim (50 words)':44s} {mean(floors):10.3f} {mean(cross):10.3f}"
          f"   (gensim column: gensim seed pairs, the noise floor, {min(floors):.3f}-{max(floors):.3f};"
          f" AttnScope column: {min(cross):.3f}-{max(cross):.3f} over {len(cross)} pairs)")
    print(f"{'  AttnScope minus the floor, 95% over seeds':44s} {'':10s} {mean(cross) - mean(floors):+10.3f}"
          f"   ({gap_low:+.3f} to {gap_high:+.3f}: the seeds of both sides resampled)")
    print(f"{'top-10 neighbour overlap, AttnScope seed pairs':44s} {'':10s} {mean(own):10.3f}")
    print("JSON " + json.dumps({
        "corpus": args.corpus, "rounds": args.rounds,
        "words_per_s": {f"{tool}_{t}": med(v) for (tool, t), v in speed.items()},
        "peak_rss_mib": {k: med(v) for k, v in rss.items() if v},
        "analogy_accuracy": {k: med(v) for k, v in analogies.items() if v},
        "neighbour_overlap": mean(cross), "neighbour_overlap_gensim_seeds": mean(floors),
        "neighbour_overlap_gap_95": [gap_low, gap_high],
        "neighbour_overlap_attnscope_seeds": mean(own),
        "content_words": queries}))
