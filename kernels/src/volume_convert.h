// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Scalar conversions between what the caller gives and what the renderers
 * sample: 8- and 16-bit integers are kept as they are (textures filter them
 * as normalized values), wider integers and doubles become float32. */
#ifndef CVR_VOLUME_CONVERT_H
#define CVR_VOLUME_CONVERT_H

#include "cvr_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest dimension on any axis: Hopper's (and Volta's) 3D texture limit. */
#define CVR_VOLUME_MAX_DIM 16384

cvr_scalar_type cvr_stored_type(cvr_scalar_type type);
/* Copies count scalars of type from src into dst as cvr_stored_type(type). */
void cvr_convert_to_stored(cvr_scalar_type type, const void *src, size_t count, void *dst);
/* Min and max, NaN ignored; [0, 0] when no value is a number. */
void cvr_scalar_range(cvr_scalar_type type, const void *data, size_t count, double range[2]);

#ifdef __cplusplus
}
#endif

#endif
