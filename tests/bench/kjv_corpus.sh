#!/bin/sh
# Writes the King James Bible as a word2vec corpus, one verse a line (31,102 lines, ~790k words),
# to the file given (default kjv.txt). The text comes from Debian's bible-kjv package, whose `bible`
# command prints it wrapped, with chapter headings and verse numbers; those are removed here.
#
#   tests/bench/kjv_corpus.sh [OUT]            Needs: apt-get install -y bible-kjv
set -eu
out=${1:-kjv.txt}
command -v bible >/dev/null || { echo "no 'bible' command: apt-get install -y bible-kjv" >&2; exit 1; }
tmp="$out.part"
trap 'rm -f "$tmp"' EXIT
bible gen1:1-rev22:21 | awk '
    /^$/                { blank = 1; next }
    blank && /^[^ ]/    { blank = 0; next }              # a chapter heading follows a blank line
    { blank = 0 }
    /^ +[0-9]+ /        { if (verse != "") print verse; sub(/^ +[0-9]+ /, ""); verse = $0; next }
                        { verse = verse " " $0 }          # a wrapped verse goes on
    END                 { if (verse != "") print verse }' > "$tmp"
mv "$tmp" "$out"
trap - EXIT
echo "$out: $(wc -l < "$out") verses, $(wc -w < "$out") words" >&2
