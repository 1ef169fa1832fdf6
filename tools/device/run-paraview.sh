#!/usr/bin/env bash
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# Runs ParaView with the plugin's CUDA backend on the GPU machine, from the
# repo root, over pack-paraview.sh's archives (doc/contributing.md, "ParaView
# on the GPU machine"):
#   run-paraview.sh OUT stash        a call per piece but the last, carrying
#                                    that piece: kept in /tmp/cvr-pv-parts
#   run-paraview.sh OUT STEP...      the last call, carrying the last piece and
#                                    plugin.tar.xz: joins and unpacks them (once
#                                    a machine), starts Xvfb, runs the steps
# Steps:
#   gl        the OpenGL renderer a pvbatch render window gets
#   tests     ctest's ParaView tests (paraview_tests.py run; ONLY=a,b picks)
#   main      the main job's render (tools/render/render_volume.py) with the
#             CUDA backend: MAIN_RUNS, SIZE:SMP each (default "0:Sequential
#             1024:Sequential 1024:STDThread"), ch2better (0) or resampled to
#             SIZE³, with VTK's SMP backend SMP (ParaView's range scans)
#   mpi       the MPI test (MPI_TEST=0: not), and tools/render/render_parallel.py
#             on 1, 2 (and 4) ranks, one GPU a rank (RANKS=1,2,4 SIZE=2048
#             change them, R@MiB gives a run's ranks a device memory budget;
#             WARMUP, FRAMES, STRATEGY, RESIZE; each run ends after RUN_TIMEOUT seconds,
#             240 by default)
#   server    mpiexec -np 2 pvserver with a pvpython client on this machine
# OpenGL: Xvfb's windows through NVIDIA's GLX (__GLX_VENDOR_LIBRARY_NAME=
# nvidia), so that the window's context is on the GPU and the image can stay
# there (interop); GLX=mesa instead draws with Mesa on the CPU. The machine
# must stay warm between the calls (about 30 s).
set -uo pipefail
out=${1:?usage: run-paraview.sh OUT stash|STEP...}
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
pack=/tmp/cvr-pv parts=/tmp/cvr-pv-parts
pv=$pack/root plugin=$pack/plugin
mkdir -p "$out" "$parts" "$pack"
for piece in "$root"/.device-pv/pv.tar.xz.part.*; do
  [ -e "$piece" ] && cp "$piece" "$parts/"
done
if [ "${1:-}" = stash ]; then
  echo "pieces kept: $(ls "$parts" | tr '\n' ' ')"
  exit
fi
summary=$out/paraview-summary.txt
note() { echo "$*" | tee -a "$summary"; }
if [ ! -x "$pv/usr/bin/pvbatch" ]; then
  mkdir -p "$pv"
  cat "$parts"/pv.tar.xz.part.* | xz -dc | tar -C "$pv" -xf - ||
    { note "could not unpack ParaView from: $(ls "$parts" | tr '\n' ' ')"; exit 1; }
fi
[ -e "$root/.device-pv/plugin.tar.xz" ] || { note "plugin.tar.xz was not carried"; exit 1; }
rm -rf "$plugin" && mkdir -p "$plugin" && xz -dc "$root/.device-pv/plugin.tar.xz" | tar -C "$plugin" -xf -
note "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sort | uniq -c | tr -s ' ')  commit $(cat "$plugin/commit")"

# Debian's layout, relocated: libraries, Python, Open MPI and PMIx
arch=x86_64-linux-gnu
nvlib=$(dirname "$(ls /usr/local/nvidia/lib64/libGLX_nvidia.so.0 /usr/lib/$arch/libGLX_nvidia.so.0 \
  /usr/lib64/libGLX_nvidia.so.0 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$plugin/lib:$pv/usr/lib/$arch:$pv/lib/$arch:$pv/usr/lib:$pv/lib:$pv/usr/lib/$arch/openmpi/lib:$pv/usr/lib/$arch/lapack:$pv/usr/lib/$arch/blas:$nvlib:${LD_LIBRARY_PATH:-}
# ParaView's programs through wrappers that set what they need and the
# machine's own python3 must not see (PYTHONHOME; a test's PYTHONPATH goes
# first), and that Open MPI's
# processes keep (the MPI tests hand mpiexec a cleaned environment); the
# agent for remote launches must exist, though every rank runs here
wrappers=$pack/bin
mkdir -p "$wrappers"
for program in pvbatch pvpython pvserver mpiexec; do
  cat >"$wrappers/$program" <<EOF
#!/bin/sh
exec env PYTHONHOME=$pv/usr PYTHONPATH=\${PYTHONPATH:+\$PYTHONPATH:}$pv/usr/lib/python3/dist-packages \\
  OPAL_PREFIX=$pv/usr PMIX_INSTALL_PREFIX=$pv/usr/lib/$arch/pmix2 \\
  OMPI_MCA_plm_rsh_agent=false PMIX_MCA_pcompress_base_silence_warning=1 \\
  OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \\
  $pv/usr/bin/$program "\$@"
EOF
  chmod +x "$wrappers/$program"
done
export PATH=$wrappers:$PATH
export CVR_TUNING_CACHE_DIR=$out/tuning-cache
[ -x /usr/bin/xkbcomp ] || cp "$pv/usr/bin/xkbcomp" /usr/bin/xkbcomp
[ -d /usr/share/X11/xkb ] || { mkdir -p /usr/share/X11 && cp -r "$pv/usr/share/X11/xkb" /usr/share/X11/xkb; }
LIBGL_DRIVERS_PATH=$pv/usr/lib/$arch/dri "$pv/usr/bin/Xvfb" :97 -screen 0 1280x1024x24 \
  -nolisten tcp -noreset >"$out/xvfb.log" 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null' EXIT
sleep 3
export DISPLAY=:97
if [ "${GLX:-nvidia}" = nvidia ]; then
  export __GLX_VENDOR_LIBRARY_NAME=nvidia
else
  export __GLX_VENDOR_LIBRARY_NAME=mesa LIBGL_DRIVERS_PATH=$pv/usr/lib/$arch/dri
fi
note "GLX vendor: $__GLX_VENDOR_LIBRARY_NAME (NVIDIA's libraries in ${nvlib:-nowhere found})"
pvbatch=(pvbatch --force-offscreen-rendering)
tests=(python3 "$root/tools/device/paraview_tests.py" run "$plugin/tests.json" --root "$root"
  --plugin "$plugin/lib/CudaVolumeMapper.so" --data "$plugin/data" --bin "$wrappers"
  --out "$out/tests")
so=$plugin/lib/CudaVolumeMapper.so

for step in "$@"; do
  case $step in
  gl)
    cat >"$pack/gl.py" <<'EOF'
