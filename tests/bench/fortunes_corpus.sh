#!/bin/sh
# Writes English sentences from Debian's fortune cookies as a corpus for the attention lab, one
# sentence a line, each once, to the file given (default fortunes.txt). Cookies are joined into
# one line, attributions ("-- Someone") and lines of verse art dropped, and split after . ! or ?;
# sentences of 4 to 12 words with letters only in ASCII are kept.
#
#   tests/bench/fortunes_corpus.sh [OUT]        Needs: apt-get install -y fortunes
set -eu
out=${1:-fortunes.txt}
dir=/usr/share/games/fortunes
[ -f "$dir/fortunes" ] || { echo "no fortunes in $dir: apt-get install -y fortunes" >&2; exit 1; }
tmp="$out.part"
trap 'rm -f "$tmp"' EXIT
for f in "$dir"/*; do
    case "$f" in *.dat|*.u8) continue ;; esac
    [ -f "$f" ] && cat "$f" && printf '\n%%\n'
done | LC_ALL=C awk '
    function flush(   n, i, s) {
        gsub(/[ \t]+/, " ", cookie)
        n = split(cookie, parts, /[.!?]+ /)
        for (i = 1; i <= n; i++) {
            s = parts[i]; sub(/^ +/, "", s); sub(/[ .!?]+$/, "", s)
            if (s ~ /[^A-Za-z ,;:\x27-]/) continue
            w = split(s, words, / /)
            if (w >= 4 && w <= 12 && !(s in seen)) { seen[s] = 1; print s }
        }
        cookie = ""
    }
    /^%$/           { flush(); next }
    /^[ \t]*--/     { next }
    { cookie = cookie " " $0 }
    END             { flush() }' > "$tmp"
mv "$tmp" "$out"
trap - EXIT
echo "$out: $(wc -l < "$out") sentences, $(wc -w < "$out") words" >&2
