#!/usr/bin/env bash
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# The regression guard: the kernels of a reference commit against the working
# tree's, interleaved in one device call on a fixed set of cases, a speed
# ratio per case; fails when a case is more than 3% slower than the reference.
#
#   tools/bench/guard.sh pack [REF]     (here) builds REF (default: the commit
#       in tools/bench/guard-reference) and the working tree for sm_90
#       (cvr-bench and libcvr only), and packs both with the volumes the cases
#       read into .device/guard (git-ignored). When cvr.h is the same at both,
#       the working tree's cvr-bench drives both libraries (one harness);
#       otherwise each runs its own, and a case the reference's harness does
#       not know is reported n/a.
#       CVR_GUARD_NEW_BUILD=DIR takes an up-to-date sm_90 build of the
#       working tree from DIR instead of building one.
#   tools/bench/guard.sh run OUT        (on the GPU machine, from the repo
#       root) runs every case CVR_GUARD_ROUNDS times (default 2) for each
#       build, alternating which goes first, and prints the table; exit 1 if a
#       case is slower than CVR_GUARD_LIMIT (default 0.97) of the reference.
#       CVR_GUARD_CASES="name ..." narrows the cases.
#   CVR_GUARD_FOUNDATION=COMMIT tools/bench/guard.sh pack [REF]
#       also packs COMMIT (e.g. 03282f7, the foundation's standard kernel)
#       with its own harness: run then holds the working tree against it on
#       micro1024 too (reported, not gating).
#   CVR_GUARD_SELF_CHECK=1 tools/bench/guard.sh pack [REF]
#       also packs the working tree with a deliberately slowed standard kernel
#       (one texture fetch in flight per ray, CVR_STANDARD_FETCH_AHEAD=1): run
#       then times it on micro1024 too, where the guard must report it slower.
#
# Cases (speed = the reference's kernel time over the working tree's, summed
# over a case's views; each view the mean of the rounds' medians):
#   micro1024      the micro-benchmark (Wang et al. 3.2), 1024^3, 512^2 rays,
#                  views about x, y and z every 45 degrees, standard 16x16
#   micro1024-all  the same, block shape, warp marching 1D and 3D, slab
#   micro2048      2048^3 (8 GiB): standard 16x16, warp marching 3D (8 lanes,
#                  2x2 rays a warp) and 1D (32 lanes)
#   bonsai         bonsai (256^3 uint8) orbit, 1024^2 rays, every 30 degrees
#   cranium-shaded the cranium CT (int16) orbit shaded, 1024^2 rays
#   auto           AUTO converged (cvr_tune_now per view class) on both orbits
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
pack=$root/.device/guard

cases_spec() { # name|arguments (volumes relative to the pack's data folder)
  cat <<'EOF'
micro1024|--sizes 1024 --rays 512 --step 45 --blocks 16x16
micro1024-all|--sizes 1024 --rays 512 --step 45 --configs shape,wm:DBShuffle:8:2x2:1x8,wm:DBShuffle:32:1x1:1x8,slab:32x8:8
micro2048|--sizes 2048 --rays 512 --step 45 --configs std:16x16,wm:DBShuffle:8:2x2:1x8,wm:DBShuffle:32:1x1:1x8
bonsai|--volume DATA/bonsai.nii.gz --lo 30 --hi 180 --rays 1024 --step 30 --configs std:16x16,shape
cranium-shaded|--volume DATA/cranium_ct.nii.gz --lo 100 --hi 1500 --rays 1024 --step 30 --configs std:16x16+shade,wm:DBShuffle:8:2x2:1x8+shade
auto|--volume DATA/bonsai.nii.gz --lo 30 --hi 180 --rays 1024 --step 30 --configs auto,auto+shade
EOF
}

