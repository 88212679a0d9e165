#!/usr/bin/python3
"""Writes three corpora of real English text no one here tuned for, one sentence a line, for
`attnscope train --corpus` (docs/benchmarks.md, "Real corpora"):

  fortunes.txt  quips, quotations and dialogue from Debian's fortune cookies (apt-get install fortunes)
  kjv.txt       the King James Bible, verse by verse (apt-get install bible-kjv)
  manpages.txt  technical prose from the machine's own manual pages (man1, man5, man8)

Punctuation is kept, as the tokenizer splits it off; a sentence is kept when it has 3 to 23 tokens
and only ASCII letters, digits and punctuation. Each corpus is 7,000 sentences, drawn without
repetition with a fixed seed, so the files are the same on every machine with the same packages.

  /usr/bin/python3 tests/bench/real_corpora.py [OUT_DIR]     (default: the current folder)
"""
import gzip
import os
import random
import re
import subprocess
import sys

SENTENCES = 7000
TOKEN = re.compile(r"[A-Za-z0-9]+|[^A-Za-z0-9\s]")
ALLOWED = re.compile(r"^[A-Za-z0-9 ,;:.!?'\"()-]+$")
SENTENCE = re.compile(r"[^.!?]+[.!?]+")


def sentences(text):
    """The sentences of running text that the corpora keep."""
    for s in SENTENCE.findall(re.sub(r"\s+", " ", text)):
        s = s.strip()
        if ALLOWED.match(s) and 3 <= len(TOKEN.findall(s)) <= 23:
            yield s


def fortunes():
    folder = "/usr/share/games/fortunes"
    if not os.path.isdir(folder):
        sys.exit("no fortunes in %s: apt-get install -y fortunes" % folder)
    for name in sorted(os.listdir(folder)):
        if name.endswith((".dat", ".u8")) or "art" in name:
            continue
        with open(os.path.join(folder, name), encoding="latin-1") as f:
            for cookie in f.read().split("\n%\n"):
                # An attribution ("-- Someone") is not part of the quip.
                yield from sentences(" ".join(l for l in cookie.split("\n") if not l.strip().startswith("--")))


def kjv():
    try:
        text = subprocess.run(["bible", "-f", "gen1:1-rev22:21"], capture_output=True, text=True, check=True).stdout
    except FileNotFoundError:
        sys.exit("no 'bible' command: apt-get install -y bible-kjv")
    # `bible -f` prints a verse a line after its reference ("Ge1:1").
    for line in text.split("\n"):
        yield from sentences(re.sub(r"^\S*?[0-9]+:[0-9]+\s*", "", line))


def troff_text(source):
    """The running text of a man page's troff source: requests dropped, font escapes removed."""
    lines = []
    for line in source.split("\n"):
        if line.startswith((".", "'")):
            if re.match(r"^\.(B|I|BI|BR|IR|RB|RI|IB|SM|SB)\s", line):
                lines.append(re.sub(r"^\.\w+\s", "", line).replace('"', ""))
            elif line.startswith((".PP", ".LP", ".P", ".SH", ".SS", ".TP", ".IP")):
                lines.append("\n\n")
            continue
        lines.append(line)
    text = "\n".join(lines)
    text = re.sub(r"\\f(\[[^\]]*\]|\(..|.)", "", text)
    text = re.sub(r"\\\*?\((..)|\\\*\[[^\]]*\]|\\\[[^\]]*\]", " ", text)
    text = text.replace("\\-", "-").replace("\\&", "").replace("\\e", "\\").replace("\\ ", " ")
    return text


def manpages():
    for section in ("man1", "man5", "man8"):
        folder = os.path.join("/usr/share/man", section)
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            # The Google Cloud SDK's thousands of generated pages would outweigh every other.
            if not name.endswith(".gz") or os.path.islink(path) or name.startswith("gcloud"):
                continue
            try:
                with gzip.open(path, "rt", encoding="utf-8", errors="replace") as f:
                    source = f.read()
            except OSError:
                continue
            if source.startswith(".so "):
                continue
            for paragraph in troff_text(source).split("\n\n"):
                yield from sentences(paragraph)


def write(path, found):
    unique = list(dict.fromkeys(found))
    if len(unique) < SENTENCES:
        sys.exit("%s: only %d sentences found, %d wanted" % (path, len(unique), SENTENCES))
    chosen = random.Random(1).sample(unique, SENTENCES)
    tmp = path + ".part"
    with open(tmp, "w") as f:
        f.write("\n".join(chosen) + "\n")
    os.replace(tmp, path)
    print("%s: %d sentences drawn from %d" % (path, SENTENCES, len(unique)), file=sys.stderr)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(out, exist_ok=True)
    write(os.path.join(out, "fortunes.txt"), fortunes())
    write(os.path.join(out, "kjv.txt"), kjv())
    write(os.path.join(out, "manpages.txt"), manpages())


if __name__ == "__main__":
    main()
