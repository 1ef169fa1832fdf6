#!/usr/bin/env bash
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# Runs on the GPU machine, from the repo root, over pack-peer.sh's archive
# (carry .device-peer): cvr-peer-bench with OpenGL on the GPU through EGL.
#
#   run-peer.sh OUT [peers|images|threads|volumes|first]...   (default: peers images threads)
#     peers    every mapper on real data at 1024^2: bonsai, the cranium CT,
#              bonsai shaded, bonsai around an opaque sphere (depth read)
#     images   time per frame against image size, 256^2 .. 2048^2 (bonsai)
#     threads  the CPU mappers against thread count (bonsai, 512^2)
#     volumes  time per frame against volume size: cubes of 64^3 .. 2048^3
#              resampled from bonsai (CPU mappers up to 512^3), 1024^2
#     first    time to first image and the host memory it adds: ours (standard,
#              auto) and VTK's OpenGL mapper (CVR_PEER_FIRST_OPENGL=0: not) on
#              bonsai resampled to 1024^3 and 2048^3 (CVR_PEER_FIRST_SIZES) and
#              cast to uint8 (CVR_PEER_FIRST_TYPES: also int16, float32)
# Environment: CVR_PEER_FRAMES (90), CVR_PEER_VOLUME_SIZES (64 .. 2048),
# CVR_PEER_GPU_MAPPERS (auto,standard,standard-host,opengl: the first one waits
# for VTK's range of a new array), CVR_PEER_TIMEOUT (300 s per program run).
# Results: OUT/peer-<step>.jsonl, the programs' output in OUT/peer.log, and
# OUT/peer-summary.txt; tools/bench/peer_report.py makes tables and plots.
set -uo pipefail
out=${1:?usage: run-peer.sh OUT [peers|images|threads|volumes]...}
shift
steps=${*:-peers images threads}
root=$(cd "$(dirname "$0")/../.." && pwd)
pack=/tmp/cvr-peer
mkdir -p "$pack" "$out"
[ -x "$pack/bin/cvr-peer-bench" ] || xz -dc "$root/.device-peer/peer.tar.xz" | tar -C "$pack" -xf -
export LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
summary=$out/peer-summary.txt
note() { echo "$*" | tee -a "$summary"; }
note "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)  commit $(cat "$pack/commit")  $(date -u +%Y-%m-%dT%H:%M:%SZ)"
frames=${CVR_PEER_FRAMES:-90}
data=$pack/data
bonsai=(--volume "$data/scivis/bonsai.nii.gz" --range 30 180)
cranium=(--volume "$data/ct/cranium_ct.nii.gz" --range 100 1500)
gpu=${CVR_PEER_GPU_MAPPERS:-auto,standard,standard-host,opengl}
cpu=cpu,fixed-point

bench() { # bench STEP ARGS...: one run, its output logged, its last lines noted
  local step=$1
  shift
  local log
  log=$(mktemp)
  timeout "${CVR_PEER_TIMEOUT:-300}" "$pack/bin/cvr-peer-bench" --frames "$frames" --out "$out/peer-$step.jsonl" "$@" \
    >"$log" 2>&1
  local rc=$?
  { echo "=== $step: $* (rc $rc)"; cat "$log"; } >>"$out/peer.log"
  note "$step $(echo "$*" | sed -e "s|$data/||g" -e "s|$out/|OUT/|g") (rc $rc):"
  grep -E "first .* median|PEER TOLERANCE|NOT THE SAME|as depth|cvr-peer-bench:|resampled" "$log" | sed 's/^/  /' | tee -a "$summary"
  rm -f "$log"
}

for step in $steps; do
  case $step in
    peers)
      mkdir -p "$out/images"
      bench peers "${bonsai[@]}" --size 1024 --budget 20 --images "$out/images"
      bench peers "${cranium[@]}" --size 1024 --budget 20 --images "$out/images"
      bench peers "${bonsai[@]}" --size 1024 --budget 20 --shade
      bench peers "${bonsai[@]}" --size 1024 --budget 20 --opaque --images "$out/images"
      ;;
    images)
      for s in 256 512 1024 2048; do
        bench images "${bonsai[@]}" --size "$s" --mappers "$gpu,$cpu" --budget 8
      done
      ;;
    threads)
      for t in 1 2 4 8 16; do
        bench threads "${bonsai[@]}" --size 512 --mappers "$cpu" --threads "$t" --budget 8
      done
      ;;
    volumes)
      for n in ${CVR_PEER_VOLUME_SIZES:-64 128 256 512 1024 2048}; do
        mappers=$gpu
        [ "$n" -le 512 ] && mappers=$gpu,$cpu
        bench volumes "${bonsai[@]}" --resample "$n" --size 1024 --mappers "$mappers" --budget 8
      done
      ;;
    first)
      # time to first image through the mapper (a new mapper each, the
      # volume resampled once per run): ours, then VTK's OpenGL mapper alone
      # (minutes at 2048^3: its own run, so that ours are measured whatever)
      for type in ${CVR_PEER_FIRST_TYPES:-uint8}; do
        for n in ${CVR_PEER_FIRST_SIZES:-1024 2048}; do
          bench first "${bonsai[@]}" --resample "$n" --cast "$type" --size 1024 --mappers standard,auto \
            --frames 3 --budget 5
          [[ ${CVR_PEER_FIRST_OPENGL:-1} == 1 ]] && CVR_PEER_TIMEOUT=${CVR_PEER_OPENGL_TIMEOUT:-240} \
            bench first "${bonsai[@]}" --resample "$n" --cast "$type" --size 1024 --mappers opengl \
              --frames 2 --budget 5
        done
      done
      ;;
    *) note "unknown step $step" ;;
  esac
done
