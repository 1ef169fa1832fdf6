# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "auto": the auto-tuner against the per-view oracle, cvr-auto-bench
# (CVR_AUTO_CACHED=1: and each orbit's first orbit from the tables kept). Sourced by
# tools/device/run.sh, whose variables it uses (out, pack, root, summary, note, configs).
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
