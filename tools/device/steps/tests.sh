# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "tests": every ctest test of the pack (tests.tsv), CVR_TESTS a regular expression of
# the names to run; tests.log. Sourced by tools/device/run.sh, whose variables it uses (out, pack,
# root, summary, note, configs).
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
