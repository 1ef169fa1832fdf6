// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* From the public shading settings to the per-frame shading parameters. */
#include <math.h>
#include <string.h>

#include "cvr_internal.h"

void cvr_build_shading_params(const cvr_shading *in, const float world_to_index[12],
                              cvr_shading_params *out) {
  memset(out, 0, sizeof *out);
  out->enabled = in->enabled != 0;
  if (!out->enabled) return;
  out->two_sided = in->two_sided != 0;
  out->light_count = in->light_count;
  out->ambient = (float)in->ambient;
  out->diffuse = (float)in->diffuse;
  out->specular = (float)in->specular;
  out->power = (float)in->specular_power;
  /* gradients are covectors: they go to world space by the transpose of
   * world_to_index's linear part */
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) out->gradient_to_world[3 * r + c] = world_to_index[4 * c + r];
  for (int i = 0; i < in->light_count; ++i) {
    const cvr_light *l = &in->lights[i];
    cvr_light_params *p = &out->lights[i];
    p->type = (int)l->type;
    double d[3], len = 0.0;
    for (int a = 0; a < 3; ++a) {
      p->ambient[a] = (float)l->ambient[a];
      p->diffuse[a] = (float)l->diffuse[a];
      p->specular[a] = (float)l->specular[a];
      p->position[a] = (float)l->position[a];
      p->attenuation[a] = (float)l->attenuation[a];
      d[a] = l->focal_point[a] - l->position[a];
      len += d[a] * d[a];
    }
    len = sqrt(len);
    for (int a = 0; a < 3; ++a) p->direction[a] = len > 0.0 ? (float)(d[a] / len) : 0.0f;
    if (l->type == CVR_LIGHT_POSITIONAL && p->attenuation[0] + p->attenuation[1] +
                                               p->attenuation[2] <= 0.0f)
      p->attenuation[0] = 1.0f; /* no attenuation given: none */
    /* a sample at the light itself: the distance terms vanish, the constant
     * one keeps the attenuation finite */
    if (p->attenuation[0] < 1e-6f) p->attenuation[0] = 1e-6f;
    p->spot = l->type == CVR_LIGHT_POSITIONAL && l->cone_angle < 90.0 && len > 0.0;
    p->cos_cone = (float)cos(l->cone_angle * 3.14159265358979323846 / 180.0);
    p->exponent = (float)l->exponent;
  }
}
