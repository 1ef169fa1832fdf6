// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The in-place rotation policy (Misaki et al.; rotation_policy.c) over view
 * sequences, on the host: an orbit about y turns the volume exactly where
 * it crosses the 45-degree borders (4 turns in 360 degrees, the first
 * whole degree past 45, 135, 225 and 315: the paper's regions; exactly on a
 * border both orders are equally good), hysteresis moves the turns h degrees
 * further, and a view wobbling across a border turns the volume on every
 * crossing without hysteresis and never with it. With z the only partner
 * (x trades with z, as in the paper) the border is 45 degrees. The quarter turn is
 * simulated as what it does to the view direction in stored axes (x and the
 * partner z trade places); the GPU test test_storage runs the real one.
 * Where y may be the partner too (a cube), the orbit about y turns once,
 * trading x with y, and stays favourable; quarter turns about y and z reach
 * every voxel order but mirror images, by the fewest turns. */
#include <math.h>
#include <stdlib.h>
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
    if (cvr_rotation_turn(stored, 4, 2, policy, h, 0)) {
      swapped = !swapped;
      if (at) at[turns] = angles[i];
      ++turns;
      const float again[3] = {swapped ? d[2] : d[0], d[1], swapped ? d[0] : d[2]};
      CHECK(!cvr_rotation_turn(again, 4, 2, policy, h, 0), "a turn at %.1f degrees leaves it unfavourable",
            angles[i]);
    }
  }
  return turns;
}

/* The view direction d (volume index space) in a copy of voxel order `order`. */
static void in_copy(const int order[3], const float d[3], float out[3]) {
  for (int a = 0; a < 3; ++a) out[a] = (order[a] > 0 ? 1.0f : -1.0f) * d[abs(order[a]) - 1];
}

/* An orbit about y turning a copy whose x trades with the axes in
 * `partners`; returns the turns, the copy's order after them in order. */
static int orbit_partners(int partners, int order[3]) {
  order[0] = 1, order[1] = 2, order[2] = 3;
  int turns = 0;
  for (int i = 0; i < 720; ++i) { /* twice round */
    const double a = i * 3.14159265358979323846 / 180.0;
    const float d[3] = {(float)sin(a), 0.0f, (float)cos(a)};
    float stored[3];
    in_copy(order, d, stored);
    const int partner = cvr_rotation_turn(stored, partners, 2, CVR_ROTATION_HYSTERESIS, 5.0, 0);
    if (!partner) continue;
    CHECK(partner == cvr_rotation_partner(stored, partners, 2), "the turn's partner");
    cvr_rotation_turn_order(order, partner);
    ++turns;
    in_copy(order, d, stored);
    CHECK(!cvr_rotation_turn(stored, partners, 2, CVR_ROTATION_HYSTERESIS, 5.0, 0),
          "partners %d: a turn at %d degrees leaves it unfavourable", partners, i);
  }
  return turns;
}