build_commit() { # commit build-dir [extra CUDA flags] -> builds cvr-bench there
  local commit=$1 build=$2 flags=${3:-} src
  if [[ $commit == WORKTREE ]]; then
    src=$root
  else
    src=$build/src
    [[ -d $src ]] || git -C "$root" worktree add -f --detach "$src" "$commit" >/dev/null
  fi
  cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCVR_ENABLE_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DCVR_BUILD_VTK_MODULE=OFF -DCVR_BUILD_PARAVIEW_PLUGIN=OFF \
    -DCVR_BUILD_TESTING=OFF "-DCMAKE_CUDA_FLAGS=$flags" >"$build.configure.log" 2>&1 ||
    { cat "$build.configure.log"; exit 1; }
  echo "guard: building $commit${flags:+ ($flags)} (log $build.log)"
  cmake --build "$build" -j"$(nproc)" --target cvr-bench $(rotation_target "$src") >"$build.log" 2>&1 ||
    { tail -20 "$build.log"; exit 1; }
}

rotation_target() { # source-dir -> the rotation kernel's own benchmark, where the tree has one
  [[ -e $1/tools/bench/cvr_rotation_bench.c ]] && echo cvr-rotation-bench
}

pack_build() { # build-dir dest label
  local build=$1 dest=$2
  mkdir -p "$dest/lib"
  cp "$build/tools/bench/cvr-bench" "$dest/"
  cp -L "$build/kernels/libcvr.so.0" "$dest/lib/"
  # (the rotation kernel's benchmark links the library with its test hooks;
  # older trees time it with cvr-bench --rotation-bandwidth)
  if [[ -e $build/tools/bench/cvr-rotation-bench ]]; then
    cp "$build/tools/bench/cvr-rotation-bench" "$dest/"
    cp -L "$build/kernels/libcvr-internal.so.0" "$dest/lib/"
  fi
  ldd "$dest/cvr-bench" | awk '$3 ~ /^\// {print $1, $3}' | while read -r name path; do
    [[ $name =~ ^(linux-vdso|libc\.so|libm\.so|libpthread|libdl\.so|librt\.so|ld-linux|libgcc_s|libstdc\+\+|libcvr) ]] ||
      cp -L "$path" "$dest/lib/$name"
  done
  echo "$3" >"$dest/commit"
  for lib in "$dest"/lib/libcvr*.so.0; do xz -T0 -6 "$lib"; done
}

case ${1:-} in
pack)
  ref=${2:-$(awk '$1 == "reference" {print $2}' "$root/tools/bench/guard-reference")}
  ref=$(git -C "$root" rev-parse --short=12 "$ref")
  new_label="$(git -C "$root" describe --always --dirty --abbrev=12)"
  build_commit "$ref" "$root/build-guard-$ref"
  # (CVR_GUARD_NEW_BUILD: an up-to-date sm_90 build of the working tree to take instead)
  new_build=${CVR_GUARD_NEW_BUILD:-$root/build-guard-new}
  [[ -n ${CVR_GUARD_NEW_BUILD:-} ]] &&
    cmake --build "$new_build" --target cvr-bench $(rotation_target "$root") >/dev/null
  [[ -n ${CVR_GUARD_NEW_BUILD:-} ]] || build_commit WORKTREE "$new_build"
  rm -rf "$pack"
  mkdir -p "$pack/data"
  pack_build "$root/build-guard-$ref" "$pack/ref" "$ref"
  pack_build "$new_build" "$pack/new" "$new_label"
  if [[ -n ${CVR_GUARD_FOUNDATION:-} ]]; then
    foundation=$(git -C "$root" rev-parse --short=12 "$CVR_GUARD_FOUNDATION")
    build_commit "$foundation" "$root/build-guard-$foundation"
    pack_build "$root/build-guard-$foundation" "$pack/foundation" "$foundation"
  fi
  if [[ ${CVR_GUARD_SELF_CHECK:-0} == 1 ]]; then
    slow_flags=-DCVR_STANDARD_FETCH_AHEAD=1
    if [[ -n ${CVR_GUARD_NEW_BUILD:-} ]]; then # standard.cu alone again, over that build's objects
      CVR_VARIANT_BASE=$new_build CVR_VARIANT_FILES=kernels/cuda/standard.cu \
        "$root/tools/device/pack-variants.sh" "guard-slow=$slow_flags" >/dev/null
      mkdir -p "$pack/slow/lib"
      mv "$root/.device/variants/guard-slow/libcvr.so.0.xz" "$pack/slow/lib/"
      find "$pack/new/lib" -maxdepth 1 -type f ! -name 'libcvr.so*' -exec cp {} "$pack/slow/lib/" \;
      rm -rf "$root/.device/variants/guard-slow"
      echo "$new_label with $slow_flags" >"$pack/slow/commit"
    else
      build_commit WORKTREE "$root/build-guard-slow" "$slow_flags"
      pack_build "$root/build-guard-slow" "$pack/slow" "$new_label with $slow_flags"
    fi
  fi
  # one harness for both where the public header (the ABI) is the same
  if git -C "$root" diff --quiet "$ref" -- kernels/include/cvr.h; then
    # (a reference without cvr-rotation-bench keeps its cvr-bench for that)
    if [[ -e $pack/ref/cvr-rotation-bench ]]; then rm "$pack/ref/cvr-bench"
    else mv "$pack/ref/cvr-bench" "$pack/ref/cvr-bench-rotation"; fi
    rm "$pack"/slow/cvr-bench 2>/dev/null || true
    echo shared >"$pack/harness"
  else
    echo own >"$pack/harness"
  fi
  data=${CVR_DATA_DIR:-$root/../shared/data}
  for f in scivis/bonsai.nii.gz ct/cranium_ct.nii.gz; do
    gzip -dc "$data/$f" | xz -T0 -9 >"$pack/data/$(basename "${f%.gz}").xz"
  done
  cases_spec >"$pack/cases"
  echo "guard: packed $(du -sh "$pack" | cut -f1): ref $ref ($(cat "$pack/harness") harness), new $new_label"
  ;;
