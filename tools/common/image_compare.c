// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
#include <stdlib.h>

#include "cvr_tools.h"

cvr_tools_image_diff cvr_tools_compare_rgba8(const uint8_t *a, const uint8_t *b, long pixels,
                                             int threshold) {
  cvr_tools_image_diff d = {0, 0.0, 0.0, 0};
  double sum = 0.0;
  for (long p = 0; p < pixels; ++p) {
    int worst = 0;
    for (int c = 0; c < 4; ++c) {
      const int diff = abs((int)a[4 * p + c] - (int)b[4 * p + c]);
      sum += diff;
      if (diff > worst) worst = diff;
    }
    if (worst > d.max_diff) d.max_diff = worst;
    if (worst > threshold) d.over_count++;
  }
  d.mean_diff = pixels ? sum / (4.0 * pixels) : 0.0;
  d.over_fraction = pixels ? (double)d.over_count / pixels : 0.0;
  return d;
}
