#!/usr/bin/env bash
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# Packs ParaView for the GPU machine, which has none: Debian's pvbatch,
# pvpython and pvserver (the build CI uses) with the files they load, Open
# MPI's mpiexec, Xvfb with Mesa for its server-side GLX, the plugin built with
# the CUDA backend (sm_90), the data the tests read, and ctest's list of the
# ParaView tests. run-paraview.sh runs them there.
#
# What ParaView loads is taken from runs here, not guessed: every ParaView
# test and the main job run under Xvfb with a sitecustomize module that, at
# exit, lists the process's mapped files and Python modules. Added to those:
# the shared-library closure (ldd) of the programs, of Open MPI's and PMIx's
# components, and of Mesa; Python's standard library and numpy as .py files
# (a test may import what the traced runs did not). The C and C++ runtimes
# stay out: the GPU machine's own are newer.
#
# Out, in .device-pv/ (git-ignored): pv.tar.xz cut into pieces of
# CVR_PV_PIECE (default 48M) that fit one call's carry beside the working
# tree, and plugin.tar.xz (the plugin, the tests' list, the data; small, so a
# rebuilt plugin travels alone to a warm machine).
#
#   tools/device/pack-paraview.sh [build-dir]   (default build-device-vtk)
#   CVR_PV_TRACE=reuse  keeps the last trace (.device-pv/files.txt)
#   CVR_PV_PLUGIN_ONLY=1  remakes plugin.tar.xz alone
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-device-vtk}
data=${CVR_DATA_DIR:-$root/../shared/data}
out=$root/.device-pv
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
multiarch=/usr/lib/$(gcc -print-multiarch)
mkdir -p "$out"

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCVR_ENABLE_CUDA=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DCVR_BUILD_VTK_MODULE=ON -DCVR_BUILD_PARAVIEW_PLUGIN=ON \
  -DCVR_DATA_DIR="$data" >/dev/null
cmake --build "$build" -j"$(nproc)" --target CudaVolumeMapper >/dev/null
plugin_dir=$build/lib/paraview-plugins/CudaVolumeMapper

# ctest's ParaView tests with their environment; paths become placeholders
ctest --test-dir "$build" --show-only=json-v1 -L paraview >"$stage/ctest.json"
python3 "$root/tools/device/paraview_tests.py" export "$stage/ctest.json" \
  --root "$root" --build "$build" --data "$data" >"$stage/tests.json"

