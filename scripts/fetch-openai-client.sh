#!/usr/bin/env bash
# Installs the official OpenAI Node client for serve's conformance test
# (tests/serve/openai_client_conformance.sh): npm's openai at a pinned version, whose tarball
# must have the pinned SHA-256, with its dependencies pinned by the integrity hashes of
# scripts/openai-node/package-lock.json (`npm ci`), in data/openai-node (ignored by git).
#   scripts/fetch-openai-client.sh [--dest DIR]
# Does nothing when DEST already holds this exact tarball and lock file's install.
set -euo pipefail

version=4.104.0
sha256=249a472c9af3937fa4ed0bb2e2fe77fb99b8f726eb9b83ac8181bc705a35a5d0
root=$(cd "$(dirname "$0")/.." && pwd)
pins=$root/scripts/openai-node
dest=$root/data/openai-node
while (($#)); do
  case $1 in
    --dest) dest=$2; shift 2 ;;
    *) echo "fetch-openai-client: unknown option '$1' (use --dest DIR)" >&2; exit 2 ;;
  esac
done
for tool in npm node sha256sum; do
  command -v "$tool" >/dev/null ||
    { echo "fetch-openai-client: $tool is not installed (run scripts/install-deps.sh)" >&2; exit 1; }
done

# The stamp names the tarball and the lock file installed: a changed pin reinstalls.
stamp="$sha256 $(sha256sum "$pins/package-lock.json" | cut -d' ' -f1)"
if [[ -f $dest/.sha256 && $(cat "$dest/.sha256") == "$stamp" &&
      -f $dest/node_modules/openai/package.json ]]; then
  exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "fetch-openai-client: fetching openai@$version from the npm registry" >&2
if ! (cd "$tmp" && npm pack --silent "openai@$version" >/dev/null 2>"$tmp/npm.log"); then
  echo "fetch-openai-client: npm pack openai@$version failed: $(tail -n 1 "$tmp/npm.log")" >&2
  exit 1
fi
tarball=$tmp/openai-$version.tgz
got=$(sha256sum "$tarball" | cut -d' ' -f1)
if [[ $got != "$sha256" ]]; then
  echo "fetch-openai-client: $(basename "$tarball") has SHA-256 $got, expected $sha256 (openai $version); not installed" >&2
  exit 1
fi
# npm ci checks every package against the lock file's integrity; the lock's openai entry must
# be this very tarball, so the checked SHA-256 is what gets installed.
integrity=$(node -e '
  const fs = require("fs"), crypto = require("crypto");
  const lock = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
  const want = lock.packages["node_modules/openai"];
  const have = "sha512-" + crypto.createHash("sha512").update(fs.readFileSync(process.argv[2])).digest("base64");
  if (!want || want.version !== process.argv[3]) console.log("the lock file does not pin openai " + process.argv[3]);
  else if (want.integrity !== have) console.log("the lock file pins openai at " + want.integrity + ", the checked tarball is " + have);
' "$pins/package-lock.json" "$tarball" "$version")
if [[ -n $integrity ]]; then
  echo "fetch-openai-client: $integrity; not installed" >&2
  exit 1
fi
mkdir -p "$tmp/install"
cp "$pins/package.json" "$pins/package-lock.json" "$tmp/install/"
if ! (cd "$tmp/install" &&
      npm ci --silent --ignore-scripts --no-audit --no-fund >/dev/null 2>"$tmp/npm-ci.log"); then
  echo "fetch-openai-client: npm ci failed: $(grep -m1 -i 'err' "$tmp/npm-ci.log" || tail -n 1 "$tmp/npm-ci.log")" >&2
  exit 1
fi
installed=$(node -p 'require(process.argv[1]).version' "$tmp/install/node_modules/openai/package.json")
if [[ $installed != "$version" ]]; then
  echo "fetch-openai-client: npm ci installed openai $installed, expected $version; not installed" >&2
  exit 1
fi
rm -rf "$dest"
mkdir -p "$(dirname "$dest")"
mv "$tmp/install" "$dest"
echo "$stamp" >"$dest/.sha256"
echo "fetch-openai-client: installed openai $version in $dest" >&2
