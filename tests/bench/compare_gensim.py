#!/usr/bin/python3
"""Runs gensim's Word2Vec (../shared/bench/word2vec_gensim.py) and `attnscope word2vec` on the same
corpus with the same settings, alternating, and reports medians over the rounds:

- speed: words/s (corpus words in the vocabulary, before subsampling, times epochs, over training
  seconds; gensim's own definition) at each thread count, and AttnScope / gensim;
- quality: for the 50 most frequent content words, the overlap of AttnScope's 10 nearest neighbours
  with gensim's, next to the overlap of two gensim runs with different seeds (the noise floor), and
  analogy accuracy on --analogies for both;
- memory: peak RSS of each process, trained (one epoch) on the corpus's lines repeated to a million
  words.
Not run by CI: on the King James Bible (tests/bench/kjv_corpus.sh) a round takes minutes.

  tests/bench/compare_gensim.py --corpus kjv.txt [--analogies tests/bench/kjv-questions-words.txt]
        [--rounds 2] [--threads 1,2] [--attnscope build/app/attnscope] [--gensim PATH]
Needs: apt-get install -y python3-gensim
"""
import argparse
import json
import os
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
p.add_argument("--rounds", type=int, default=2)
p.add_argument("--threads", default="1,2")
p.add_argument("--attnscope", default=os.path.join(repo, "build/app/attnscope"))
p.add_argument("--gensim", default=os.path.join(repo, "../shared/bench/word2vec_gensim.py"))
args = p.parse_args()
threads = [int(t) for t in args.threads.split(",")]
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


def overlap(a, b, queries):
    na, nb = neighbours(load(a), queries), neighbours(load(b), queries)
    shared = [q for q in queries if q in na and q in nb]
    return statistics.mean(len(na[q] & nb[q]) / 10 for q in shared), len(shared)


with tempfile.TemporaryDirectory() as tmp:
    speed = {(tool, t): [] for tool in ("gensim", "attnscope") for t in threads}
    rss = {"gensim": [], "attnscope": []}
    analogies = {"gensim": [], "attnscope": []}
    overlaps, floors = [], []
    for r in range(1, args.rounds + 1):
        for t in threads:
            # Alternate who goes first, so that a drift of the machine does not favour one side.
            order = ("gensim", "attnscope") if (r + t) % 2 else ("attnscope", "gensim")
            results = {}
            for tool in order:
                print(f"== round {r}/{args.rounds}, {t} thread(s): {tool}", flush=True)
                if tool == "gensim":
                    results[tool] = gensim(t, 1, os.path.join(tmp, f"gensim-{r}-{t}.txt"))
                else:
                    results[tool] = attnscope(t, 1, os.path.join(tmp, f"attnscope-{r}-{t}"))
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
    print("== gensim with another seed, for the noise floor of the neighbour overlap", flush=True)
    floor_run = gensim(max(threads), 2, os.path.join(tmp, "gensim-seed2.txt"))
    queries = content_words(50)
    t = max(threads)
    for r in range(1, args.rounds + 1):
        g = os.path.join(tmp, f"gensim-{r}-{t}.txt")
        overlaps.append(overlap(os.path.join(tmp, f"attnscope-{r}-{t}", "vectors.txt"), g, queries)[0])
        floors.append(overlap(floor_run["vectors"], g, queries)[0])

    med = statistics.median
    print(f"\n{args.corpus}: {args.rounds} alternating rounds, medians over rounds; settings: {' '.join(settings)}")
    print(f"{'figure':44s} {'gensim':>10s} {'AttnScope':>10s} {'ratio':>7s}")
    for t in threads:
        g, a = med(speed[("gensim", t)]), med(speed[("attnscope", t)])
        print(f"{f'training words/s, {t} thread(s)':44s} {g:10,.0f} {a:10,.0f} {a / g:6.2f}x")
    print(f"{f'peak RSS, MiB (a million words, {t} threads)':44s} {med(rss['gensim']):10.0f} {med(rss['attnscope']):10.0f}")
    if analogies["gensim"] and analogies["attnscope"]:
        g, a = med(analogies["gensim"]) * 100, med(analogies["attnscope"]) * 100
        print(f"{'analogy accuracy, %':44s} {g:10.1f} {a:10.1f} {a - g:+6.1f}")
    print(f"{'top-10 neighbour overlap with gensim (50 words)':44s} {med(floors):10.2f} {med(overlaps):10.2f}"
          "   (gensim column: two gensim seeds, the noise floor)")
    print("JSON " + json.dumps({
        "corpus": args.corpus, "rounds": args.rounds,
        "words_per_s": {f"{tool}_{t}": med(v) for (tool, t), v in speed.items()},
        "peak_rss_mib": {k: med(v) for k, v in rss.items() if v},
        "analogy_accuracy": {k: med(v) for k, v in analogies.items() if v},
        "neighbour_overlap": med(overlaps), "neighbour_overlap_gensim_seeds": med(floors),
        "content_words": queries}))
