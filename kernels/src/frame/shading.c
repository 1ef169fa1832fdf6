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

int cvr_shading_scatters(const cvr_shading *in, cvr_blend_mode mode) {
  return in->enabled && in->scattering_blend > 0.0 && in->light_count > 0 &&
         (mode == CVR_BLEND_COMPOSITE || mode == CVR_BLEND_ISOSURFACE || mode == CVR_BLEND_SLICE);
}

void cvr_build_scattering_params(const cvr_shading *in, const cvr_volume *volume,
                                 const cvr_transfer_function *tf, double sample_distance,
                                 cvr_blend_mode mode, cvr_ray_params *ray) {
  cvr_scattering_params *out = &ray->shading.scattering;
  memset(out, 0, sizeof *out);
  if (!cvr_shading_scatters(in, mode)) return;
  const float *m = ray->world_to_index;
  out->blend = (float)(in->scattering_blend / 2.0);
  out->above_one = in->scattering_blend >= 1.0;
  const double g = fabs(in->scattering_anisotropy) < 0.01 ? 0.0 : in->scattering_anisotropy;
  out->anisotropy = (float)g;
  /* the phase function's largest value, (1 + |g|) / (1 - |g|)^2 (infinite
   * at |g| = 1: the rays then never stop early) */
  const double peak = g == 0.0 ? 1.0 : (1.0 + fabs(g)) / ((1.0 - fabs(g)) * (1.0 - fabs(g)));
  out->cutoff = (float)(1.0 / 4096.0 / peak);
  /* |G|: the value over the volume's range (0..1), over two voxels, per
   * unit of spacing; a sampled value is tf_size - 1 entries per
   * (tf->range[1] - tf->range[0]) data units over tf_scale */
  const double span = volume->range[1] > volume->range[0] ? volume->range[1] - volume->range[0] : 1.0;
  const double data_per_sampled =
      ray->tf_scale * (tf->range[1] - tf->range[0]) / (ray->tf_size > 1 ? ray->tf_size - 1 : 1);
  /* index axis a is 1 / |row a| world units a voxel; the extent is VTK's
   * bounds (point data from the first voxel centre to the last) */
  double longest = 0.0;
  for (int a = 0; a < 3; ++a) {
    const double row = sqrt((double)m[4 * a] * m[4 * a] + (double)m[4 * a + 1] * m[4 * a + 1] +
                            (double)m[4 * a + 2] * m[4 * a + 2]);
    const double spacing = fabs(volume->spacing[a]) > 0.0 ? fabs(volume->spacing[a]) : 1.0;
    out->texels[a] = (float)volume->dims[a];
    out->density_scale[a] = (float)(2.0 * data_per_sampled / span / spacing);
    const double extent = (volume->cell_data ? volume->dims[a] : volume->dims[a] - 1) / row;
    if (row > 0.0 && extent > longest) longest = extent;
  }
  /* VTK's mapping of the reach to texture units: from one sample (over the
   * longest extent) to the cube's diagonal */
  const double shortest = longest > 0.0 ? sample_distance / longest : 0.0, diagonal = sqrt(3.0);
  out->reach = (float)((shortest - diagonal) * pow(1.0 - in->scattering_reach, 0.33) + diagonal);
  out->unit_gradient = ray->gradient_opacity || ray->component_gradients;
  for (int i = 0; i < in->light_count; ++i) {
    const cvr_light_params *l = &ray->shading.lights[i];
    for (int a = 0; a < 3; ++a) {
      const float *row = m + 4 * a;
      if (l->type == CVR_LIGHT_POSITIONAL) /* its texel position */
        out->light[i][a] = row[0] * l->position[0] + row[1] * l->position[1] +
                           row[2] * l->position[2] + row[3] + 0.5f;
      else if (l->type == CVR_LIGHT_DIRECTIONAL) /* towards it */
        out->light[i][a] = -(row[0] * l->direction[0] + row[1] * l->direction[1] +
                             row[2] * l->direction[2]);
    }
  }
}
