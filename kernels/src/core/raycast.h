// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/*
 * The one implementation of ray setup, the sample lattice, transfer-function
 * lookup and compositing. Compiled both as C11 (CPU backend) and by nvcc
 * (every CUDA strategy), so all backends and strategies take the same
 * samples at the same positions and composite them the same way.
 *
 * Positions and the ray's sample range are computed with explicitly rounded
 * operations (no fused multiply-add on either side; the host code is built
 * with -ffp-contract=off), so a CPU and a GPU ray visit bit-identical sample
 * positions. That keeps the CPU renderer a tight reference.
 */
#ifndef CVR_RAYCAST_H
#define CVR_RAYCAST_H

/* The parts, each including the one before it (the order of definitions):
 * types, rays and the lattice, sampling, classification and blending,
  * shading, the gradient's effects, components, bricks. */
#include "ray_bricks.h"

#endif /* CVR_RAYCAST_H */