# the plugin, the tests' list and their data: a small archive of its own
mkdir -p "$stage/plugin/lib" "$stage/plugin/data"
cp -L "$plugin_dir"/*.so "$build/lib/libvtkCudaVolumeRendering.so" "$build/kernels/libcvr.so.0" \
  "$stage/plugin/lib/"
cp "$stage/tests.json" "$stage/plugin/"
cp /usr/share/mricron/templates/ch2better.nii.gz "$stage/plugin/data/"
for f in scivis/bonsai.nii.gz vtk/vase_1comp.vti vtk/vase_4comp.vti; do
  mkdir -p "$stage/plugin/data/$(dirname "$f")"
  cp "$data/$f" "$stage/plugin/data/$f"
done
git -C "$root" describe --always --dirty --abbrev=12 >"$stage/plugin/commit"
tar -C "$stage/plugin" -cf - . | xz -T0 -6 >"$out/plugin.tar.xz"

[ "${CVR_PV_PLUGIN_ONLY:-}" = 1 ] && { echo "packed: plugin.tar.xz $(du -h "$out/plugin.tar.xz" | cut -f1)"; exit; }

trace=$out/files.txt
if [ "${CVR_PV_TRACE:-}" != reuse ] || [ ! -s "$trace" ]; then
  echo "tracing what ParaView loads (the ParaView tests and the main job, here under Xvfb)"
  tracer=$stage/tracer
  mkdir -p "$tracer/site" "$tracer/files"
  cat >"$tracer/site/sitecustomize.py" <<'EOF'
import atexit, os, sys
def _cvr_list_loaded_files():
    out = os.environ.get("CVR_TRACE_DIR")
    if not out:
        return
    files = set()
    with open("/proc/self/maps") as maps:
        for line in maps:
            parts = line.split()
            if len(parts) >= 6 and parts[5].startswith("/"):
                files.add(parts[5])
    for module in list(sys.modules.values()):
        name = getattr(module, "__file__", None)
        if name:
            files.add(os.path.abspath(name))
    with open(os.path.join(out, "files.%d" % os.getpid()), "w") as fh:
        fh.write("\n".join(sorted(files)) + "\n")
atexit.register(_cvr_list_loaded_files)
EOF
  python3 "$root/tools/device/paraview_tests.py" trace "$stage/ctest.json" \
    --tracer "$tracer/site" --trace-dir "$tracer/files" || true
  CVR_TRACE_DIR=$tracer/files PYTHONPATH=$tracer/site xvfb-run -a -s "-screen 0 1280x1024x24 -noreset" \
    pvbatch --force-offscreen-rendering "$root/tools/render/render_volume.py" \
    --plugin "$plugin_dir/CudaVolumeMapper.so" /usr/share/mricron/templates/ch2better.nii.gz \
    "$stage/main.png" >/dev/null 2>&1 || true
  cat "$tracer/files"/files.* | grep -E '^/(usr|lib|etc)/' | sort -u >"$trace"
  echo "traced $(wc -l <"$trace") files from $(ls "$tracer/files" | wc -l) processes"
fi

# the file list: traced, plus closures and whole trees
list=$stage/list.txt
programs="$(readlink -f /usr/bin/pvbatch) $(readlink -f /usr/bin/pvpython) $(readlink -f /usr/bin/pvserver)
  $(readlink -f /usr/bin/mpiexec) /usr/bin/orted /usr/bin/Xvfb /usr/bin/xkbcomp $multiarch/dri/swrast_dri.so"
components=$(find $multiarch/openmpi/lib $multiarch/pmix2/lib -name '*.so*' -type f)
{
  grep -vE "/mesa-diverted/|/dri/|/libGLX_mesa|/libEGL_mesa" "$trace" || true
  echo "$programs" | tr ' ' '\n' | grep . | sed 's/^\s*//'
  find /usr/bin -maxdepth 1 \( -name 'pvbatch*' -o -name 'pvpython*' -o -name 'pvserver*' \
    -o -name 'mpiexec*' -o -name 'mpirun*' -o -name 'orterun' \)
  echo "$components"
  echo $multiarch/libGLX_mesa.so.0 $multiarch/libglapi.so.0 | tr ' ' '\n'
  for f in $programs $components $multiarch/libGLX_mesa.so.0 "$plugin_dir"/*.so \
    "$build/lib/libvtkCudaVolumeRendering.so" "$build/kernels/libcvr.so.0"; do
    ldd "$f" 2>/dev/null | awk '$3 ~ /^\// {print $3}'
  done
  find /usr/lib/python3.11 -path '*/__pycache__' -prune -o \( -name test -o -name idlelib \
    -o -name tkinter -o -name turtledemo -o -name lib2to3 -o -name ensurepip \
    -o -name 'config-3.11-*' \) -prune -o -type f -print
  find /usr/lib/python3/dist-packages/numpy -path '*/tests' -prune -o -path '*/__pycache__' -prune \
    -o -type f -print
  find /usr/lib/python3/dist-packages/paraview /usr/lib/python3/dist-packages/vtkmodules \
    -path '*/__pycache__' -prune -o -name '*.py' -print
  find /usr/share/X11/xkb /usr/share/openmpi /etc/openmpi /usr/share/pmix /etc/pmix \
    -type f 2>/dev/null || true
} | sort -u >"$list"
system='/(libc|libm|libpthread|libdl|librt|libresolv|libutil|libstdc\+\+|libgcc_s|ld-linux-x86-64)\.so'
tree=$stage/root
mkdir -p "$tree"
while read -r f; do
  [ -e "$f" ] || continue
  f=$(realpath -s "$f")
  [[ $f =~ $system ]] && continue
  [ -e "$tree$f" ] && continue
  target=$(readlink -f "$f")
  mkdir -p "$tree$(dirname "$target")"
  [ -e "$tree$target" ] || cp -p "$target" "$tree$target"
  # a link (libfoo.so.1, or Debian's alternatives through /etc) becomes a
  # relative one to the file itself, so both names resolve inside the tree
  if [ "$target" != "$f" ]; then
    mkdir -p "$tree$(dirname "$f")"
    ln -s "$(realpath -s -m --relative-to="$(dirname "$f")" "$target")" "$tree$f"
  fi
done <"$list"
# a library loaded by dlopen (Python's modules) is traced by its file name:
# its soname link, as ldconfig makes it, is what the loader looks for
find "$tree" -name 'lib*.so*' -type f -printf '%h\n' | sort -u | xargs ldconfig -n
echo "ParaView tree: $(du -sh "$tree" | cut -f1), $(find "$tree" -type f | wc -l) files"

rm -f "$out"/pv.tar.xz.part.*
tar -C "$tree" -cf - . | xz -T0 -6 | split -b "${CVR_PV_PIECE:-48M}" - "$out/pv.tar.xz.part."
echo "packed: plugin.tar.xz $(du -h "$out/plugin.tar.xz" | cut -f1); ParaView in pieces:"
ls -s --block-size=M "$out"/pv.tar.xz.part.*
echo "calls: each piece but the last with 'run-paraview.sh \$OUT stash' (carry that piece),"
echo "the last with plugin.tar.xz and the steps to run; the machine must stay warm between them"
