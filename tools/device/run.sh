#!/usr/bin/env bash
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# Runs on the GPU machine, from the repo root, over what pack.sh packed:
# every ctest test, compute-sanitizer's four tools on the CUDA tests, and the
# benchmark. Logs and results go to the folder given (the device tool's $OUT).
#
#   tools/device/run.sh OUT [tests|sanitize|bench|bricks|strategies|orbit|ncu|views|variants|misaki|rotation|layouts|slab|auto|autoviews|launch|scatter|empty|wang2|ncuwarp|upload]...
#     (default: tests bench sanitize, CVR_TESTS a regular expression of the
#      test names to run, CVR_SANITIZE_TESTS="prog args;..." narrowing
#      the sanitizers to some programs, CVR_SANITIZE_TOOLS to some tools and
#      CVR_SANITIZE_TIMEOUT limiting each run, 300 s by default;
#      strategies runs the micro-benchmark over every strategy, CVR_STRATEGY_ARGS overriding its sizes and steps;
#      orbit the same strategies over 360 degree orbits of real data; ncu
#      their cache hit rates facing XY and ZY; views a few views of one volume
#      at every degree per image size, and ncu's balance of the SMs there;
#      variants compares pack-variants.sh builds on the micro-benchmark, with
#      CVR_VARIANT_ARGS as cvr-bench's arguments; misaki is Misaki et al.'s
#      experiment, frames about y over 0..359 degrees with and without
#      in-place rotation; rotation the rotation kernel's bandwidth per tile;
#      layouts texture, array order and Z-order on the micro-benchmark and
#      real-data orbits; slab Mensmann et al.'s Table 3 experiment, basic
#      against slab-based ray casting with and without shading, and the
#      gradient pictures of test_slab; CVR_SLAB_SPECS, CVR_SLAB_CONFIGS and
#      CVR_SLAB_ARGS narrow it, CVR_SLAB_NO_IMAGES=1 leaves the pictures out;
#      auto the auto-tuner against the per-view oracle, cvr-auto-bench
#      (CVR_AUTO_CACHED=1: and each orbit's first orbit from the tables kept);
#      autoviews AUTO converged per view on the micro-benchmark, the guard's
#      reference library against the working tree's where guard.sh packed them;
#      launch what the host's launch adds to an event-timed kernel of 100,
#      200 and 500 us, cvr-launch-timing;
#      scatter volumetric scattering's cost on shaded real-data orbits
#      (scatter_table.py; CVR_SCATTER_LIBS compares libraries);
#      empty empty-space skipping on and off: its cost on the micro-benchmark
#      (random data, nothing to skip) and its gain on real-data orbits, per
#      strategy and cell size;
#      lean the lean reference kernels of ../shared/bench (pack.sh copies
#      them) at 1024^3 and 2048^3; sass the library's machine code;
#      bricks volumes larger than the memory budget (bricks_table.py);
#      wang2 Wang et al.'s Table 2 (wang_table2.py); ncuwarp ncu's sections for
#      warp marching and the standard kernel beside the lean ones at 2048^3;
#      ncusource ncu's executed instructions per machine instruction of the
#      warp-marching kernels at 2048^3, y 45 (CVR_NCU_CONFIGS: cvr-bench
#      configurations), as CSV of the source page beside the SASS;
#      upload the time to first image, cvr-upload-bench (CVR_UPLOAD_ARGS its
#      arguments) and upload_table.py's table;
#      egl whether OpenGL gets a context on the GPU without a display: the
#      NVIDIA libraries present, and egl-probe through the machine's EGL and
#      through glvnd's carried one)
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

if [[ " $steps " == *" tests "* ]]; then
  pass=0 fail=0 skip=0
  while IFS=$'\t' read -r name program args; do
    [[ -n ${CVR_TESTS:-} && ! $name =~ $CVR_TESTS ]] && continue # (a regular expression)
    start=$EPOCHREALTIME
    log=$(mktemp)
    (cd "$pack/bin" && ./"$program" $args) >"$log" 2>&1
    rc=$?
    { echo "=== $name: $program $args (rc $rc)"; cat "$log"; } >>"$out/tests.log"
    secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN {print b - a}')
    case $rc in
      0) pass=$((pass + 1)); result=passed ;;
      125) skip=$((skip + 1)); result=SKIPPED ;;
      *) fail=$((fail + 1)); result="FAILED ($rc)" ;;
    esac
    note "$(printf '%-28s %-12s %6.1fs  %s' "$name" "$result" "$secs" "$(tail -n 1 "$log")")"
    rm -f "$log"
  done <"$pack/tests.tsv"
  note "tests: $pass passed, $fail failed, $skip skipped"
fi

