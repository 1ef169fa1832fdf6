// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* PNG output through libpng. */
#include <stdio.h>
#include <stdlib.h>

#include <png.h>

#include "cvr_tools.h"

int cvr_tools_write_png(const char *path, const uint8_t *rgba, int width, int height,
                        const float background[3]) {
  png_image img = {0};
  img.version = PNG_IMAGE_VERSION;
  img.width = (png_uint_32)width;
  img.height = (png_uint_32)height;
  img.format = PNG_FORMAT_RGB;
  uint8_t *rgb = malloc((size_t)width * height * 3);
  if (!rgb) return 0;
  for (int y = 0; y < height; ++y) /* PNG rows go top down */
    for (int x = 0; x < width; ++x) {
      const uint8_t *s = rgba + 4 * ((size_t)(height - 1 - y) * width + x);
      uint8_t *d = rgb + 3 * ((size_t)y * width + x);
      const float t = 1.0f - s[3] / 255.0f;
      for (int c = 0; c < 3; ++c) {
        const float v = s[c] + t * background[c] * 255.0f;
        d[c] = (uint8_t)(v > 255.0f ? 255 : v + 0.5f);
      }
    }
  const int ok = png_image_write_to_file(&img, path, 0, rgb, 0, NULL);
  free(rgb);
  return ok;
}
