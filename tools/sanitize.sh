#!/usr/bin/env bash
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# The CPU path under AddressSanitizer (with leak detection) and
# UndefinedBehaviorSanitizer, built with clang: every C test of the library;
# the tests that run threads (several contexts at once, AUTO's helper, the
# tile schedules) under ThreadSanitizer; then the libFuzzer target over the C
# API (Testing/Fuzz) for the given seconds (default 120), and the one over
# AUTO's cache files for a quarter of that. Exits non-zero on any finding; a
# crashing input is left in build-sanitize/ as crash-*.
#
#   tools/sanitize.sh [fuzz-seconds]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-120}
build=$root/build-sanitize
cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCVR_ENABLE_CUDA=OFF -DCVR_BUILD_VTK_MODULE=OFF \
  -DCVR_BUILD_PARAVIEW_PLUGIN=OFF -DCVR_BUILD_TOOLS=OFF -DCVR_SANITIZE=ON -DCVR_BUILD_FUZZERS=ON \
  >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
tsan=$root/build-tsan
cmake -S "$root" -B "$tsan" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCVR_ENABLE_CUDA=OFF -DCVR_BUILD_VTK_MODULE=OFF \
  -DCVR_BUILD_PARAVIEW_PLUGIN=OFF -DCVR_BUILD_TOOLS=OFF -DCMAKE_C_FLAGS=-fsanitize=thread \
  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread >/dev/null
cmake --build "$tsan" -j"$(nproc)" --target test_concurrency test_tuner test_cpu_schedule >/dev/null
TSAN_OPTIONS=halt_on_error=1 ctest --test-dir "$tsan" --output-on-failure \
  -R 'cvr\.(concurrency|tuner|cpu_schedule)' -E cuda
mkdir -p "$build/fuzz-corpus"
cd "$build"
# the inputs that once failed (Testing/Fuzz/regressions) run first, each once
echo "replaying $(ls "$root/Testing/Fuzz/regressions" | wc -l) fuzz regression input(s)"
"$build/Testing/Fuzz/fuzz_cvr_api" "$root"/Testing/Fuzz/regressions/* 2>&1 | tail -n 30
echo "fuzzing the C API for $seconds s"
"$build/Testing/Fuzz/fuzz_cvr_api" -max_total_time="$seconds" -print_final_stats=1 \
  "$build/fuzz-corpus" "$root/Testing/Fuzz/regressions" 2>&1 |
  grep -v "^#[0-9]*	\(NEW\|REDUCE\|pulse\)" | tail -n 30
echo "fuzzing the tuning cache files for $((seconds / 4)) s"
mkdir -p "$build/fuzz-cache-corpus"
"$build/Testing/Fuzz/fuzz_tuning_cache" -max_total_time="$((seconds / 4))" -print_final_stats=1 \
  "$build/fuzz-cache-corpus" "$root/Testing/Fuzz/cache-seeds" 2>&1 |
  grep -v "^#[0-9]*	\(NEW\|REDUCE\|pulse\)" | tail -n 30
exit "${PIPESTATUS[0]}"