if [[ " $steps " == *" bench "* ]]; then
  "$pack/bin/cvr-bench" --ceiling --sizes 512,1024 --rays 512 --step 15 \
    --out "$out/bench-wang-micro.jsonl" 2>"$out/bench.err"
  note "bench rc=$?"
  python3 "$root/tools/bench/plot_wang.py" "$out/bench-wang-micro.jsonl" "$out/bench-wang-micro.png" \
    2>>"$out/bench.err" || note "plot failed (see bench.err)"
  python3 - "$out/bench-wang-micro.jsonl" <<'PY' | tee -a "$summary"
import json, sys, collections
rows = [json.loads(l) for l in open(sys.argv[1])]
for r in rows:
    if r.get("bench") == "texture_ceiling":
        print(f"texture ceiling: {r['gsamples_per_s']:.0f} G samples/s ({r['info']})")
best = collections.defaultdict(lambda: (0, None))
worst = collections.defaultdict(lambda: (1e30, None))
for r in rows:
    if r.get("bench") != "wang_micro":
        continue
    k = (r["N"], r["block"])
    g = r["gsamples_per_s"]
    if g > best[k][0]: best[k] = (g, f"{r['axis']}{r['angle']}")
    if g < worst[k][0]: worst[k] = (g, f"{r['axis']}{r['angle']}")
for k in sorted(best):
    print(f"N={k[0]:5d} block {k[1]:>6}: best {best[k][0]:6.1f} G/s at {best[k][1]:>5}, worst {worst[k][0]:6.1f} at {worst[k][1]}")
PY
fi

if [[ " $steps " == *" sanitize "* ]]; then
  clean=0 dirty=0
  for tool in ${CVR_SANITIZE_TOOLS:-memcheck racecheck initcheck synccheck}; do
    tests=("test_analytic cuda" "test_api cuda" "test_cuda_vs_cpu --quick" "test_strategies --quick"
      "test_storage --quick --no-memory" "test_slab --quick" "test_blend_modes cuda --quick"
      "test_clipping cuda --quick" "test_surfaces cuda --quick" "test_gradient_opacity cuda --quick"
      "test_empty_space cuda --quick" "test_transfer_2d cuda --quick" "test_masks cuda --quick"
      "test_components cuda --quick" "test_transfer_2d_axes cuda --quick")
    # (not test_device_loss: its kernel faults on purpose)
    # CVR_SANITIZE_TESTS="a;b": only these (the programs changed)
    [[ -n ${CVR_SANITIZE_TESTS:-} ]] && IFS=';' read -r -a tests <<<"$CVR_SANITIZE_TESTS"
    for t in "${tests[@]}"; do
      log=$out/sanitizer.log
      echo "=== $tool: $t" >>"$log"
      extra=""
      [[ $tool == memcheck ]] && extra="--leak-check full"
      # a run cut short (rc 124) leaves the rest of the call to the others
      (cd "$pack/bin" && timeout "${CVR_SANITIZE_TIMEOUT:-300}" \
        compute-sanitizer --tool "$tool" $extra --error-exitcode 99 ./$t) >>"$log" 2>&1
      rc=$?
      summary_line=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -n 1)
      if [[ $rc == 0 ]]; then clean=$((clean + 1)); else dirty=$((dirty + 1)); fi
      note "$(printf 'sanitizer %-10s %-26s rc=%-3s %s' "$tool" "$t" "$rc" "$summary_line")"
    done
  done
  note "sanitizers: $clean clean, $dirty with findings or failures"
fi

# lean: the lean reference kernels (../shared/bench, packed by pack.sh) on this
# GPU, 1024^3 every 15 degrees and 2048^3 every 45, to hold the library's
# kernels against in the same call
if [[ " $steps " == *" lean "* && -e $pack/lean_reference.cu ]]; then
  (cd "$out" && nvcc -O3 -arch=sm_90 "$pack/lean_reference.cu" -o "$pack/bin/lean_reference" &&
    "$pack/bin/lean_reference" 1024 512 >lean-1024.txt && "$pack/bin/lean_reference" 2048 512 >lean-2048.txt)
  note "lean reference rc=$? ($(head -n 2 "$out/lean-1024.txt" | tail -n 1))"
fi

# sass: the machine code of the standard and warp-marching kernels
if [[ " $steps " == *" sass "* ]]; then
  lib=$pack/lib/libcvr.so.0
  [[ -e $lib ]] || lib=$pack/lib/libcvr-internal.so.0 # (the same objects)
  cuobjdump -sass "$lib" 2>&1 | xz -T0 >"$out/sass.txt.xz"
  note "sass: $(xz -dc "$out/sass.txt.xz" | grep -c 'Function :') functions"
fi

# every strategy configuration the strategies, orbit and ncu steps compare
configs=std:16x16,shape
for v in SBShared DBShared SBShuffle DBShuffle; do configs+=,wm:$v:32:1x1:1x8; done
configs+=,wm:DBShuffle:8:2x2:1x8,wm:DBShuffle:4:4x2:2x4,wm:DBShuffle:4:2x4:4x2
configs+=,wm:DBShuffle:2:8x2:1x8,wm:DBShuffle:2:2x8:4x2,wm:DBShuffle:16:2x1:4x2

