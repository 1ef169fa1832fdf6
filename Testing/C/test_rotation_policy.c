/* The in-place rotation policy (Misaki et al.; rotation_policy.c) over view
 * sequences, on the host: an orbit about y turns the volume exactly where
 * it crosses the 45-degree borders (4 turns in 360 degrees, the first
 * whole degree past 45, 135, 225 and 315: the paper's regions; exactly on a
 * border both orders are equally good), hysteresis moves the turns h degrees
 * further, and a view wobbling across a border turns the volume on every
 * crossing without hysteresis and never with it. The quarter turn is
 * simulated as what it does to the view direction in stored axes (x and the
 * partner z trade places); the GPU test test_storage runs the real one. */
#include <math.h>
#include <string.h>

#include "cvr_internal.h"
#include "test_common.h"

/* Views at the given angles about y; returns the turns and where they happened. */
static int run(const double *angles, int n, cvr_rotation_policy policy, double h, double *at) {
  int swapped = 0, turns = 0;
  for (int i = 0; i < n; ++i) {
    const double a = angles[i] * 3.14159265358979323846 / 180.0;
    const float d[3] = {(float)sin(a), 0.0f, (float)cos(a)};
    float stored[3] = {swapped ? d[2] : d[0], d[1], swapped ? d[0] : d[2]};
    if (cvr_rotation_needed(stored, policy, h)) {
      swapped = !swapped;
      if (at) at[turns] = angles[i];
      ++turns;
      const float again[3] = {swapped ? d[2] : d[0], d[1], swapped ? d[0] : d[2]};
      CHECK(!cvr_rotation_needed(again, policy, h), "a turn at %.1f degrees leaves it unfavourable",
            angles[i]);
    }
  }
  return turns;
}

int main(void) {
  double orbit[360], at[16];
  for (int i = 0; i < 360; ++i) orbit[i] = i;
  int n = run(orbit, 360, CVR_ROTATION_ON_REGION_CHANGE, 0.0, at);
  printf("orbit, on region change: %d turns at %g %g %g %g\n", n, at[0], at[1], at[2], at[3]);
  CHECK(n == 4 && at[0] == 46 && at[1] == 136 && at[2] == 226 && at[3] == 316,
        "expected turns at 46 136 226 316");
  n = run(orbit, 360, CVR_ROTATION_HYSTERESIS, 5.0, at);
  printf("orbit, hysteresis 5: %d turns at %g %g %g %g\n", n, at[0], at[1], at[2], at[3]);
  CHECK(n == 4 && at[0] == 51 && at[1] == 141 && at[2] == 231 && at[3] == 321,
        "expected turns at 51 141 231 321");
  CHECK(run(orbit, 360, CVR_ROTATION_NEVER, 0.0, NULL) == 0, "NEVER turned");

  double wobble[40];
  for (int i = 0; i < 40; ++i) wobble[i] = i % 2 ? 47.0 : 43.0;
  n = run(wobble, 40, CVR_ROTATION_ON_REGION_CHANGE, 0.0, NULL);
  printf("wobble 43/47 degrees, on region change: %d turns in 40 frames\n", n);
  CHECK(n == 39, "expected a turn per frame after the first, got %d", n);
  n = run(wobble, 40, CVR_ROTATION_HYSTERESIS, 5.0, NULL);
  printf("wobble 43/47 degrees, hysteresis 5: %d turns in 40 frames\n", n);
  CHECK(n == 0, "expected no turn, got %d", n);
  /* a view along the partner or the rotation axis never calls for a turn */
  const float along_y[3] = {0.1f, 1.0f, 0.2f}, along_z[3] = {0.3f, 0.2f, -1.0f};
  CHECK(!cvr_rotation_needed(along_y, CVR_ROTATION_ON_REGION_CHANGE, 0.0), "along y");
  CHECK(!cvr_rotation_needed(along_z, CVR_ROTATION_ON_REGION_CHANGE, 0.0), "along z");
  /* hysteresis 45: padded for rotation, never turned, even exactly along x */
  const float along_x[3] = {1.0f, 0.0f, 0.0f};
  CHECK(run(orbit, 360, CVR_ROTATION_HYSTERESIS, 45.0, NULL) == 0 &&
            !cvr_rotation_needed(along_x, CVR_ROTATION_HYSTERESIS, 45.0) &&
            cvr_rotation_needed(along_x, CVR_ROTATION_HYSTERESIS, 44.9),
        "hysteresis 45 turned, or 44.9 did not along x");
  return cvr_test_finish("test_rotation_policy");
}
