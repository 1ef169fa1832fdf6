// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Shading (raycast.h): gradients, the lights a sample sees, Phong, and
 * volumetric scattering's shadow rays. */
#ifndef CVR_RAY_SHADE_H
#define CVR_RAY_SHADE_H

#include "ray_blend.h"

/* Index-space gradient at a sample from its six neighbours one voxel away
 * (+x, -x, +y, -y, +z, -z): central differences per index unit. */
CVR_HD void cvr_gradient(const float neighbours[6], float gradient[3]) {
  for (int a = 0; a < 3; ++a) gradient[a] = 0.5f * (neighbours[2 * a] - neighbours[2 * a + 1]);
}

CVR_HD float cvr_dot3(const float *a, const float *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

CVR_HD void cvr_cross3(const float *a, const float *b, float *out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/* Gradients of the slab strategy (Mensmann et al. section 5.2), taken in eye
 * space from the slab cache: central differences D = (f(+) - f(-)) / 2 with
 * the neighbouring rays across (u) and up (v) at the same lattice index, and
 * with the ray's own previous and next samples (t). Each difference measures
 * the gradient g along the half distance between its two samples: a_u.g,
 * a_v.g and step.g. For parallel projection a_u is half the difference of
 * the neighbours' origins (their steps are equal); for perspective the rays
 * share the eye as origin and a_u = t (step_right - step_left) / 2 grows
 * with the lattice parameter t. So a_u = c A_u with c = 1 or t, and the
 * index-space gradient solves  [A_u; A_v; step] g = (D_u / c, D_v / c, D_t).
 * The basis holds the inverse's columns; 0 when the rays are degenerate. */
typedef struct cvr_eye_basis {
  float column[3][3];
} cvr_eye_basis;

CVR_HD int cvr_eye_basis_invert(const float a_u[3], const float a_v[3], const float step[3],
                                cvr_eye_basis *out) {
  cvr_cross3(a_v, step, out->column[0]);
  cvr_cross3(step, a_u, out->column[1]);
  cvr_cross3(a_u, a_v, out->column[2]);
  const float det = cvr_dot3(a_u, out->column[0]);
  const int ok = det != 0.0f && det == det;
  for (int c = 0; c < 3; ++c)
    for (int a = 0; a < 3; ++a) out->column[c][a] = ok ? out->column[c][a] / det : 0.0f;
  return ok;
}

/* The basis of a ray from its neighbours' lines (cvr_ray_line; left, right,
 * below, above), whose origin and step are in the same coordinates as ray's. */
CVR_HD int cvr_eye_basis_for(int perspective, const cvr_ray *ray, const cvr_ray *left,
                             const cvr_ray *right, const cvr_ray *below, const cvr_ray *above,
                             cvr_eye_basis *out) {
  float a_u[3], a_v[3];
  for (int a = 0; a < 3; ++a) {
    a_u[a] = perspective ? 0.5f * (right->step[a] - left->step[a])
                         : 0.5f * (right->origin[a] - left->origin[a]);
    a_v[a] = perspective ? 0.5f * (above->step[a] - below->step[a])
                         : 0.5f * (above->origin[a] - below->origin[a]);
  }
  return cvr_eye_basis_invert(a_u, a_v, ray->step, out);
}

/* The index-space gradient from the three central differences at lattice
 * parameter t (perspective: the lateral ones scale with 1 / t). */
CVR_HD void cvr_eye_gradient(const cvr_eye_basis *b, int perspective, float t, float d_u,
                             float d_v, float d_t, float gradient[3]) {
  const float c = perspective ? 1.0f / t : 1.0f;
  const float r[3] = {d_u * c, d_v * c, d_t};
  for (int a = 0; a < 3; ++a)
    gradient[a] = b->column[0][a] * r[0] + b->column[1][a] * r[1] + b->column[2][a] * r[2];
}

/* Light l as the sample at parameter t of a ray sees it: the unit direction
 * towards it (world space) and, returned, its attenuation (positional
 * lights, spots). v: the unit direction towards the eye. */
CVR_HD float cvr_light_toward(const cvr_light_params *l, const cvr_ray *ray, float t,
                              const float v[3], float dir[3]) {
  if (l->type == 0) { /* headlight: along the ray, towards the eye */
    for (int a = 0; a < 3; ++a) dir[a] = v[a];
    return 1.0f;
  }
  if (l->type == 1) {
    for (int a = 0; a < 3; ++a) dir[a] = -l->direction[a];
    return 1.0f;
  }
  float dist2 = 0.0f;
  for (int a = 0; a < 3; ++a) {
    dir[a] = l->position[a] - (ray->world_origin[a] + t * ray->world_step[a]);
    dist2 += dir[a] * dir[a];
  }
  const float dist = sqrtf(dist2);
  for (int a = 0; a < 3; ++a) dir[a] = dist > 0.0f ? dir[a] / dist : 0.0f;
  float att = 1.0f / (l->attenuation[0] + l->attenuation[1] * dist + l->attenuation[2] * dist2);
  if (l->spot) {
    const float cone = -cvr_dot3(dir, l->direction);
    att = cone >= l->cos_cone ? att * powf(cone, l->exponent) : 0.0f;
  }
  return att;
}

/* The unit direction from a sample of a ray towards the eye (world). */
CVR_HD void cvr_toward_eye(const cvr_ray *ray, float v[3]) {
  for (int a = 0; a < 3; ++a) v[a] = -ray->world_step[a];
  const float v_len = sqrtf(cvr_dot3(v, v));
  for (int a = 0; a < 3; ++a) v[a] /= v_len;
}

/* Phong-shades a classified sample (cvr.h, cvr_shading): the colour becomes
 * the lit colour, the opacity stays. gradient is in index space; t places the
 * sample on the ray (for positional lights). */
CVR_HD cvr_rgba cvr_shade(const cvr_shading_params *sh, const cvr_ray *ray, float t,
                          const float gradient[3], cvr_rgba s) {
  float n[3], v[3]; /* v as cvr_toward_eye */
  for (int r = 0; r < 3; ++r) {
    const float *m = sh->gradient_to_world + 3 * r;
    n[r] = -(m[0] * gradient[0] + m[1] * gradient[1] + m[2] * gradient[2]);
    v[r] = -ray->world_step[r];
  }
  const float n_len = sqrtf(cvr_dot3(n, n)), v_len = sqrtf(cvr_dot3(v, v));
  const int lit = n_len > 0.0f;
  for (int a = 0; a < 3; ++a) {
    n[a] = lit ? n[a] / n_len : 0.0f;
    v[a] /= v_len;
  }
  float ambient[3] = {0.0f, 0.0f, 0.0f}, diffuse[3] = {0.0f, 0.0f, 0.0f};
  float specular[3] = {0.0f, 0.0f, 0.0f};
  CVR_NO_UNROLL /* (a kernel inlines this at every sample it shades: one copy of the body) */
  for (int i = 0; i < sh->light_count; ++i) {
    const cvr_light_params *l = &sh->lights[i];
    for (int c = 0; c < 3; ++c) ambient[c] += l->ambient[c];
    if (!lit) continue;
    float dir[3]; /* from the sample towards the light */
    const float att = cvr_light_toward(l, ray, t, v, dir);
    float h[3];
    for (int a = 0; a < 3; ++a) h[a] = dir[a] + v[a];
    const float h_len = sqrtf(cvr_dot3(h, h));
    float ndl = cvr_dot3(n, dir), ndh = h_len > 0.0f ? cvr_dot3(n, h) / h_len : 0.0f;
    if (sh->two_sided) {
      ndl = fabsf(ndl);
      ndh = fabsf(ndh);
    }
    const float d = att * cvr_maxf(ndl, 0.0f);
    const float sp = ndh > 0.0f ? att * powf(ndh, sh->power) : 0.0f;
    for (int c = 0; c < 3; ++c) {
      diffuse[c] += d * l->diffuse[c];
      specular[c] += sp * l->specular[c];
    }
  }
  cvr_rgba out;
  if (sh->normals_as_color) {
    out.r = 0.5f * (n[0] + 1.0f);
    out.g = 0.5f * (n[1] + 1.0f);
    out.b = 0.5f * (n[2] + 1.0f);
    out.a = s.a;
    return out;
  }
  out.r = sh->ambient * ambient[0] * s.r + sh->diffuse * diffuse[0] * s.r + sh->specular * specular[0];
  out.g = sh->ambient * ambient[1] * s.g + sh->diffuse * diffuse[1] * s.g + sh->specular * specular[1];
  out.b = sh->ambient * ambient[2] * s.b + sh->diffuse * diffuse[2] * s.b + sh->specular * specular[2];
  out.a = s.a;
  return out;
}

/* ---- volumetric scattering (cvr.h, cvr_shading) ---------------------------
 * A shaded sample's shadow rays are marched by each backend with its own
 * sampler (cvr_shadow_setup, cvr_shadow_opacity); the light they let
 * through, per light, goes to cvr_scatter, which mixes the scattered light
 * with the Phong colour. */

/* VTK's Henyey-Greenstein phase function, 1 where isotropic; cos_angle
 * between the light's travel and the way to the eye (|g| = 1: a spike,
 * taken as 0 where 0 / 0). */
CVR_HD float cvr_phase(float g, float cos_angle) {
  if (g == 0.0f) return 1.0f;
  const float g2 = g * g, d = 1.0f + g2 - 2.0f * g * cos_angle;
  return d > 0.0f ? (1.0f - g2) / (d * sqrtf(d)) : 0.0f;
}

/* One shadow ray: sample k at start + k step, texel coordinates of the
 * sampled copy; it stops once the light through it is below cutoff. */
typedef struct cvr_shadow_ray {
  float start[3], step[3];
  float cutoff;
} cvr_shadow_ray;

/* Light i's shadow ray from the sample at texel position pos of a ray, as
 * VTK's volumeShadow marches it: in texture space (the volume the unit
 * cube) with the ray's step, from one step towards the light on, to the
 * volume's edge, the light or the reach. Returns its number of samples (0:
 * the light arrives whole). */
CVR_HD int cvr_shadow_setup(const cvr_shading_params *sh, int i, const cvr_ray *ray,
                            const float pos[3], cvr_shadow_ray *out) {
  const cvr_scattering_params *sc = &sh->scattering;
  const int type = sh->lights[i].type;
  float p[3], d[3], step[3];
  for (int a = 0; a < 3; ++a) {
    const float toward = type == 0 ? -ray->step[a] : type == 1 ? sc->light[i][a]
                                                               : sc->light[i][a] - pos[a];
    p[a] = pos[a] / sc->texels[a];
    d[a] = toward / sc->texels[a];
    step[a] = ray->step[a] / sc->texels[a];
  }
  const float len = sqrtf(cvr_dot3(d, d)), length_step = sqrtf(cvr_dot3(step, step));
  if (!(len > 0.0f) || !(length_step > 0.0f)) return 0;
  float t_in = -3.0e38f, t_out = 3.0e38f;
  for (int a = 0; a < 3; ++a) {
    d[a] /= len;
    p[a] += length_step * d[a];
    if (d[a] != 0.0f) {
      const float t0 = -p[a] / d[a], t1 = (1.0f - p[a]) / d[a];
      t_in = cvr_maxf(t_in, cvr_minf(t0, t1));
      t_out = cvr_minf(t_out, cvr_maxf(t0, t1));
    } else if (p[a] < 0.0f || p[a] > 1.0f) {
      return 0;
    }
  }
  if (!(t_out > cvr_maxf(t_in, 0.0f)) || t_out < length_step) return 0;
  float reach = cvr_minf(t_out, sc->reach);
  if (type == 2) reach = cvr_minf(reach, len - length_step);
  if (!(reach >= 0.001f)) return 0; /* VTK's epsilon */
  for (int a = 0; a < 3; ++a) {
    out->start[a] = p[a] * sc->texels[a];
    out->step[a] = length_step * d[a] * sc->texels[a];
  }
  out->cutoff = sc->cutoff;
  return (int)ceilf(reach / length_step);
}

/* Whether a shadow sample's opacity needs its gradient (cvr_shadow_opacity). */
CVR_HD int cvr_shadow_needs_gradient(const cvr_ray_params *p) {
  return p->components == 1 && (p->gradient_opacity || p->tf2d);
}

/* Mixes a sample's scattered light into its Phong colour lit (cvr.h):
 * s is the classified sample (straight colour, its opacity before gradient
 * opacity), gradient its index-space gradient, through[i] the light the
 * shadow ray towards light i let through. */
CVR_HD cvr_rgba cvr_scatter(const cvr_shading_params *sh, const cvr_ray *ray, float t,
                            const float gradient[3], cvr_rgba s, cvr_rgba lit,
                            const float *through) {
  const cvr_scattering_params *sc = &sh->scattering;
  if (sh->normals_as_color) return lit;
  float v[3];
  cvr_toward_eye(ray, v);
  float scattered[3] = {0.0f, 0.0f, 0.0f};
  CVR_NO_UNROLL
  for (int i = 0; i < sh->light_count; ++i) {
    const cvr_light_params *l = &sh->lights[i];
    float dir[3];
    const float att = cvr_light_toward(l, ray, t, v, dir);
    /* the light travels along -dir, then towards the eye: a headlight's
     * light comes straight back */
    const float phase = cvr_phase(sc->anisotropy, l->type == 0 ? -1.0f : -cvr_dot3(dir, v));
    const float k = through[i] * phase * att * sh->diffuse;
    const float ambient = l->type == 0 ? 0.0f : sh->ambient;
    scattered[0] += k * l->diffuse[0] * s.r + ambient * l->ambient[0];
    scattered[1] += k * l->diffuse[1] * s.g + ambient * l->ambient[1];
    scattered[2] += k * l->diffuse[2] * s.b + ambient * l->ambient[2];
  }
  float g = 1.0f;
  if (!sc->unit_gradient) {
    const float x = gradient[0] * sc->density_scale[0], y = gradient[1] * sc->density_scale[1];
    const float z = gradient[2] * sc->density_scale[2];
    g = sqrtf(x * x + y * y + z * z);
  } else if (gradient[0] == 0.0f && gradient[1] == 0.0f && gradient[2] == 0.0f) {
    g = 0.0f;
  }
  const float b = sc->blend, e = expf(-2.0f * b * g * s.a);
  const float w = sc->above_one ? 2.0f * (1.0f - b) * e + 2.0f * b - 1.0f : 2.0f * b * e;
  lit.r = (1.0f - w) * lit.r + w * scattered[0];
  lit.g = (1.0f - w) * lit.g + w * scattered[1];
  lit.b = (1.0f - w) * lit.b + w * scattered[2];
  return lit;
}

#endif /* CVR_RAY_SHADE_H */