if [[ " $steps " == *" strategies "* ]]; then
  "$pack/bin/cvr-bench" --ceiling ${CVR_STRATEGY_ARGS:---sizes 512,1024,2048 --rays 512,1024 --step 15 --repeats 5} \
    --configs "$configs" --out "$out/bench-strategies.jsonl" 2>"$out/bench-strategies.err"
  note "strategies bench rc=$?"
  python3 "$root/tools/bench/plot_wang.py" "$out/bench-strategies.jsonl" "$out/bench-strategies.png" \
    2>>"$out/bench-strategies.err" || note "plot failed (see bench-strategies.err)"
  python3 "$root/tools/bench/summarize.py" "$out/bench-strategies.jsonl" | tee -a "$summary"
fi

if [[ " $steps " == *" orbit "* ]]; then
  # real data, perspective, ERT on: 360 degrees in 15 degree steps
  for spec in scivis/bonsai.nii.gz:30:180 ct/cranium_ct.nii.gz:100:1500; do
    IFS=: read -r file lo hi <<<"$spec"
    name=$(basename "$file" .nii.gz)
    "$pack/bin/cvr-bench" --volume "$pack/data/$file" --lo "$lo" --hi "$hi" --rays 1024 --step 15 \
      --repeats 5 --configs "$configs" --out "$out/orbit-$name.jsonl" 2>>"$out/orbit.err"
    note "orbit $name rc=$?"
    python3 "$root/tools/bench/summarize.py" "$out/orbit-$name.jsonl" | tee -a "$summary"
    python3 "$root/tools/bench/plot_wang.py" "$out/orbit-$name.jsonl" "$out/orbit-$name.png" \
      2>>"$out/orbit.err" || note "plot failed (see orbit.err)"
  done
fi

if [[ " $steps " == *" ncu "* ]]; then
  # texture (L1) and L2 hit rates facing XY (y0) and ZY (y90), 1024^3, 512^2 rays
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  "$ncu" --csv --metrics l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct \
    -k regex:cvr_standard_kernel\|cvr_warp_marching_kernel \
    "$pack/bin/cvr-bench" --sizes 1024 --rays 512 --axes y --step 90 --warmups 0 --repeats 1 \
    --configs "$configs" --out "$out/ncu-views.jsonl" 2>"$out/ncu.err" | grep -v '^==PROF==' >"$out/ncu.csv"
  note "ncu rc=${PIPESTATUS[0]}"
  python3 "$root/tools/bench/ncu_join.py" "$out/ncu-views.jsonl" "$out/ncu.csv" | tee -a "$summary"
fi

if [[ " $steps " == *" views "* ]]; then
  # a few views of one volume at every degree, per image size, and ncu's
  # balance of the SMs at some of them: whether a configuration's cost at a
  # view is its memory traffic or how its blocks share out the SMs.
  # CVR_VIEWS_SPEC file:lo:hi[:AxBxC], CVR_VIEWS_AZIMUTHS A:B, CVR_VIEWS_CONFIGS,
  # CVR_VIEWS_RAYS, CVR_VIEWS_NCU A:B:STEP (the views ncu profiles at the first size)
  IFS=: read -r file lo hi size <<<"${CVR_VIEWS_SPEC:-ct/cranium_ct.nii.gz:100:1500:512x512x294}"
  vconfigs=${CVR_VIEWS_CONFIGS:-std:4x64,std:2x128,std:16x16}
  vrays=${CVR_VIEWS_RAYS:-512,1024,2048}
  resample=()
  [[ -n $size ]] && resample=(--resample "$size")
  "$pack/bin/cvr-bench" --volume "$pack/data/$file" --lo "$lo" --hi "$hi" "${resample[@]}" \
    --azimuths "${CVR_VIEWS_AZIMUTHS:-80:120}" --step 1 --rays "$vrays" --repeats 15 \
    --configs "$vconfigs" --out "$out/views.jsonl" 2>"$out/views.err"
  note "views rc=$?"
  IFS=: read -r from to every <<<"${CVR_VIEWS_NCU:-95:105:5}"
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  metrics=sm__cycles_active.max,sm__cycles_active.avg,sm__cycles_active.min,gpc__cycles_elapsed.max
  metrics+=,launch__waves_per_multiprocessor,launch__grid_size,launch__occupancy_limit_registers
  metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sector_hit_rate.pct
  metrics+=,l1tex__t_sector_hit_rate.pct,dram__bytes_read.sum,gpu__time_duration.sum
  "$ncu" --csv --metrics "$metrics" -k regex:cvr_standard_kernel \
    "$pack/bin/cvr-bench" --volume "$pack/data/$file" --lo "$lo" --hi "$hi" "${resample[@]}" \
    --azimuths "$from:$to" --step "$every" --rays "${vrays%%,*}" --warmups 0 --repeats 1 \
    --configs "$vconfigs" --out "$out/views-ncu.jsonl" 2>"$out/views-ncu.err" |
    grep -v '^==PROF==' >"$out/views-ncu.csv"
  note "views ncu rc=${PIPESTATUS[0]}"
  python3 "$root/tools/bench/views_report.py" "$out/views.jsonl" "$out/views-ncu.csv" \
    "$out/views-ncu.jsonl" | tee -a "$summary"
