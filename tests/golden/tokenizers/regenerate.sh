#!/usr/bin/env bash
# Regenerates the byte-level BPE fixtures and their reference ids (make_fixtures.mjs): installs
# the packages package-lock.json pins (npm ci checks each one's integrity hash) in a temporary
# folder, then encodes with Hugging Face's tokenizers.js and SentencePiece's spm_encode. Needs node,
# npm and spm_train/spm_encode (Debian's npm and sentencepiece).
#   tests/golden/tokenizers/regenerate.sh [OUT_DIR]   (default: this folder)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
for tool in node npm spm_train spm_encode; do
  command -v "$tool" >/dev/null ||
    { echo "regenerate: $tool is not installed (apt-get install npm sentencepiece)" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/package.json" "$here/package-lock.json" "$tmp/"
if ! (cd "$tmp" && npm ci --silent --ignore-scripts --no-audit --no-fund >/dev/null 2>"$tmp/npm.log"); then
  echo "regenerate: npm ci failed: $(tail -n 1 "$tmp/npm.log")" >&2
  exit 1
fi
node "$here/make_fixtures.mjs" "$tmp" "$out"
