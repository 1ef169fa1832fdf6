#!/usr/bin/env bash
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# Builds the GPU test programs and benchmark for the lent GPU machine (sm_90)
# and packs them, with the shared libraries they need beyond the C runtime
# and the real data the tests read, into .device/ (git-ignored) at the repo
# root. Then a device run carries .device and calls tools/device/run.sh.
#
#   tools/device/pack.sh [build-dir]      (default build-device)
#     CVR_PACK_DATA="scivis/bonsai.nii.gz ..." narrows the volumes; CVR_PACK_TESTS_ONLY=1
#     leaves the benchmarks out (run.sh tests and sanitize); CVR_PACK_PROGRAMS="cvr-auto-bench ..."
#     packs those programs only (with the repository's 30-odd MiB, a pack of everything
#     leaves little room for data); CVR_PACK_EGL=1 adds what
#     run.sh egl needs (the whole pack and the working tree must stay
#     under a device call's 64 MiB)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-device}
data=${CVR_DATA_DIR:-$root/../shared/data}
pack=$root/.device

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCVR_ENABLE_CUDA=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DCVR_BUILD_VTK_MODULE=OFF -DCVR_BUILD_EXPERIMENTS=ON \
  -DCVR_DATA_DIR="$data" >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null

rm -rf "$pack"
mkdir -p "$pack/bin" "$pack/lib" "$pack/data"
# (CVR_PACK_TESTS_ONLY=1: the test programs only, no benchmarks)
if [[ ${CVR_PACK_TESTS_ONLY:-0} == 1 ]]; then names=(-name 'test_*'); else names=(-name 'test_*' -o -name 'cvr-*'); fi
if [[ -n ${CVR_PACK_PROGRAMS:-} ]]; then
  names=()
  for p in $CVR_PACK_PROGRAMS; do names+=(${names:+-o} -name "$p"); done
fi
programs=$(find "$build/Testing" "$build/tools" -maxdepth 3 -type f -executable \
  \( "${names[@]}" \) ! -name '*.so*' 2>/dev/null || true)
cp $programs "$pack/bin/"

# The libraries the programs load, less those every glibc system has (the
# device machine's are newer, and newer is compatible).
system='^(linux-vdso|libc\.so|libm\.so|libpthread|libdl\.so|librt\.so|ld-linux|libgcc_s|libstdc\+\+)'
for p in "$pack"/bin/*; do
  ldd "$p" | awk '$3 ~ /^\// {print $1, $3}'
done | sort -u | while read -r name path; do
  [[ $name =~ $system ]] || cp -L "$path" "$pack/lib/$name"
done

# ctest's list of the packed programs' tests, with commands made relative to
# the pack (tests of the build itself, such as cvr.exports, stay here)
ctest --test-dir "$build" --show-only=json-v1 | python3 -c '
import json, os, sys
for t in json.load(sys.stdin)["tests"]:
    cmd = t["command"]
    if os.path.exists(os.path.join(sys.argv[1], os.path.basename(cmd[0]))):
        print(t["name"], os.path.basename(cmd[0]), *cmd[1:], sep="\t")
' "$pack/bin" >"$pack/tests.tsv"

# (CVR_PACK_DATA narrows the volumes, e.g. to what cvr-auto-bench reads: a
# device call carries at most 64 MiB with the working tree)
for f in ${CVR_PACK_DATA:-scivis/bonsai.nii.gz scivis/heptane.nii.gz scivis/engine.nii.gz \
  ct/cranium_ct.nii.gz mri/avm_mra_337x319x154.nii.gz}; do
  mkdir -p "$pack/data/$(dirname "$f")"
  # xz keeps a volume a quarter smaller than gzip: X.nii.gz travels as
  # X.nii.xz, which run.sh turns back into the X.nii.gz the programs read
  if [[ $f == *.nii.gz ]]; then
    gzip -dc "$data/$f" | xz -T0 -9 >"$pack/data/${f%.gz}.xz"
  else
    cp "$data/$f" "$pack/data/$f"
  fi
done
# whether OpenGL can reach the GPU without a display (run.sh egl), with
# CVR_PACK_EGL=1: the probe, and glvnd's EGL dispatcher in case the machine
# has NVIDIA's EGL vendor library but not the dispatcher
if [[ ${CVR_PACK_EGL:-0} == 1 ]]; then
  cc -O2 -o "$pack/bin/egl-probe" "$root/tools/device/egl_probe.c" -ldl
  mkdir -p "$pack/egl"
  cp -L /usr/lib/$(gcc -print-multiarch)/{libEGL.so.1,libGLdispatch.so.0} "$pack/egl/"
fi
# the lean reference kernels (run.sh lean), where ../shared/bench has them
[[ -e $root/../shared/bench/lean_reference.cu ]] && cp "$root/../shared/bench/lean_reference.cu" "$pack/"
# the library's kernels for every strategy, layout and type make it the
# largest file by far: compressed, the pack fits a device call's carry with
# the working tree (run.sh unpacks it)
# (libcvr.so.0 for the benchmarks, libcvr-internal.so.0 for the tests)
for lib in "$pack"/lib/libcvr*.so.0; do xz -T0 -6 "$lib"; done
git -C "$root" describe --always --dirty --abbrev=12 >"$pack/commit"
# the build's own flags (a variant build sets some): run.sh writes them into device.txt
grep -E '^CMAKE_(C|CUDA)_FLAGS:' "$build/CMakeCache.txt" >"$pack/build-flags" || true
echo "packed $(du -sh "$pack" | cut -f1) into $pack: $(ls "$pack/bin" | tr '\n' ' ')"