fi

if [[ " $steps " == *" misaki "* ]]; then
  # CUDA sample (16x16), block shape (Sugimoto), block shape + in-place
  # rotation (Misaki), and with 5 degrees of hysteresis; 1024^2 rays
  mconfigs=std:16x16,shape,shape+rot,shape+rot:5
  "$pack/bin/cvr-bench" --sizes 512,1024 --shape 1024x768x448 --rays 1024 --axes y --range 360 \
    ${CVR_MISAKI_ARGS:---step 1 --repeats 3 --warmups 1} --configs "$mconfigs" \
    --out "$out/misaki.jsonl" 2>"$out/misaki.err"
  note "misaki bench rc=$?"
fi

if [[ " $steps " == *" rotation "* ]]; then
  "$pack/bin/cvr-rotation-bench" --sizes 512,1024,2048 --shape 1024x768x448 --repeats 7 \
    --out "$out/rotation-bandwidth.jsonl" 2>"$out/rotation.err"
  note "rotation bandwidth rc=$?"
fi

if [[ " $steps " == *" layouts "* ]]; then
  lconfigs=std:16x16,std:16x16@array,std:16x16@zorder,shape,shape@array,shape@zorder
  lconfigs+=,wm:DBShuffle:8:2x2:1x8,wm:DBShuffle:8:2x2:1x8@array,wm:DBShuffle:8:2x2:1x8@zorder
  "$pack/bin/cvr-bench" --sizes 512,1024 --rays 512 --step 15 --repeats 3 --warmups 1 \
    --configs "$lconfigs" --out "$out/layouts-micro.jsonl" 2>"$out/layouts.err"
  note "layouts micro rc=$?"
  for spec in scivis/bonsai.nii.gz:30:180 ct/cranium_ct.nii.gz:100:1500; do
    IFS=: read -r file lo hi <<<"$spec"
    name=$(basename "$file" .nii.gz)
    "$pack/bin/cvr-bench" --volume "$pack/data/$file" --lo "$lo" --hi "$hi" --rays 1024 --step 10 \
      --repeats 3 --warmups 1 --configs "$lconfigs,shape+rot,shape+rot@array" \
      --out "$out/layouts-orbit-$name.jsonl" 2>>"$out/layouts.err"
    note "layouts orbit $name rc=$?"
  done
fi

