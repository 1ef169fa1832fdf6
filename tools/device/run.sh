#!/usr/bin/env bash
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# Runs on the GPU machine, from the repo root, over what pack.sh packed: the
# steps asked for, each a file of tools/device/steps/ that says what it runs
# (tests: every ctest test; sanitize: compute-sanitizer's four tools on the
# CUDA tests; bench: the micro-benchmark; the others one experiment each).
# Logs and results go to the folder given (the device tool's $OUT), a line
# per result to OUT/summary.txt.
#
#   tools/device/run.sh OUT [STEP...]     (default: tests bench sanitize)
set -uo pipefail
out=${1:?usage: run.sh OUT [tests|sanitize|bench]...}
shift
steps=${*:-tests bench sanitize}
root=$(cd "$(dirname "$0")/../.." && pwd)
pack=${CVR_DEVICE_PACK:-$root/.device} # (auto-runs.sh: .device/b for the other of a pair)
for packed in "$pack"/lib/*.xz; do # pack.sh compresses the largest libraries
  [[ -e $packed && ! -e ${packed%.xz} ]] && xz -dk "$packed"
done
# (pair.sh: this pack's library and another's, .device/b, in one file)
[[ -e $pack/pair.tar.xz && ! -e $pack/lib/libcvr.so.0 ]] && tar xJf "$pack/pair.tar.xz" -C "$pack"
# (pack.sh: volumes as .nii.xz; gzip -1 makes them the .nii.gz files read)
for packed in "$pack"/data/*/*.nii.xz; do
  [[ -e $packed && ! -e ${packed%.xz}.gz ]] && xz -dc "$packed" | gzip -1 >"${packed%.xz}.gz"
done
export LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CVR_DATA_DIR=$pack/data
export PATH=$PATH:/usr/local/cuda/bin
mkdir -p "$out"
summary=$out/summary.txt
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }

{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  echo "commit $(cat "$pack/commit")"
  [[ -s $pack/build-flags ]] && cat "$pack/build-flags"
  date -u +%Y-%m-%dT%H:%M:%SZ
} >"$out/device.txt" 2>&1
note "device: $(sed -n 2p "$out/device.txt")  commit $(cat "$pack/commit")"

# every strategy configuration the strategies, orbit and ncu steps compare
configs=std:16x16,shape
for v in SBShared DBShared SBShuffle DBShuffle; do configs+=,wm:$v:32:1x1:1x8; done
configs+=,wm:DBShuffle:8:2x2:1x8,wm:DBShuffle:4:4x2:2x4,wm:DBShuffle:4:2x4:4x2
configs+=,wm:DBShuffle:2:8x2:1x8,wm:DBShuffle:2:2x8:4x2,wm:DBShuffle:16:2x1:4x2

# each step asked for, in this order (steps/NAME.sh)
for asked in $steps; do
  [[ -e $root/tools/device/steps/$asked.sh ]] || note "run.sh: no step $asked (tools/device/steps/)"
done
for step in tests bench sanitize lean sass strategies orbit ncu views misaki rotation layouts slab empty scatter auto launch upload autoviews wang2 ncuwarp ncusource variants bricks egl; do
  [[ " $steps " == *" $step "* ]] && source "$root/tools/device/steps/$step.sh"
done
