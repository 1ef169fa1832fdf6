#!/usr/bin/env bash
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# Installs what is needed, builds, and runs every test with ctest. Tests that
# need a CUDA device skip without one; tests that read ../shared/data skip
# when it is absent. Without a display the VTK tests run under Xvfb. Then the
# CPU path again under AddressSanitizer and UndefinedBehaviorSanitizer, with
# two minutes of fuzzing the C API (tools/sanitize.sh; CVR_FUZZ_SECONDS).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/install-deps.sh"
"$root/tools/build.sh" >/dev/null
run=()
# -noreset: by default Xvfb resets when its last client leaves, and a test
# connecting in that moment (another one just ended) fails to open the display
[ -n "${DISPLAY:-}" ] || run=(xvfb-run -a -s "-screen 0 1280x1024x24 -noreset")
"${run[@]}" ctest --test-dir "$root/build" --output-on-failure -j"$(nproc)"
"$root/tools/sanitize.sh" "${CVR_FUZZ_SECONDS:-120}"
