#!/usr/bin/env bash
# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# Configures and builds into build/ (Release). Extra arguments go to cmake's
# configure step, e.g. -DCVR_ENABLE_CUDA=OFF; CVR_CUDA_ARCHITECTURES, when
# set, limits the CUDA kernels to those architectures (CI: one, to check that
# they build, since it has no GPU to run them).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release \
  ${CVR_CUDA_ARCHITECTURES:+-DCMAKE_CUDA_ARCHITECTURES=$CVR_CUDA_ARCHITECTURES} "$@" >/dev/null
cmake --build "$root/build" -j"$(nproc)"
