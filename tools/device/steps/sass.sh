# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "sass": the machine code of the standard and warp-marching kernels
# Sourced by tools/device/run.sh, whose variables it uses.
lib=$pack/lib/libcvr.so.0
[[ -e $lib ]] || lib=$pack/lib/libcvr-internal.so.0 # (the same objects)
cuobjdump -sass "$lib" 2>&1 | xz -T0 >"$out/sass.txt.xz"
note "sass: $(xz -dc "$out/sass.txt.xz" | grep -c 'Function :') functions"
