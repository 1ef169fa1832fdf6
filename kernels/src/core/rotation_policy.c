// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* When to turn the volume (Misaki et al., generalized to any view): memory
 * strides are smallest along the stored x axis, so a view is unfavourable
 * when it looks along stored x (warps then sample the yz plane): by its
 * angle toward x, atan(|d_x| / max(|d_y|, |d_z|)). A quarter turn makes
 * stored x the old partner axis (cvr_rotation_partner), which gives the view
 * another angle; the border between the two orders is where both angles are
 * equal. The volume is turned once the turn lowers the angle by more than
 * twice `hysteresis` (the view is that far past the border), so the turned
 * view takes the same margin back across it to turn again. For the paper's
 * orbit about y (x trades with z) the border is 45 degrees and the turns
 * come `hysteresis` degrees past it. A volume whose y is as long as x may
 * trade x with y instead, which takes an orbit about y out of stored x
 * altogether: such a view is unfavourable from a few degrees on, as the
 * 2048^3 micro-benchmark shows (rays 15 degrees off z in the xz plane ran at
 * two thirds the speed of the same rays in the yz plane).
 *
 * Warp marching is the other way round: its lanes take consecutive samples
 * of a ray, so its favourable views look along stored x (Wang et al.'s best
 * faces the ZY plane), and its copy turns to bring x toward the rays
 * (cvr_rotation_turn's along_rays). */
#include <math.h>
#include <string.h>

#include "cvr_internal.h"

/* degrees toward stored x of a direction (x, y, z) */
static double x_angle(double x, double y, double z) {
  return atan2(fabs(x), fmax(fabs(y), fabs(z))) * (180.0 / 3.14159265358979323846);
}

/* Of the partners in `partners`, the one the view runs along least (most:
 * warp marching's turn); fallback where y and z tie. */
static int partner_by(const float dir[3], int partners, int fallback, int most) {
  const int y = (partners >> 1) & 1, z = (partners >> 2) & 1;
  if (!(y && z)) return y ? 1 : z ? 2 : fallback;
  const float dy = most ? fabsf(dir[2]) : fabsf(dir[1]), dz = most ? fabsf(dir[1]) : fabsf(dir[2]);
  return dy < dz ? 1 : dz < dy ? 2 : fallback;
}

int cvr_rotation_turn(const float dir[3], int partners, int fallback, cvr_rotation_policy policy,
                      double hysteresis, int along_rays) {
  if (policy == CVR_ROTATION_NEVER) return 0;
  if (!along_rays && !(fabsf(dir[0]) > 0.0f)) return 0;
  const double margin = policy == CVR_ROTATION_HYSTERESIS ? hysteresis : 0.0;
  const int partner = partner_by(dir, partners, fallback, along_rays);
  if (partner != 1 && partner != 2) return 0;
  const int other = 3 - partner;
  const double now = x_angle(dir[0], dir[1], dir[2]);
  const double turned = x_angle(dir[partner], dir[0], dir[other]);
  /* one thread a ray: a turn that lowers the view's angle toward x; warp
   * marching: one that raises it */
  const double gain = along_rays ? turned - now : now - turned;
  return gain > 2.0 * margin ? partner : 0;
}

int cvr_rotation_partner(const float dir[3], int partners, int fallback) {
  return partner_by(dir, partners, fallback, 0);
}

void cvr_rotation_turn_order(int order[3], int partner) {
  const int x = order[0];
  order[0] = -order[partner];
  order[partner] = x;
}

int cvr_rotation_path(const int from[3], const int to[3], int partners, int path[], int max) {
  /* breadth first over the orders turns reach (24 of the 48 signed
   * permutations: turns keep handedness) */
  enum { ORDERS = 48 };
  int queue[ORDERS][3], parent[ORDERS], via[ORDERS], head = 0, tail = 0;
  memcpy(queue[tail], from, sizeof queue[0]);
  parent[tail] = -1;
  via[tail++] = 0;
  while (head < tail) {
    const int at = head++;
    if (!memcmp(queue[at], to, sizeof queue[0])) {
      int n = 0;
      for (int q = at; parent[q] >= 0; q = parent[q]) ++n;
      if (n > max) return -1;
      for (int q = at, i = n; parent[q] >= 0; q = parent[q]) path[--i] = via[q];
      return n;
    }
    for (int p = 1; p <= 2; ++p) {
      if (!((partners >> p) & 1) || tail == ORDERS) continue;
      int next[3];
      memcpy(next, queue[at], sizeof next);
      cvr_rotation_turn_order(next, p);
      int seen = 0;
      for (int q = 0; q < tail && !seen; ++q) seen = !memcmp(queue[q], next, sizeof next);
      if (seen) continue;
      memcpy(queue[tail], next, sizeof next);
      parent[tail] = at;
      via[tail++] = p;
    }
  }
  return -1;
}

void cvr_reorient_sample_params(const cvr_ray_params *in, const int axis[3], const int sign[3],
                                const int offset[3], cvr_ray_params *out) {
  const cvr_ray_params p = *in; /* out may be in */
  for (int s = 0; s < 3; ++s) {
    const int a = axis[s];
    const float g = (float)sign[s];
    /* gradients are taken along stored axes: d/ds = sign * d/di[axis] */
    for (int r = 0; r < 3; ++r)
      out->shading.gradient_to_world[3 * r + s] = g * p.shading.gradient_to_world[3 * r + a];
    out->gradient_scale[s] = p.gradient_scale[a];
    /* cropping planes are texel coordinates (index + 0.5): a flipped axis
     * maps texel x to offset + 1 - x, and swaps its two planes */
    const float shift = (float)offset[s] + 0.5f * (1.0f - g);
    out->crop[2 * s] = sign[s] > 0 ? p.crop[2 * a] + shift : shift - p.crop[2 * a + 1];
    out->crop[2 * s + 1] = sign[s] > 0 ? p.crop[2 * a + 1] + shift : shift - p.crop[2 * a];
    /* scattering's lights: positions as the planes, directions turned */
    const cvr_scattering_params *in_sc = &p.shading.scattering;
    cvr_scattering_params *sc = &out->shading.scattering;
    sc->texels[s] = in_sc->texels[a];
    sc->density_scale[s] = in_sc->density_scale[a];
    for (int i = 0; i < p.shading.light_count; ++i)
      sc->light[i][s] = g * in_sc->light[i][a] +
                        (p.shading.lights[i].type == CVR_LIGHT_POSITIONAL ? shift : 0.0f);
  }
  /* region (x, y, z) of the stored copy is region (c[0], c[1], c[2]) of the
   * volume, a flipped axis counting its regions backwards */
  out->crop_flags = 0;
  for (int r = 0; r < 27; ++r) {
    const int stored[3] = {r % 3, r / 3 % 3, r / 9};
    int c[3];
    for (int s = 0; s < 3; ++s) c[axis[s]] = sign[s] > 0 ? stored[s] : 2 - stored[s];
    if ((p.crop_flags >> (c[0] + 3 * c[1] + 9 * c[2])) & 1u) out->crop_flags |= 1u << r;
  }
}

void cvr_reorient_ray_params(const cvr_ray_params *in, const int axis[3], const int sign[3],
                             const int offset[3], cvr_ray_params *out) {
  const cvr_ray_params p = *in; /* out may be in */
  *out = p;
  for (int s = 0; s < 3; ++s) {
    const int a = axis[s];
    const float g = (float)sign[s];
    for (int c = 0; c < 4; ++c) out->world_to_index[4 * s + c] = g * p.world_to_index[4 * a + c];
    out->world_to_index[4 * s + 3] += (float)offset[s];
    out->box_min[s] = sign[s] > 0 ? p.box_min[a] + offset[s] : offset[s] - p.box_max[a];
    out->box_max[s] = sign[s] > 0 ? p.box_max[a] + offset[s] : offset[s] - p.box_min[a];
    out->lattice_min[s] = sign[s] > 0 ? p.lattice_min[a] + offset[s] : offset[s] - p.lattice_max[a];
    out->lattice_max[s] = sign[s] > 0 ? p.lattice_max[a] + offset[s] : offset[s] - p.lattice_min[a];
  }
  cvr_reorient_sample_params(&p, axis, sign, offset, out);
}
