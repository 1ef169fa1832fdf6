#!/usr/bin/env bash
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# Packs cvr-peer-bench for the GPU machine: the program built with the CUDA
# backend (sm_90) and the VTK module, the shared libraries it loads (VTK's,
# and glvnd's EGL and GL dispatchers: the machine has NVIDIA's EGL vendor
# library but no dispatcher), and the volumes it renders, into
# .device-peer/peer.tar.xz (git-ignored), within one call's carry. No X
# server or Mesa: the program's OpenGL context comes from NVIDIA's EGL.
#
#   tools/device/pack-peer.sh [build-dir]      (default build-device-vtk)
# then, on the device: tools/device/run-peer.sh OUT [steps], carrying .device-peer
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-device-vtk}
data=${CVR_DATA_DIR:-$root/../shared/data}
out=$root/.device-peer
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# (the system's python3, as tools/build.sh: Debian's ParaView needs its modules)
python=()
[ -x /usr/bin/python3 ] && python=(-DPython3_EXECUTABLE=/usr/bin/python3)
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCVR_ENABLE_CUDA=ON "${python[@]}" \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DCVR_BUILD_VTK_MODULE=ON -DCVR_DATA_DIR="$data" >/dev/null
cmake --build "$build" -j"$(nproc)" --target cvr-peer-bench >/dev/null

mkdir -p "$stage"/{bin,lib,data}
program=$build/tools/bench/cvr-peer-bench
cp "$program" "$stage/bin/"
multiarch=/usr/lib/$(gcc -print-multiarch)
system='^(linux-vdso|libc\.so|libm\.so|libpthread|libdl\.so|librt\.so|ld-linux|libgcc_s|libstdc\+\+)'
ldd "$program" | awk '$3 ~ /^\// {print $1, $3}' | sort -u | while read -r name path; do
  [[ $name =~ $system ]] || cp -L "$path" "$stage/lib/$name"
done
cp -L "$multiarch"/{libEGL.so.1,libGLdispatch.so.0,libGL.so.1,libGLX.so.0} "$stage/lib/"
for f in scivis/bonsai.nii.gz ct/cranium_ct.nii.gz; do
  mkdir -p "$stage/data/$(dirname "$f")"
  cp "$data/$f" "$stage/data/$f"
done
git -C "$root" describe --always --dirty --abbrev=12 >"$stage/commit"
rm -rf "$out"
mkdir -p "$out"
tar -C "$stage" -cf - . | xz -T0 -6 >"$out/peer.tar.xz"
echo "packed $(du -h "$out/peer.tar.xz" | cut -f1) into $out"
