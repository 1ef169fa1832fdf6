// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Scalar conversions between what the caller gives and what the renderers
 * sample: 8- and 16-bit integers are kept as they are (textures filter them
 * as normalized values), wider integers and doubles become float32. The
 * range is found in the same pass, on several threads, so that an upload
 * reads the caller's scalars once. */
#ifndef CVR_VOLUME_CONVERT_H
#define CVR_VOLUME_CONVERT_H

#include "cvr_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest dimension on any axis: Hopper's (and Volta's) 3D texture limit. */
#define CVR_VOLUME_MAX_DIM 16384

cvr_scalar_type cvr_stored_type(cvr_scalar_type type);

/* A range to widen: [+inf, -inf]. */
void cvr_range_init(double range[2]);
/* [0, 0] when no value widened it (none, or all NaN). */
void cvr_range_finish(double range[2]);

/* Copies count scalars of type from src into dst as cvr_stored_type(type)
 * (dst NULL: no copy) and widens range (NULL: none) by their min and max,
 * NaN ignored; with components > 1 and component_ranges given, also
 * component_ranges[c] by the values of component c (src starts at a voxel:
 * value i is component i % components); on up to `threads` threads. */
void cvr_convert_range(cvr_scalar_type type, const void *src, size_t count, void *dst,
                       double range[2], int components, double (*component_ranges)[2],
                       int threads);

/* Copies voxels of n interleaved values of elem bytes into c >= n channels,
 * the channels past n zero (three components into a four-channel texture),
 * on up to `threads` threads. */
void cvr_widen_channels(const void *src, size_t voxels, int n, int c, size_t elem, void *dst,
                        int threads);

/* Host memory for a whole volume (the CPU backend's copy, a CUDA copy
 * between layouts), freed with free(): in 2 MiB pages where the system gives
 * them (transparent huge pages on request), so that writing it faults 512
 * times fewer and scattered reads miss the TLB less. */
void *cvr_alloc_volume_copy(size_t bytes);

/* memcpy on up to `threads` threads. */
void cvr_copy_parallel(void *dst, const void *src, size_t bytes, int threads);

#ifdef __cplusplus
}
#endif

#endif
