#!/usr/bin/env bash
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# Configures and builds into build/ (Release), a line per stage; the compiler's
# output goes to build/build.log (its end is shown when a stage fails). Extra
# arguments go to cmake's configure step, e.g. -DCVR_ENABLE_CUDA=OFF or
# -DCVR_CUDA_RELEASE_ARCHITECTURES=ON; CVR_CUDA_ARCHITECTURES, when set, names
# the CUDA architectures (default: the GPUs of this machine, else sm_90).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
log=$root/build/build.log
mkdir -p "$root/build"
start=$(date +%s)
stage() { # stage NAME COMMAND...: runs it into the log, or shows why it failed
  local name=$1
  shift
  echo "build: $name"
  "$@" >>"$log" 2>&1 || { echo "build: $name failed; the end of $log:"; tail -n 40 "$log"; exit 1; }
}
: >"$log"
# Debian's ParaView finds its Python modules (mpi4py among them) with the
# system's interpreter; a python3 earlier in PATH (pyenv, a virtual
# environment) lacks them and its configuration fails
python=()
[ -x /usr/bin/python3 ] && python=(-DPython3_EXECUTABLE=/usr/bin/python3)
stage "configuring (log: build/build.log)" cmake -S "$root" -B "$root/build" \
  -DCMAKE_BUILD_TYPE=Release "${python[@]}" \
  ${CVR_CUDA_ARCHITECTURES:+-DCMAKE_CUDA_ARCHITECTURES=$CVR_CUDA_ARCHITECTURES} "$@"
grep -E "^-- cvr: " "$log" | sed 's/^-- /build: /'
stage "compiling with $(nproc) jobs" cmake --build "$root/build" -j"$(nproc)"
echo "build: done in $(( $(date +%s) - start )) s ($(grep -c 'warning' "$log" || true) compiler warnings in the log)"
