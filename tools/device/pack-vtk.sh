#!/usr/bin/env bash
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# Packs the VTK-level tests for the GPU machine, which has no X server, no
# OpenGL and no VTK: the test driver built with the CUDA backend (sm_90), the
# shared libraries it loads, Xvfb with xkbcomp and its keyboard data, Mesa's
# software OpenGL for the window (the mapper itself renders with CUDA), the
# data the tests read, and ctest's list of the tests. Two xz archives in
# .device-vtk/ (git-ignored), each within one call's carry: mesa.tar.xz
# (Mesa and LLVM, which llvmpipe needs) and vtk.tar.xz (the rest). A first
# call unpacks the first (run-vtk.sh OUT unpack-mesa), a second one right
# after it, on the still-warm machine, unpacks the second and runs the tests.
# Where the working tree and an archive pass the carry's 64 MiB, cut the
# archives (split -b 34M) and carry the pieces over successive calls, joining
# them on the machine (tools/bench/results/2026-11-24-h100-vtk-tests).
#
# With CVR_VTK_WINDOW=egl the tests' windows are EGL pbuffers on the GPU
# (NVIDIA's OpenGL, the mapper's CUDA interop path; CVR_TEST_WINDOW=egl):
# no Xvfb and no Mesa, one archive, and run-vtk.sh OUT runs it in one call.
#
#   tools/device/pack-vtk.sh [build-dir]     (default build-device-vtk)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-device-vtk}
data=${CVR_DATA_DIR:-$root/../shared/data}
out=$root/.device-vtk
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# (the system's python3, as tools/build.sh: Debian's ParaView needs its modules)
python=()
[ -x /usr/bin/python3 ] && python=(-DPython3_EXECUTABLE=/usr/bin/python3)
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCVR_ENABLE_CUDA=ON "${python[@]}" \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DCVR_BUILD_VTK_MODULE=ON -DCVR_DATA_DIR="$data" >/dev/null
cmake --build "$build" -j"$(nproc)" --target vtkCudaVolumeRenderingCxxTests >/dev/null

window=${CVR_VTK_WINDOW:-xvfb}
mkdir -p "$stage"/{bin,lib,data}
driver=$build/bin/vtkCudaVolumeRenderingCxxTests
multiarch=/usr/lib/$(gcc -print-multiarch)
programs=("$driver")
cp "$driver" "$stage/bin/"
if [ "$window" = xvfb ]; then
  mkdir -p "$stage"/{dri,xkb}
  programs+=(/usr/bin/Xvfb /usr/bin/xkbcomp "$stage/dri/swrast_dri.so")
  cp /usr/bin/Xvfb /usr/bin/xkbcomp "$stage/bin/"
  cp -L "$multiarch/dri/swrast_dri.so" "$stage/dri/"
  cp -L "$multiarch/libGLX_mesa.so.0" "$multiarch/libglapi.so.0" "$stage/lib/"
  cp -r /usr/share/X11/xkb/. "$stage/xkb/"
else
  # glvnd's dispatchers: the machine has NVIDIA's vendor libraries only
  cp -L "$multiarch"/{libEGL.so.1,libGLdispatch.so.0,libGL.so.1,libGLX.so.0} "$stage/lib/"
fi
echo "$window" >"$stage/window"
system='^(linux-vdso|libc\.so|libm\.so|libpthread|libdl\.so|librt\.so|ld-linux|libgcc_s|libstdc\+\+)'
for f in "${programs[@]}" "$stage"/lib/*; do
  ldd "$f" | awk '$3 ~ /^\// {print $1, $3}'
done | sort -u | while read -r name path; do
  [[ $name =~ $system ]] || cp -L "$path" "$stage/lib/$name"
done
for f in scivis/bonsai.nii.gz scivis/engine.nii.gz ct/cranium_ct.nii.gz \
  mri/avm_mra_337x319x154.nii.gz mri/stroke_t1.nii.gz vtk/hydrogen/hydrogen.vti vtk/ironProt.vtk \
  vtk/vase_1comp.vti vtk/vase_4comp.vti; do
  mkdir -p "$stage/data/$(dirname "$f")"
  cp "$data/$f" "$stage/data/$f"
done
# the tests with their arguments; paths become @DATA@, @OUT@ and @BASELINE@
# (in EGL windows the tests named -EGL would only run again)
ctest --test-dir "$build" --show-only=json-v1 | python3 -c '
import json, sys
for t in json.load(sys.stdin)["tests"]:
    cmd = t.get("command") or [""]
    if not cmd[0].endswith("vtkCudaVolumeRenderingCxxTests"):
        continue
    if sys.argv[1] != "xvfb" and t["name"].endswith("-EGL"):
        continue
    test = cmd[1]  # the test function; its baseline has its name
    baseline = ["-V", "@BASELINE@/" + test + ".png"] if "-V" in cmd else []  # (not NO_VALID)
    print(t["name"], test, "-D", "@DATA@", "-T", "@OUT@", *baseline, sep="\t")
' "$window" >"$stage/tests.tsv"
git -C "$root" describe --always --dirty --abbrev=12 >"$stage/commit"
rm -rf "$out"
mkdir -p "$out"
if [ "$window" != xvfb ]; then
  tar -C "$stage" -cf - . | xz -T0 -6 >"$out/vtk.tar.xz"
  echo "packed $(du -h "$out/vtk.tar.xz" | cut -f1) ($window windows): $(wc -l <"$stage/tests.tsv") tests"
  exit
fi
# Mesa's driver and what only it needs go to the first archive
mkdir -p "$stage/mesa/lib"
mv "$stage/dri" "$stage/mesa/dri"
for lib in $(ldd "$stage/mesa/dri/swrast_dri.so" | awk '$3 ~ /^\// {print $1}'); do
  if ! ldd "$driver" /usr/bin/Xvfb /usr/bin/xkbcomp | grep -q "^\s*$lib "; then
    [ -f "$stage/lib/$lib" ] && mv "$stage/lib/$lib" "$stage/mesa/lib/"
  fi
done
tar -C "$stage/mesa" -cf - . | xz -T0 -6 >"$out/mesa.tar.xz"
rm -rf "$stage/mesa"
tar -C "$stage" -cf - . | xz -T0 -6 >"$out/vtk.tar.xz"
echo "packed $(du -h "$out/mesa.tar.xz" | cut -f1) + $(du -h "$out/vtk.tar.xz" | cut -f1): $(wc -l <"$stage/tests.tsv") tests"
