// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* A transfer function as one frame's table: opacity per sample at the
 * frame's distance and blend mode, and the map from stored values to entries. */
#include <math.h>

#include "cvr_internal.h"
#include "half.h"

void cvr_transfer_function_sample_table(const cvr_transfer_function *tf, double sample_distance,
                                        cvr_blend_mode blend, cvr_rgba *out) {
  const double ratio = sample_distance / tf->unit_distance;
  for (int i = 0; i < tf->size; ++i) {
    const double a = tf->table[i].a;
    double per_sample = a; /* MAXIMUM, MINIMUM, AVERAGE: the function as it is */
    if (blend == CVR_BLEND_COMPOSITE) /* a per unit distance: 1 - (1 - a)^(dt / unit) per sample */
      per_sample = a >= 1.0 ? 1.0 : 1.0 - pow(1.0 - a, ratio);
    else if (blend == CVR_BLEND_ADDITIVE) /* a sum: proportional to the distance */
      per_sample = a * ratio;
    out[i].r = cvr_round_to_half(tf->table[i].r);
    out[i].g = cvr_round_to_half(tf->table[i].g);
    out[i].b = cvr_round_to_half(tf->table[i].b);
    out[i].a = cvr_round_to_half((float)per_sample);
    if (tf->table_2d && a > 0.0 && out[i].a == 0.0f)
      out[i].a = 0x1p-24f; /* a column some 2D entry makes visible stays so */
  }
}

void cvr_transfer_function_mapping(const cvr_transfer_function *tf, const cvr_volume *volume,
                                   float *scale, float *bias) {
  const double norm = cvr_stored_type_normalization(volume->stored_type);
  const double per_value = (tf->size - 1) / (tf->range[1] - tf->range[0]);
  *scale = (float)(per_value / norm);
  *bias = (float)(-tf->range[0] * per_value);
}