static int same(const int a[3], const int b[3]) { return !memcmp(a, b, 3 * sizeof a[0]); }

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
  for (int partners = 2; partners <= 6; partners += 2) {
    CHECK(!cvr_rotation_turn(along_y, partners, 2, CVR_ROTATION_HYSTERESIS, 5.0, 0), "along y");
    CHECK(!cvr_rotation_turn(along_z, partners, 2, CVR_ROTATION_HYSTERESIS, 5.0, 0), "along z");
  }
  CHECK(!cvr_rotation_turn(along_y, 4, 2, CVR_ROTATION_ON_REGION_CHANGE, 0.0, 0) &&
            !cvr_rotation_turn(along_z, 4, 2, CVR_ROTATION_ON_REGION_CHANGE, 0.0, 0),
        "along y or z, z the partner, on region change");
  /* without hysteresis any gain turns: along z, 17 degrees toward x, and
   * 11 after trading x with y */
  CHECK(cvr_rotation_turn(along_z, 2, 2, CVR_ROTATION_ON_REGION_CHANGE, 0.0, 0) == 1,
        "along z, y the partner, on region change");
  /* hysteresis 45: padded for rotation, never turned, even exactly along x */
  const float along_x[3] = {1.0f, 0.0f, 0.0f};
  CHECK(run(orbit, 360, CVR_ROTATION_HYSTERESIS, 45.0, NULL) == 0 &&
            !cvr_rotation_turn(along_x, 6, 2, CVR_ROTATION_HYSTERESIS, 45.0, 0) &&
            cvr_rotation_turn(along_x, 6, 2, CVR_ROTATION_HYSTERESIS, 44.9, 0),
        "hysteresis 45 turned, or 44.9 did not along x");

  /* the partner: the axis the view looks along least, of those allowed */
  const float toward_xz[3] = {0.9f, 0.05f, 0.4f}, toward_xy[3] = {0.9f, -0.4f, 0.05f};
  CHECK(cvr_rotation_partner(toward_xz, 6, 2) == 1 && cvr_rotation_partner(toward_xy, 6, 2) == 2 &&
            cvr_rotation_partner(toward_xz, 4, 2) == 2 && cvr_rotation_partner(toward_xy, 2, 2) == 1,
        "partner choice");
  /* an orbit about y: four turns with z the only partner, one with y too */
  int order[3];
  n = orbit_partners(4, order);
  printf("orbit twice round, partner z: %d turns, order %+d %+d %+d\n", n, order[0], order[1],
         order[2]);
  CHECK(n == 8 && order[1] == 2, "partner z: expected 8 turns about y, got %d", n);
  n = orbit_partners(6, order);
  printf("orbit twice round, partner y or z: %d turns, order %+d %+d %+d\n", n, order[0],
         order[1], order[2]);
  CHECK(n == 1 && abs(order[0]) == 2, "partners y and z: expected one turn putting y along "
        "stored x, got %d turns, order %+d %+d %+d", n, order[0], order[1], order[2]);
  /* with y a partner, the orbit leaves stored x as soon as a turn gains
   * twice the hysteresis: 11 degrees toward x in the xz plane turns (to 0),
   * 9 does not; a view between x and z exactly on the diagonal turns too,
   * where z alone as partner (the same 45 degrees after the turn) would not */
  const double deg = 3.14159265358979323846 / 180.0;
  const float at_9[3] = {(float)sin(9 * deg), 0.0f, (float)cos(9 * deg)},
              at_11[3] = {(float)sin(11 * deg), 0.0f, (float)cos(11 * deg)},
              diagonal[3] = {0.7071068f, 0.0f, -0.7071068f};
  CHECK(!cvr_rotation_turn(at_9, 6, 2, CVR_ROTATION_HYSTERESIS, 5.0, 0) &&
            cvr_rotation_turn(at_11, 6, 2, CVR_ROTATION_HYSTERESIS, 5.0, 0) == 1 &&
            cvr_rotation_turn(diagonal, 6, 2, CVR_ROTATION_HYSTERESIS, 5.0, 0) == 1 &&
            !cvr_rotation_turn(diagonal, 4, 2, CVR_ROTATION_HYSTERESIS, 5.0, 0),
        "partner y: turns from 11 degrees and on the diagonal; partner z: not on the diagonal");
  /* any view: a turn never leaves it calling for the turn back (a frame of a
   * still view turns at most twice, each turn lowering its angle toward x) */
  unsigned seed = 12345u;
  int turned_views = 0;
  for (int i = 0; i < 20000; ++i) {
    float d[3];
    for (int a = 0; a < 3; ++a) {
      seed = seed * 1664525u + 1013904223u;
      d[a] = (float)((seed >> 8) / 8388608.0 - 1.0);
    }
    const int partners = 2 + 2 * (i % 3); /* y, z, or both */
    int at[3] = {1, 2, 3}, turns = 0;
    for (int partner; turns < 4 && (partner = cvr_rotation_turn(d, partners, 2, CVR_ROTATION_HYSTERESIS,
                                                                  5.0, 0)) != 0; ++turns) {
      const float x = d[0];
      d[0] = -d[partner]; /* (as cvr_rotation_turn_order does to the axes) */
      d[partner] = x;
      cvr_rotation_turn_order(at, partner);
    }
    turned_views += turns > 0;
    CHECK(turns <= 2, "a still view turned %d times (%+.3f %+.3f %+.3f, partners %d)", turns, d[0],
          d[1], d[2], partners);
  }
  printf("random views: %d of 20000 turned, none more than twice\n", turned_views);
  CHECK(turned_views > 5000, "only %d of 20000 random views turned", turned_views);

  /* paths: every order quarter turns reach, by the fewest turns */
  const int own[3] = {1, 2, 3};
  int reached = 0, longest = 0;
  for (int p = 0; p < 6; ++p)
    for (int signs = 0; signs < 8; ++signs) {
      static const int perms[6][3] = {{1, 2, 3}, {1, 3, 2}, {2, 1, 3}, {2, 3, 1}, {3, 1, 2}, {3, 2, 1}};
      int to[3], path[8], at[3] = {1, 2, 3};
      for (int a = 0; a < 3; ++a) to[a] = (signs >> a & 1 ? -1 : 1) * perms[p][a];
      const int steps = cvr_rotation_path(own, to, 6, path, 8);
      if (steps < 0) continue;
      ++reached;
      longest = steps > longest ? steps : longest;
      for (int i = 0; i < steps; ++i) cvr_rotation_turn_order(at, path[i]);
      CHECK(same(at, to), "the path to %+d %+d %+d ends elsewhere", to[0], to[1], to[2]);
      /* its mirror image is out of reach */
      const int mirror[3] = {-to[0], to[1], to[2]};
      CHECK(cvr_rotation_path(own, mirror, 6, path, 8) < 0, "a mirror image reached");
    }
  printf("quarter turns about y and z reach %d voxel orders, in at most %d turns\n", reached,
         longest);
  CHECK(reached == 24 && longest <= 5, "reached %d orders, longest path %d", reached, longest);
  int path[8];
  const int half[3] = {-1, 2, -3}, about_x[3] = {1, -3, 2};
  CHECK(cvr_rotation_path(own, half, 4, path, 8) == 2 && cvr_rotation_path(own, about_x, 4, path, 8) < 0 &&
            cvr_rotation_path(own, own, 6, path, 8) == 0 && cvr_rotation_path(own, about_x, 6, path, 1) < 0,
        "paths about z alone, to itself, or longer than allowed");
  /* Warp marching's rule (along_rays): stored x turns toward the rays,
   * trading with the partner the view runs along most, past the same
   * margin; a view along x stays. */
  {
    const float along_z[3] = {0.0f, 0.0f, 1.0f}, along_y[3] = {0.0f, 1.0f, 0.0f}, along_x[3] = {1.0f, 0.0f, 0.0f};
    CHECK(cvr_rotation_turn(along_z, 6, 2, CVR_ROTATION_HYSTERESIS, 5.0, 1) == 2 &&
              cvr_rotation_turn(along_y, 6, 2, CVR_ROTATION_HYSTERESIS, 5.0, 1) == 1 &&
              !cvr_rotation_turn(along_x, 6, 2, CVR_ROTATION_HYSTERESIS, 5.0, 1) &&
              !cvr_rotation_turn(along_y, 4, 2, CVR_ROTATION_HYSTERESIS, 5.0, 1),
          "warp marching: x turns toward the rays, with the partner they run along most (none "
          "where trading with z leaves a view along y as it was)");
    /* in the xz plane, 60 and 48 degrees from x: the first is 15 past the
     * border, the second 3 */
    const double r = 3.14159265358979323846 / 180.0;
    const float at_60[3] = {(float)cos(60 * r), 0.0f, (float)sin(60 * r)};
    const float at_48[3] = {(float)cos(48 * r), 0.0f, (float)sin(48 * r)};
    CHECK(cvr_rotation_turn(at_60, 4, 2, CVR_ROTATION_HYSTERESIS, 5.0, 1) == 2 &&
              !cvr_rotation_turn(at_48, 4, 2, CVR_ROTATION_HYSTERESIS, 5.0, 1) &&
              cvr_rotation_turn(at_48, 4, 2, CVR_ROTATION_ON_REGION_CHANGE, 0.0, 1) == 2 &&
              !cvr_rotation_turn(at_60, 4, 2, CVR_ROTATION_NEVER, 0.0, 1),
          "warp marching: the margin and the policy as for one thread a ray");
    /* the two rules never both turn a view: what one gains the other loses */
    int both = 0;
    for (int i = 0; i < 2000; ++i) {
      const float d[3] = {(float)(rand() % 2001 - 1000), (float)(rand() % 2001 - 1000),
                          (float)(rand() % 2001 - 1000)};
      const int a = cvr_rotation_turn(d, 4, 2, CVR_ROTATION_HYSTERESIS, 2.0, 0);
      const int b = cvr_rotation_turn(d, 4, 2, CVR_ROTATION_HYSTERESIS, 2.0, 1);
      both += a && b;
    }
    CHECK(both == 0, "%d views turned by both rules", both);
  }
  return cvr_test_finish("test_rotation_policy");
}
