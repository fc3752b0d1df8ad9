#!/usr/bin/env bash
# Builds the report with `posbias reproduce`, checks that it has every section, opens index.html
# in headless Chromium and checks that the page loads, every image loads (the page marks
# data-broken-images), and the console shows no errors.
set -euo pipefail
bin=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$bin" reproduce --out "$dir/report" 2>"$dir/reproduce.log" || { cat "$dir/reproduce.log"; exit 1; }
test -s "$dir/report/index.html"
for id in theory birth text retrieval hops ablation mech llm mitigations; do
  grep -q "<section id=\"$id\">" "$dir/report/index.html" || { echo "no section '$id' in the report"; exit 1; }
done
# The retrieval section: its per-configuration table, the commands by hand, and every file it
# links (figures, gnuplot scripts, data) present and non-empty.
sed -n '/<section id="retrieval">/,/<\/section>/p' "$dir/report/index.html" >"$dir/retrieval.html"
grep -q "<caption>" "$dir/retrieval.html" || { echo "no configuration table in the retrieval section"; exit 1; }
grep -q "posbias birth --colocate" "$dir/retrieval.html" || { echo "no commands in the retrieval section"; exit 1; }
links=$(grep -o '\(src\|href\)="retrieval/[^"]*"' "$dir/retrieval.html" | sed 's/^[a-z]*="//; s/"$//' | sort -u)
if (( $(wc -w <<<"$links") < 12 )); then echo "the retrieval section links only: $links"; exit 1; fi
for f in $links; do
  test -s "$dir/report/$f" || { echo "the retrieval section links $f, which is missing or empty"; exit 1; }
done
# The mitigations section: its table against its summary.json (finite numbers, each kind of row
# with its measurements), both figures and every file it links.
python3 "$(dirname "$0")/reproduce/mitigations_section_check.py" "$dir/report"
# The text section's shape numbers are those of its own birth --run file (first and last step).
python3 - "$dir/report" <<'EOF'
import html, json, re, sys
report = sys.argv[1]
page = open(f"{report}/index.html").read()
text = page[page.index('<section id="text">'):]
text = text[:text.index("</section>")]
rows = {html.unescape(k): html.unescape(v)
        for k, v in re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td></tr>", text)}
cps = json.load(open(f"{report}/text/birth_run.json"))["checkpoints"]
want = {
    "log10 middle / ends of the influence profile: step 0 / final":
        f"{cps[0]['log10_middle_to_ends']:.2f} / {cps[-1]['log10_middle_to_ends']:.2f}",
    "influence argmin (dead zone position): step 0 / final":
        f"{cps[0]['argmin']} / {cps[-1]['argmin']}",
}
for key, value in want.items():
    if rows.get(key) != value:
        sys.exit(f"the text section says {key}: {rows.get(key)!r}, its birth_run.json {value!r}")
EOF
chrome=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $chrome ]]; then echo "chromium is not installed (run scripts/install-deps.sh)"; exit 1; fi
timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$dir/profile" --enable-logging=stderr --v=0 --virtual-time-budget=10000 \
  --dump-dom "file://$dir/report/index.html" >"$dir/dom.html" 2>"$dir/chrome.log" || true
images=$(grep -o 'data-images="[0-9]*"' "$dir/dom.html" | grep -o '[0-9]*' || true)
broken=$(grep -o 'data-broken-images="[0-9]*"' "$dir/dom.html" | grep -o '[0-9]*' || true)
if [[ -z $images || -z $broken ]]; then
  echo "the page did not finish loading in Chromium"; tail -20 "$dir/chrome.log"; exit 1
fi
if (( images < 3 )); then echo "expected at least 3 figures, found $images"; exit 1; fi
if (( broken != 0 )); then echo "$broken of $images images failed to load"; exit 1; fi
if grep -E 'CONSOLE\(|Uncaught|console.error' "$dir/chrome.log" | grep -v 'Fontconfig'; then
  echo "console errors on the report page"; exit 1
fi
echo "report ok: $images images loaded, no console errors"
