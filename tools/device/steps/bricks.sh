# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "bricks": volumes larger than the memory budget (bricks_table.py); CVR_BRICKS_VS
# compares another library. Sourced by tools/device/run.sh, whose variables it uses (out, pack,
# root, summary, note, configs).
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
