#!/usr/bin/env bash
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# Builds cvr-bench's libcvr once per kernel variant, each with its own extra
# CUDA flags, into .device/variants/NAME/ for an A/B/C comparison in one device
# call (run.sh's "variants" step: the variants' runs interleaved). Run after
# pack.sh.
#
#   tools/device/pack-variants.sh NAME='-DFLAG=1 -DOTHER=2' [NAME='...']...
#     a whole library per variant (all CUDA files with the flags)
#   CVR_VARIANT_FILES="kernels/cuda/warp_marching.cu ..." tools/device/pack-variants.sh ...
#     only those files compiled again with the flags, over the objects of the
#     sm_90 build pack.sh made (build-device; CVR_VARIANT_BASE another): a
#     minute a variant, not ten
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
base=${CVR_VARIANT_BASE:-$root/build-device}
for spec in "$@"; do
  name=${spec%%=*}
  flags=${spec#*=}
  dest=$root/.device/variants/$name
  mkdir -p "$dest"
  if [[ -n ${CVR_VARIANT_FILES:-} ]]; then
    build=$root/build-variant-$name
    rm -rf "$build"
    mkdir -p "$build"
    # (the library's objects are cvr_objects's; cvr links them, kernels/CMakeLists.txt)
    objdir=$base/kernels/CMakeFiles/cvr_objects.dir
    cp -a "$objdir" "$build/cvr_objects.dir"
    cuda_flags=$(sed -n 's/^CUDA_FLAGS = //p' "$objdir/flags.make")
    cuda_defines=$(sed -n 's/^CUDA_DEFINES = //p' "$objdir/flags.make")
    for f in $CVR_VARIANT_FILES; do
      # shellcheck disable=SC2086 # (flags are words)
      (cd "$base/kernels" && nvcc $cuda_defines --options-file CMakeFiles/cvr_objects.dir/includes_CUDA.rsp \
        $cuda_flags $flags -x cu -c "$root/$f" -o "$build/cvr_objects.dir/cuda/$(basename "$f").o")
    done
    # the build's own link line, over the variant's objects
    objects=$(tr ' ' '\n' <"$base/kernels/CMakeFiles/cvr.dir/objects1" |
      sed "s|^CMakeFiles/cvr_objects.dir|$build/cvr_objects.dir|" | tr '\n' ' ')
    sed "s|-o libcvr.so.0.1.0|-o $dest/libcvr.so.0|; s|@CMakeFiles/cvr.dir/objects1|$objects|" \
      "$base/kernels/CMakeFiles/cvr.dir/link.txt" >"$build/link.sh"
    (cd "$base/kernels" && bash "$build/link.sh")
    cp "$base/tools/bench/cvr-bench" "$dest/"
  else
    build=$root/build-variant-$name
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCVR_ENABLE_CUDA=ON \
      -DCMAKE_CUDA_ARCHITECTURES=90 -DCVR_BUILD_TESTING=OFF "-DCMAKE_CUDA_FLAGS=$flags" >/dev/null
    cmake --build "$build" -j"$(nproc)" --target cvr-bench >/dev/null
    cp "$build/tools/bench/cvr-bench" "$dest/"
    cp -L "$build/kernels/libcvr.so.0" "$dest/"
  fi
  echo "$flags" >"$dest/flags"
  xz -T0 -6 -f "$dest/libcvr.so.0"
done
echo "variants: $(ls "$root/.device/variants" | tr '\n' ' ')"
