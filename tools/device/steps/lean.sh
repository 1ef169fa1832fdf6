# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "lean": the lean reference kernels (../shared/bench, packed by pack.sh) on this
# GPU, 1024^3 every 15 degrees and 2048^3 every 45, to hold the library's
# kernels against in the same call
# Sourced by tools/device/run.sh, whose variables it uses.
[[ -e $pack/lean_reference.cu ]] || return 0
(cd "$out" && nvcc -O3 -arch=sm_90 "$pack/lean_reference.cu" -o "$pack/bin/lean_reference" &&
  "$pack/bin/lean_reference" 1024 512 >lean-1024.txt && "$pack/bin/lean_reference" 2048 512 >lean-2048.txt)
note "lean reference rc=$? ($(head -n 2 "$out/lean-1024.txt" | tail -n 1))"
