# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "sanitize": compute-sanitizer's memcheck, racecheck, initcheck and synccheck on the
# CUDA tests; CVR_SANITIZE_TESTS="prog args;..." narrows the programs, CVR_SANITIZE_TOOLS the
# tools, CVR_SANITIZE_TIMEOUT each run (300 s). Sourced by tools/device/run.sh, whose variables it
# uses (out, pack, root, summary, note, configs).
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