if [[ " $steps " == *" slab "* ]]; then
  # Table 3 of Mensmann et al. on Hopper: the basic kernel (block sizes) and
  # the slab kernel (block sizes x slab depths, border rays as a ring of
  # threads or gathered), unshaded and shaded, 360
  # degree perspective orbits, viewports 512, 768 and 1024; the 8-bit engine
  # (the paper's own) and the 16-bit cranium CT, as it is and resampled to
  # vmhead's 512 x 512 x 294
  sconfigs=""
  for shade in "" +shade; do
    for b in 8x8 16x8 16x16 32x4 32x8; do sconfigs+=,std:$b$shade; done
    for b in 8x8 16x8 16x16 32x8 16x32 32x16; do
      for d in 4 8 16 32; do sconfigs+=,slab:$b:$d$shade; done
    done
    # the border rays gathered by the tile's threads: blocks are tiles
    for b in 8x8 16x8 16x16 32x4 32x8; do
      for d in 4 8 16 32; do sconfigs+=,slab:$b:$d+gather$shade; done
    done
  done
  sconfigs=${CVR_SLAB_CONFIGS:-${sconfigs#,}}
  # CVR_SLAB_SPECS: FILE:LO:HI:[RESAMPLE] ... instead of the three volumes
  for spec in ${CVR_SLAB_SPECS:-scivis/engine.nii.gz:50:120: ct/cranium_ct.nii.gz:100:1500: ct/cranium_ct.nii.gz:100:1500:512x512x294}; do
    IFS=: read -r file lo hi resample <<<"$spec"
    name=$(basename "$file" .nii.gz)${resample:+-$resample}
    "$pack/bin/cvr-bench" --volume "$pack/data/$file" ${resample:+--resample $resample} --lo "$lo" --hi "$hi" \
      --rays 512,768,1024 ${CVR_SLAB_ARGS:---step 30 --repeats 3 --warmups 1} --configs "$sconfigs" \
      --out "$out/slab-$name.jsonl" 2>>"$out/slab.err"
    note "slab table 3 $name rc=$?"
  done
  python3 "$root/tools/bench/table3.py" "$out"/slab-*.jsonl | tee "$out/table3.md" | tee -a "$summary"
  [[ -n ${CVR_SLAB_NO_IMAGES:-} ]] || {
  mkdir -p "$out/slab-images"
  (cd "$pack/bin" && ./test_slab --images "$out/slab-images") >"$out/slab-images.log" 2>&1
  note "slab images rc=$? ($(tail -n 1 "$out/slab-images.log"))"
  }
fi

if [[ " $steps " == *" empty "* ]]; then
  # every strategy with and without skipping; cell sizes on the standard one
  econfigs=""
  for c in std:16x16 shape wm:DBShuffle:32:1x1:1x8 wm:DBShuffle:8:2x2:1x8 slab:16x8:8 \
    std:16x16+shade wm:DBShuffle:32:1x1:1x8+shade slab:16x8:8+shade; do
    econfigs+=,$c+skip,$c+noskip
  done
  econfigs=${econfigs#,}
  "$pack/bin/cvr-bench" --sizes 1024 --rays 512 --step 30 --repeats 5 --configs "$econfigs" \
    --out "$out/empty-micro.jsonl" 2>"$out/empty.err"
  note "empty micro rc=$?"
  for spec in scivis/bonsai.nii.gz:30:180 ct/cranium_ct.nii.gz:100:1500 mri/avm_mra_337x319x154.nii.gz:60:200; do
    IFS=: read -r file lo hi <<<"$spec"
    name=$(basename "$file" .nii.gz)
    "$pack/bin/cvr-bench" --volume "$pack/data/$file" --lo "$lo" --hi "$hi" --rays 1024 --step 30 \
      --repeats 5 --configs "$econfigs,std:16x16+skip:4,std:16x16+skip:16,std:16x16+skip:32" \
      --out "$out/empty-orbit-$name.jsonl" 2>>"$out/empty.err"
    note "empty orbit $name rc=$?"
  done
  python3 "$root/tools/bench/empty_table.py" "$out"/empty-*.jsonl | tee -a "$summary"
fi

if [[ " $steps " == *" scatter "* ]]; then
  # volumetric scattering's cost: shaded orbits of real data without it and
  # with it at several reaches and blends (the standard strategy renders
  # them); CVR_SCATTER_LIBS="NAME=DIR ..." times each library (the same
  # cvr.h), interleaved over CVR_SCATTER_ROUNDS rounds
  sconfigs=std:16x16+shade
  for c in 1:0:0 1:0.1:0 1:0.3:0 1:1:0 2:0.3:0 0.5:0.3:0.5; do sconfigs+=,std:16x16+scatter:$c; done
  for round in $(seq "${CVR_SCATTER_ROUNDS:-1}"); do
    for entry in ${CVR_SCATTER_LIBS:-pack=$pack/lib}; do
      lname=${entry%%=*} ldir=${entry#*=}
      for spec in scivis/bonsai.nii.gz:30:180 ct/cranium_ct.nii.gz:100:1500; do
        IFS=: read -r file lo hi <<<"$spec"
        name=$(basename "$file" .nii.gz)
        LD_LIBRARY_PATH=$ldir:$pack/lib "$pack/bin/cvr-bench" --volume "$pack/data/$file" --lo "$lo" \
          --hi "$hi" --rays 1024 --step 45 --repeats 3 --warmups 1 --configs "$sconfigs" \
          --out "$out/scatter-$lname-$name-$round.jsonl" 2>>"$out/scatter.err"
        note "scatter $lname $name round $round rc=$?"
      done
    done
  done
  python3 "$root/tools/bench/scatter_table.py" "$out"/scatter-*.jsonl | tee -a "$summary"
fi

if [[ " $steps " == *" auto "* ]]; then
  # AUTO against the per-view oracle and the standard strategy over 360-frame
  # orbits: the 1024^3 micro-benchmark and real data (CVR_AUTO_SPECS:
  # FILE:LO:HI:[RESAMPLE]:[shade] ... instead, CVR_AUTO_MICRO=0 without the
  # micro-benchmark; CVR_AUTO_ARGS: more
  # cvr-auto-bench options, e.g. --budget 1, for every orbit). With
  # CVR_AUTO_CACHED=1, each orbit again right after it, in a new process
  # from the tables it kept (--cache, no oracle to speak of): a later
  # session's first orbit, for what a first orbit costs beside tuning
  # (tools/bench/auto_misses.py)
  auto_orbit() { # NAME cvr-auto-bench's scene options...
    local name=$1
    shift
    "$pack/bin/cvr-auto-bench" "$@" ${CVR_AUTO_ARGS:-} --tables "$out/tables-$name" \
      --out "$out/auto-$name.jsonl" 2>>"$out/auto.err"
    note "auto $name rc=$? $(tail -n 1 "$out/auto-$name.jsonl")"
    if [[ ${CVR_AUTO_CACHED:-0} == 1 ]]; then
      cp -r "$out/tables-$name" "$out/cache-$name"
      "$pack/bin/cvr-auto-bench" "$@" ${CVR_AUTO_ARGS:-} --oracle-step 360 --confirm 1 \
        --cache "$out/cache-$name" \
        --out "$out/cached-$name.jsonl" 2>>"$out/auto.err"
      note "auto cached $name rc=$? $(tail -n 1 "$out/cached-$name.jsonl")"
      rm -rf "$out/cache-$name"
    fi
  }
  [[ ${CVR_AUTO_MICRO:-1} == 1 ]] && auto_orbit micro-1024 --micro 1024 --rays 512 # (0: real data only)
  for spec in ${CVR_AUTO_SPECS:-ct/cranium_ct.nii.gz:100:1500:: ct/cranium_ct.nii.gz:100:1500::shade scivis/bonsai.nii.gz:30:180:: ct/cranium_ct.nii.gz:100:1500:512x512x294:}; do
    IFS=: read -r file lo hi resample shade <<<"$spec"
    name=$(basename "$file" .nii.gz)${resample:+-$resample}${shade:+-shaded}
    auto_orbit "$name" --volume "$pack/data/$file" ${resample:+--resample $resample} \
      --lo "$lo" --hi "$hi" --rays 512 ${shade:+--shade}
  done
fi

if [[ " $steps " == *" launch "* ]]; then
  for us in 100 200 500; do
    "$pack/bin/cvr-launch-timing" --us $us --repeats 400 >>"$out/launch-timing.jsonl" 2>>"$out/launch.err"
    note "launch timing ${us} us rc=$?"
  done
  grep '"mode"' "$out/launch-timing.jsonl" | tee -a "$summary"
fi

if [[ " $steps " == *" upload "* ]]; then
  # time to first image: uploads of 512^3 .. 2048^3 against the copy rates
  "$pack/bin/cvr-upload-bench" ${CVR_UPLOAD_ARGS:---sizes 512,1024,2048} --out "$out/upload.jsonl" \
    2>"$out/upload.err"
  note "upload bench rc=$?"
  python3 "$root/tools/bench/upload_table.py" "$out/upload.jsonl" | tee -a "$summary"
fi

if [[ " $steps " == *" autoviews "* ]]; then
  # AUTO converged (cvr_tune_now where a view still tunes, then the median
  # of 5 frames) on the micro-benchmark about x, y and z every 15 degrees at
  # CVR_AUTOVIEWS_SIZES (default 1024,2048) about CVR_AUTOVIEWS_AXES (xyz),
  # 512^2 rays; with the guard's pack (tools/bench/guard.sh pack) the
  # reference library first, then the working tree's (CVR_AUTOVIEWS_BUILDS:
  # some of them), each with tables of its own; worst and best view per size;
  # CVR_AUTOVIEWS_ARGS: more cvr-bench options (--shift X,Y: the rays off
  # the voxel grid's alignment)
  guard=$root/.device/guard
  builds=(pack)
  [[ -d $guard/ref ]] && builds=(${CVR_AUTOVIEWS_BUILDS:-ref new})
  for f in "$guard"/*/lib/libcvr*.so.0.xz; do [[ -e $f && ! -e ${f%.xz} ]] && xz -dk "$f"; done
  for b in "${builds[@]}"; do
    if [[ $b == pack ]]; then bench=$pack/bin/cvr-bench lib=$pack/lib
    else
      bench=$guard/$b/cvr-bench lib=$guard/$b/lib
      [[ -e $bench ]] || bench=$guard/new/cvr-bench # (one harness for both)
    fi
    CVR_TUNING_CACHE_DIR=$(mktemp -d) LD_LIBRARY_PATH=$lib "$bench" \
      --sizes "${CVR_AUTOVIEWS_SIZES:-1024,2048}" --rays 512 --step 15 \
      --axes "${CVR_AUTOVIEWS_AXES:-xyz}" --repeats 5 ${CVR_AUTOVIEWS_ARGS:-} \
      --configs auto --out "$out/autoviews-$b.jsonl" 2>"$out/autoviews-$b.err"
    note "autoviews $b rc=$?"
    python3 "$root/tools/bench/summarize.py" "$out/autoviews-$b.jsonl" 2>&1 | grep -i "auto" | tee -a "$summary"
  done
fi

if [[ " $steps " == *" wang2 "* ]]; then
  # Wang et al.'s Table 2: the standard kernel against 1D warp marching
  # (single and double buffer) and 3D warp marching facing the XY and the ZY
  # plane, on the 2048^3 micro-benchmark and on a real volume resampled to
  # 2048^3 (CVR_WANG2_SPEC FILE:LO:HI:RESAMPLE), no empty-space skipping
  wconfigs=std:16x16+noskip,wm:SBShuffle:32:1x1:1x8+noskip,wm:DBShuffle:32:1x1:1x8+noskip
  wconfigs+=,wm:DBShuffle:8:2x2:1x8+noskip,wm:SBShuffle:8:2x2:1x8+noskip
  "$pack/bin/cvr-bench" --sizes 2048 --rays 512 --axes y --step 90 --range 90 --repeats 5 \
    --configs "$wconfigs" --out "$out/wang2-micro.jsonl" 2>"$out/wang2.err"
  note "wang2 micro rc=$?"
  IFS=: read -r file lo hi size <<<"${CVR_WANG2_SPEC:-ct/cranium_ct.nii.gz:100:1500:2048x2048x2048}"
  "$pack/bin/cvr-bench" --volume "$pack/data/$file" --resample "$size" --lo "$lo" --hi "$hi" \
    --rays 1024 --elevation 0 --step 90 --azimuths 0:90 --repeats 5 --configs "$wconfigs" \
    --out "$out/wang2-real.jsonl" 2>>"$out/wang2.err"
  note "wang2 real rc=$?"
  python3 "$root/tools/bench/wang_table2.py" "$out"/wang2-*.jsonl | tee -a "$summary"
fi

if [[ " $steps " == *" ncuwarp "* ]]; then
  # where warp marching's time goes at 2048^3, y 45: ncu's issue, occupancy,
  # stall and memory sections for the library's 3D and 1D warp marching and
  # standard kernel, and for the lean reference's (its views x 0, 45, 90,
  # then y 0, 45: each view launches 36 kernels, the y 45 ones profiled)
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  sections=(--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats
    --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section SchedulerStats)
  "$ncu" "${sections[@]}" -k regex:'cvr_warp_marching_kernel|cvr_standard_kernel' --launch-count 12 \
    "$pack/bin/cvr-bench" --sizes 2048 --rays 512 --axes y --step 45 --range 45 --repeats 1 --warmups 0 \
    --configs wm:DBShuffle:8:2x2:1x8+noskip,wm:DBShuffle:32:1x1:1x8+noskip,std:16x16+noskip \
    --out "$out/ncuwarp-lib.jsonl" >"$out/ncuwarp-lib.txt" 2>"$out/ncuwarp.err"
  note "ncuwarp library rc=$?"
  [[ -x $pack/bin/lean_reference ]] || nvcc -O3 -arch=sm_90 "$pack/lean_reference.cu" -o "$pack/bin/lean_reference"
  "$ncu" "${sections[@]}" -k regex:'standard|warpmarch' --launch-skip 144 --launch-count 36 \
    "$pack/bin/lean_reference" 2048 512 >"$out/ncuwarp-lean.txt" 2>>"$out/ncuwarp.err"
  note "ncuwarp lean rc=$?"
fi

if [[ " $steps " == *" ncusource "* ]]; then
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  "$ncu" --section SourceCounters --section InstructionStats --section LaunchStats --section Occupancy \
    --import-source no -k regex:cvr_warp_marching_kernel -o "$out/ncusource" -f \
    "$pack/bin/cvr-bench" --sizes 2048 --rays 512 --axes y --step 45 --range 45 --repeats 1 --warmups 0 \
    --configs "${CVR_NCU_CONFIGS:-wm:SBShuffle:32:1x1:1x8+noskip,wm:DBShuffle:32:1x1:1x8+noskip}" \
    --out "$out/ncusource.jsonl" >"$out/ncusource.log" 2>&1
  note "ncusource rc=$?"
  "$ncu" --import "$out/ncusource.ncu-rep" --page details >"$out/ncusource-details.txt" 2>&1
  "$ncu" --import "$out/ncusource.ncu-rep" --page source --csv --print-source sass 2>&1 |
    xz -T0 >"$out/ncusource-sass.csv.xz"
  note "ncusource: $(xz -dc "$out/ncusource-sass.csv.xz" | wc -l) lines of SASS counters"
  rm -f "$out/ncusource.ncu-rep"
fi

if [[ " $steps " == *" variants "* ]]; then
  # every variant once per round, the order turned each round (CVR_VARIANT_ROUNDS, default 2)
  for dir in "$pack"/variants/*/; do
    [[ -e $dir/libcvr.so.0.xz && ! -e $dir/libcvr.so.0 ]] && xz -dk "$dir/libcvr.so.0.xz"
  done
  names=$(ls "$pack/variants")
  for ((round = 0; round < ${CVR_VARIANT_ROUNDS:-2}; ++round)); do
    order=$names
    ((round % 2)) && order=$(echo "$names" | tac)
    for name in $order; do
      dir=$pack/variants/$name
      LD_LIBRARY_PATH=$dir:$LD_LIBRARY_PATH "$dir/cvr-bench" ${CVR_VARIANT_ARGS:---sizes 1024 --axes xy --step 45} \
        --out "$out/variant-$name.$round.jsonl" 2>>"$out/bench.err"
    done
  done
  python3 - "$out" "$pack/variants" <<'PY' | tee -a "$summary"
import collections, glob, json, os, sys
out, variants = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(variants)):
    flags = open(os.path.join(variants, name, "flags")).read().strip()
    views = collections.defaultdict(list)
    for path in glob.glob(os.path.join(out, f"variant-{name}.*.jsonl")):
        for line in open(path):
            r = json.loads(line)
            if r.get("bench") == "wang_micro":
                views[(r["config"], r["N"], r["axis"], r["angle"])].append(r["gsamples_per_s"])
    by = collections.defaultdict(list)
    for (config, n, axis, angle), g in views.items():
        by[(config, n)].append((sum(g) / len(g), f"{axis}{angle}"))
    for (config, n), g in sorted(by.items()):
        print(f"variant {name:4} ({flags}) {n}^3 {config:26} best {max(g)[0]:6.1f} worst {min(g)[0]:6.1f} ({min(g)[1]}) mean {sum(x for x, _ in g) / len(g):6.1f}")
PY
fi

if [[ " $steps " == *" bricks "* ]]; then
  # volumes larger than the budget (bricks): the micro-benchmark at 1024^3
  # unbricked and with budgets of 1/2, 1/8 and 1/32 of it, 2048^3 and the
  # cranium CT resampled to 2048^3 (int16, 16 GiB) with 2 GiB and 12 GiB
  # (most of it cached: the frame's draws, not its copies, set its time);
  # CVR_BRICKS_HUGE=1 adds 4096 x 4096 x 2048 (32 GiB) with 16 GiB.
  # CVR_BRICKS_VS=DIR: every case also with DIR's libcvr.so.0 (another
  # build), the two alternating, and the frame-time ratio per case
  vs=${CVR_BRICKS_VS:-}
  [[ -n $vs && -e $vs/libcvr.so.0.xz && ! -e $vs/libcvr.so.0 ]] && xz -dk "$vs/libcvr.so.0.xz"
  bricks_case() {
    local turn
    for turn in 0 1; do
      if [[ $(( turn + cases )) == 1 && -n $vs ]]; then
        LD_LIBRARY_PATH=$vs:$LD_LIBRARY_PATH "$pack/bin/cvr-bench" "$@" >>"$out/bricks-vs.jsonl" 2>>"$out/bricks.log"
      elif [[ $(( turn + cases )) != 1 ]]; then
        "$pack/bin/cvr-bench" "$@" >>"$out/bricks.jsonl" 2>>"$out/bricks.log"
      fi
    done
    cases=$(( (cases + 1) % 2 ))
  }
  cases=0
  micro=(--rays 1024 --blocks 16x16 --axes xyz --step 45 --range 90 --repeats 3 --warmups 1)
  for budget in none 512M 128M 32M; do
    bricks_case --sizes 1024 "${micro[@]}" $([[ $budget != none ]] && echo --budget "$budget")
  done
  # (2048^3 once copied by the volume, once lent to it: host memory and first frame)
  for lend in "" --lend; do
    bricks_case --sizes 2048 "${micro[@]}" --budget 2G $lend
  done
  for budget in 2G 12G; do
    bricks_case --volume "$pack/data/ct/cranium_ct.nii.gz" --lo 100 --hi 1500 --resample 2048x2048x2048 \
      --rays 1024 --step 90 --azimuths 0:90 --repeats 2 --warmups 1 --budget $budget
  done
  [[ ${CVR_BRICKS_HUGE:-0} == 1 ]] &&
    bricks_case --sizes 64 --shape 4096x4096x2048 --rays 1024 --blocks 16x16 --axes z \
      --step 90 --range 90 --repeats 1 --warmups 1 --budget 16G --lend
  python3 "$root/tools/bench/bricks_table.py" "$out/bricks.jsonl" | tee -a "$summary"
  if [[ -n $vs ]]; then
    note "== the same with $vs's libcvr"
    python3 "$root/tools/bench/bricks_table.py" "$out/bricks-vs.jsonl" --against "$out/bricks.jsonl" |
      tee -a "$summary"
  fi
fi

if [[ " $steps " == *" egl "* ]]; then
  # the machine has NVIDIA's EGL vendor library and glvnd's vendor file but
  # not glvnd's dispatcher (libEGL.so.1): the carried one finds the vendor
  {
    echo "== NVIDIA GL and EGL libraries, glvnd"
    ls /usr/lib /usr/lib/x86_64-linux-gnu /usr/local/nvidia/lib64 2>/dev/null |
      grep -E "^lib(EGL|GLX|GLdispatch|OpenGL|nvidia-(egl|gl)core)" | sort -u
    echo "== EGL vendor files"
    for d in /usr/share/glvnd/egl_vendor.d /etc/glvnd/egl_vendor.d; do
      ls "$d" 2>/dev/null && cat "$d"/*.json 2>/dev/null
    done
    echo "== egl-probe with the machine's libEGL"
    "$pack/bin/egl-probe"
    echo "rc $?"
    echo "== egl-probe with the carried glvnd libEGL"
    LD_LIBRARY_PATH=$pack/egl:$LD_LIBRARY_PATH "$pack/bin/egl-probe" "$pack/egl/libEGL.so.1"
    echo "rc $?"
  } >"$out/egl.log" 2>&1
  note "egl: $(grep -E 'GL_RENDERER|GL_VERSION' "$out/egl.log" | tr -s ' \n' ' ')"
fi