run)
  out=${2:?usage: guard.sh run OUT}
  logs=$(mktemp -d)
  mkdir -p "$out" "$logs/guard"
  for f in "$pack"/*/lib/libcvr*.so.0.xz; do [[ -e ${f%.xz} ]] || xz -dk "$f"; done
  for f in "$pack"/data/*.nii.xz; do
    [[ -e ${f%.xz}.gz ]] || xz -dc "$f" | gzip -1 >"${f%.xz}.gz"
  done
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/guard/device.txt"
  rounds=${CVR_GUARD_ROUNDS:-2}
  harness=$(cat "$pack/harness")
  while IFS='|' read -r name args; do
    [[ -z ${CVR_GUARD_CASES:-} || " $CVR_GUARD_CASES " == *" $name "* ]] || continue
    args=${args//DATA/$pack/data}
    builds="ref new"
    if [[ $name == micro1024 ]]; then
      for b in slow foundation; do [[ -d $pack/$b ]] && builds+=" $b"; done
    fi
    for ((r = 0; r < rounds; ++r)); do
      order=$builds
      ((r % 2)) && order=$(echo "$builds" | tr ' ' '\n' | tac | tr '\n' ' ')
      for b in $order; do
        bench=$pack/$b/cvr-bench # (the foundation keeps its own)
        [[ $harness == shared && ! -e $bench ]] && bench=$pack/new/cvr-bench
        log=$logs/guard/$name.$b.$r
        rc=0
        LD_LIBRARY_PATH="$pack/$b/lib" "$bench" $args --out "$log.jsonl" >"$log.err" 2>&1 || rc=$?
        echo "$rc" >"$log.rc"
      done
    done
  done <"$pack/cases"
  labels=()
  for b in ref new slow foundation; do [[ -d $pack/$b ]] && labels+=("$b=$(cat "$pack/$b/commit")"); done
  rc=0
  python3 "$root/tools/bench/guard_report.py" "$logs/guard" "$pack/cases" "${CVR_GUARD_LIMIT:-0.97}" \
    "${labels[@]}" >"$logs/guard/report.txt" || rc=$?
  cat "$logs/guard/report.txt"
  cp "$logs/guard/report.txt" "$out/guard-report.txt"
  tar cJf "$out/guard-logs.tar.xz" -C "$logs" guard # (a device call returns few files)
  rm -rf "$logs"
  exit $rc
  ;;
*)
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 2
  ;;
esac
