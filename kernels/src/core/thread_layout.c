// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* How strategies lay rays on threads: the block-shape strategy's rule and
 * warp marching's rays a warp.
 *
 * Thread-block shape selection (Sugimoto, Ino and Hagihara 2012, section
 * 4.2), for any view: a warp samples a plane parallel to the screen, and the
 * texture's 2D slices are z-ordered, so memory strides along the volume's x,
 * y and z axes are about 1:2:6. The volume plane most parallel to the screen
 * is the one whose normal axis is closest to the viewing direction; of its
 * two axes the one of smaller stride (x before y before z) is primary; warps
 * should run along the primary axis on screen: horizontal warps (a wide
 * block) when it runs more horizontally, vertical ones (a tall block)
 * otherwise. Directions are taken in index space, where the strides are. */
#include <math.h>

#include "cvr_internal.h"
#include "raycast.h"

void cvr_view_direction_index(const cvr_ray_params *p, float dir[3]) {
  if (p->perspective) {
    float eye[3];
    cvr_transform_affine(p->world_to_index, p->eye, eye);
    for (int a = 0; a < 3; ++a) dir[a] = 0.5f * (p->box_min[a] + p->box_max[a]) - eye[a];
  } else {
    float near_w[3], far_w[3], d[3];
    cvr_transform_point4(p->clip_to_world, 0.0f, 0.0f, -1.0f, near_w);
    cvr_transform_point4(p->clip_to_world, 0.0f, 0.0f, 1.0f, far_w);
    for (int a = 0; a < 3; ++a) d[a] = far_w[a] - near_w[a];
    cvr_transform_vector(p->world_to_index, d, dir);
  }
}

void cvr_screen_steps_index(const cvr_ray_params *p, float right[3], float up[3]) {
  float c[3], r[3], u[3];
  cvr_transform_point4(p->clip_to_world, 0.0f, 0.0f, 0.0f, c);
  cvr_transform_point4(p->clip_to_world, 2.0f / (float)p->width, 0.0f, 0.0f, r);
  cvr_transform_point4(p->clip_to_world, 0.0f, 2.0f / (float)p->height, 0.0f, u);
  for (int a = 0; a < 3; ++a) {
    r[a] -= c[a];
    u[a] -= c[a];
  }
  cvr_transform_vector(p->world_to_index, r, right);
  cvr_transform_vector(p->world_to_index, u, up);
}

void cvr_choose_block_shape_for(const cvr_ray_params *p, cvr_block_shape_choice *out) {
  float dir[3];
  cvr_view_direction_index(p, dir);
  int normal = 0;
  for (int a = 1; a < 3; ++a)
    if (fabsf(dir[a]) > fabsf(dir[normal])) normal = a;
  const int primary = normal == 0 ? 1 : 0;
  /* how far a pixel's step right and up each move along the primary axis */
  float u[3], v[3];
  cvr_screen_steps_index(p, u, v);
  out->plane_normal_axis = normal;
  out->primary_axis = primary;
  out->horizontal = fabsf(u[primary]) >= fabsf(v[primary]);
}

/* Warp marching's rays a warp on screen (cvr_render_settings.warp_rays). */
void cvr_warp_rays_layout(const cvr_render_settings *s, int rays[2]) {
  rays[0] = s->warp_rays[0];
  rays[1] = s->warp_rays[1];
  if (rays[0] || rays[1]) return;
  /* the squarest layout of 32 / width rays, the wider side across */
  const int n = 32 / s->warp_width;
  rays[1] = 1;
  while (4 * rays[1] * rays[1] <= n) rays[1] *= 2;
  rays[0] = n / rays[1];
}
