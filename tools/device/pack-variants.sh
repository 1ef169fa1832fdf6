#!/usr/bin/env bash
# Builds cvr-bench (and its libcvr) once per kernel variant, each with its own
# extra CUDA flags, into .device/variants/NAME/ for an A/B/C comparison in
# one device call (run.sh's "variants" step). Run after pack.sh.
#
#   tools/device/pack-variants.sh NAME='-DFLAG=1 -DOTHER=2' [NAME='...']...
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
for spec in "$@"; do
  name=${spec%%=*}
  flags=${spec#*=}
  build=$root/build-variant-$name
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCVR_ENABLE_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DCVR_BUILD_TESTING=OFF "-DCMAKE_CUDA_FLAGS=$flags" >/dev/null
  cmake --build "$build" -j"$(nproc)" --target cvr-bench >/dev/null
  dest=$root/.device/variants/$name
  mkdir -p "$dest"
  cp "$build/tools/bench/cvr-bench" "$dest/"
  cp -L "$build/kernels/libcvr.so.0" "$dest/"
  echo "$flags" >"$dest/flags"
done
echo "variants: $(ls "$root/.device/variants" | tr '\n' ' ')"
