#!/usr/bin/env bash
# Configures and builds into build/ (Release). Extra arguments go to cmake's
# configure step, e.g. -DCVR_ENABLE_CUDA=OFF.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$root/build" -j"$(nproc)"
