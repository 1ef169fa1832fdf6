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

void cvr_tools_ramp_tf(float *rgba, int size, double range0, double range1, double lo, double hi,
                       float max_opacity) {
  for (int i = 0; i < size; ++i) {
    const double v = range0 + (range1 - range0) * i / (size - 1);
    double t = (v - lo) / (hi - lo);
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    /* warm bone-like ramp: dark red through orange to white */
    rgba[4 * i + 0] = (float)(0.35 + 0.65 * t);
    rgba[4 * i + 1] = (float)(0.12 + 0.80 * t * t);
    rgba[4 * i + 2] = (float)(0.05 + 0.90 * t * t * t);
    rgba[4 * i + 3] = (float)(max_opacity * t);
  }
}

uint64_t cvr_tools_random(uint64_t *state) {
  uint64_t x = *state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * 0x2545F4914F6CDD1DULL;
}

const char *cvr_tools_type_name(cvr_scalar_type type) {
  static const char *names[] = {"int8", "uint8", "int16", "uint16", "int32", "uint32", "float32",
                                "float64"};
  return (unsigned)type < 8 ? names[type] : "unknown";
}