from paraview.simple import *
view = CreateRenderView()
Render(view)
print(view.GetRenderWindow().ReportCapabilities())
EOF
    "${pvbatch[@]}" "$pack/gl.py" >"$out/gl.log" 2>&1
    note "pvbatch's OpenGL: $(grep -E 'OpenGL (vendor|renderer|version) string' "$out/gl.log" | cut -d: -f2- | tr -s ' \n' ' ')"
    ;;
  tests)
    "${tests[@]}" ${ONLY:+--only "$ONLY"} | tee -a "$summary"
    ;;
  main)
    # SIZE:SMP: the volume (0: ch2better as it is, else resampled to SIZE³)
    # and VTK's SMP backend, which runs ParaView's range scans in Show
    for run in ${MAIN_RUNS:-0:Sequential 1024:Sequential 1024:STDThread}; do
      size=${run%%:*} smp=${run#*:}
      log=$out/main-$size-$smp.log
      VTK_SMP_BACKEND_IN_USE=$smp /usr/bin/time -v "${pvbatch[@]}" "$root/tools/render/render_volume.py" \
        --plugin "$so" --backend CUDA $([ $size = 0 ] || echo --resample $size) \
        "$plugin/data/ch2better.nii.gz" "$out/main-$size.png" >"$log" 2>&1
      note "main job, $([ $size = 0 ] && echo ch2better || echo "ch2better at ${size}³"), SMP $smp: rc $? $(
        grep -E "^(showing it|first render|first frame)" "$log" | cut -c1-500 | tr '\n' ' ')"
      note "  peak memory $(awk '/Maximum resident/ {printf "%.2f GiB", $NF / 1048576}' "$log"), wall $(
        awk -F': ' '/Elapsed \(wall/ {print $2}' "$log")"
    done
    ;;
  mpi)
    [ "${MPI_TEST:-1}" = 0 ] || "${tests[@]}" --only MPI | tee -a "$summary"
    gpus=$(nvidia-smi -L | wc -l)
    # RANKS: runs of R ranks, R@MiB with each rank's device memory budget
    # (its piece then renders from bricks when larger); images are compared
    # with the first 1-rank run's
    reference=
    for run in $(echo "${RANKS:-1,2,4}" | tr , ' '); do
      ranks=${run%@*} budget=0
      [ "$run" = "$ranks" ] || budget=${run#*@}
      [ "$ranks" -le "$gpus" ] || continue
      name=parallel-$ranks$([ "$budget" = 0 ] || echo "-b$budget")
      # (Open MPI binds a rank to one core up to 2 ranks: the upload's and
      # the resampling's threads would share it)
      /usr/bin/time -v timeout "${RUN_TIMEOUT:-240}" mpiexec --bind-to "${MPI_BIND:-none}" -np "$ranks" \
        pvbatch --force-offscreen-rendering \
        "$root/tools/render/render_parallel.py" --plugin "$so" --input "$plugin/data/ch2better.nii.gz" \
        --size "${SIZE:-2048}" --image "$out/$name.png" --budget-mib "$budget" \
        --warmup "${WARMUP:-16}" --frames "${FRAMES:-8}" --strategy "${STRATEGY:-Auto}" --resize "${RESIZE:-Linear}" \
        ${reference:+--compare-to "$reference"} >"$out/$name.log" 2>&1
      note "mpiexec -np $ranks pvbatch, ${SIZE:-2048}³, budget $budget MiB: rc $?, $(
        awk '/Maximum resident/ {printf "the largest rank peaked at %.1f GiB of host memory", $NF / 1048576}' "$out/$name.log")"
      grep -E "^(rank|frames|first|compare)" "$out/$name.log" | cut -c1-700 | tee -a "$summary"
      [ -n "$reference" ] || [ "$ranks" != 1 ] || reference=$out/$name.png
    done
    ;;
  server)
    "${tests[@]}" --only Server | tee -a "$summary"
    ;;
  *) note "unknown step $step" ;;
  esac
done
