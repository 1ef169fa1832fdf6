#!/usr/bin/env bash
# Installs what is needed, builds, and runs every test with ctest. Tests that
# need a CUDA device skip without one; tests that read ../shared/data skip
# when it is absent.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/install-deps.sh"
"$root/tools/build.sh" >/dev/null
ctest --test-dir "$root/build" --output-on-failure
