#!/usr/bin/env bash
# CTest: the committed tokenizer fixtures and reference ids are what the independent references
# give today. Runs regenerate.sh into a temporary folder (npm ci of the pinned tokenizers.js,
# spm_train and spm_encode) and compares every file with the committed one. Exits 77 (skipped)
# when node, npm or the sentencepiece tools are missing, or npm cannot fetch the pinned packages.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
for tool in node npm spm_train spm_encode; do
  command -v "$tool" >/dev/null || { echo "check_reference: $tool is not installed; skipped"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! "$here/regenerate.sh" "$tmp/out" 2>"$tmp/log"; then
  if grep -q "npm ci failed" "$tmp/log"; then
    echo "check_reference: $(cat "$tmp/log"); skipped"
    exit 77
  fi
  cat "$tmp/log" >&2
  exit 1
fi
status=0
for file in reference_ids.json gpt2/tokenizer.json llama3/tokenizer.json qwen2/tokenizer.json \
  spm/tokenizer.model; do
  if cmp -s "$here/$file" "$tmp/out/$file"; then
    echo "check_reference: $file as the reference makes it"
  else
    echo "check_reference: $file differs from what regenerate.sh makes now" >&2
    status=1
  fi
done
exit "$status"
