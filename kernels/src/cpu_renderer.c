// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The CPU renderer: the reference every CUDA strategy is tested against, and
 * the fallback without a GPU. Threads work on image tiles of w x h pixels,
 * assigned statically (round robin) or dynamically (a shared counter), as in
 * Bethel and Howison. Sampling emulates the texture unit (clamp addressing,
 * 8-bit fractional filter weights) so the two backends agree closely. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cvr_internal.h"

int cvr_cpu_default_threads(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : (n > 4096 ? 4096 : (int)n);
}

typedef struct cpu_volume {
  const void *data;
  int components; /* values per voxel, interleaved */
  int dims[3];
  size_t stride_y, stride_z;
  int nearest;
  int weights; /* CVR_WEIGHTS_* */
} cpu_volume;

#define CVR_ALWAYS_INLINE static inline __attribute__((always_inline))

/* One texel of each stored type, as the texture unit returns it. */
CVR_ALWAYS_INLINE float texel_u8(const void *d, size_t i) { return cvr_texel_u8(((const uint8_t *)d)[i]); }
CVR_ALWAYS_INLINE float texel_s8(const void *d, size_t i) { return cvr_texel_s8(((const int8_t *)d)[i]); }
CVR_ALWAYS_INLINE float texel_u16(const void *d, size_t i) { return cvr_texel_u16(((const uint16_t *)d)[i]); }
CVR_ALWAYS_INLINE float texel_s16(const void *d, size_t i) { return cvr_texel_s16(((const int16_t *)d)[i]); }
CVR_ALWAYS_INLINE float texel_f32(const void *d, size_t i) { return ((const float *)d)[i]; }

typedef float (*texel_fn)(const void *, size_t);

/* Texture-unit filtering at texel coordinate p (index position + 0.5), the
 * shared filter of raycast.h over array-order data. */
CVR_ALWAYS_INLINE float sample_volume(const cpu_volume *v, texel_fn texel, const float p[3]) {
  if (v->nearest)
    return texel(v->data, (size_t)cvr_nearest_texel(p[0], v->dims[0]) +
                              (size_t)cvr_nearest_texel(p[1], v->dims[1]) * v->stride_y +
                              (size_t)cvr_nearest_texel(p[2], v->dims[2]) * v->stride_z);
  int i0[3], i1[3];
  float w[3];
  for (int a = 0; a < 3; ++a) w[a] = cvr_filter_axis(p[a], v->dims[a], v->weights, &i0[a], &i1[a]);
  const size_t y0 = (size_t)i0[1] * v->stride_y, y1 = (size_t)i1[1] * v->stride_y;
  const size_t z0 = (size_t)i0[2] * v->stride_z, z1 = (size_t)i1[2] * v->stride_z;
  const float c[8] = {texel(v->data, i0[0] + y0 + z0), texel(v->data, i1[0] + y0 + z0),
                      texel(v->data, i0[0] + y1 + z0), texel(v->data, i1[0] + y1 + z0),
                      texel(v->data, i0[0] + y0 + z1), texel(v->data, i1[0] + y0 + z1),
                      texel(v->data, i0[0] + y1 + z1), texel(v->data, i1[0] + y1 + z1)};
  return cvr_trilinear(c, w);
}

/* Every component of a multi-component volume at p, each filtered as
 * sample_volume filters one. */
CVR_ALWAYS_INLINE void sample_components(const cpu_volume *v, texel_fn texel, const float p[3],
                                         float out[CVR_MAX_COMPONENTS]) {
  const size_t n = (size_t)v->components;
  if (v->nearest) {
    const size_t i = (size_t)cvr_nearest_texel(p[0], v->dims[0]) +
                     (size_t)cvr_nearest_texel(p[1], v->dims[1]) * v->stride_y +
                     (size_t)cvr_nearest_texel(p[2], v->dims[2]) * v->stride_z;
    for (size_t c = 0; c < n; ++c) out[c] = texel(v->data, n * i + c);
    return;
  }
  int i0[3], i1[3];
  float w[3];
  for (int a = 0; a < 3; ++a) w[a] = cvr_filter_axis(p[a], v->dims[a], v->weights, &i0[a], &i1[a]);
  const size_t y0 = (size_t)i0[1] * v->stride_y, y1 = (size_t)i1[1] * v->stride_y;
  const size_t z0 = (size_t)i0[2] * v->stride_z, z1 = (size_t)i1[2] * v->stride_z;
  const size_t corner[8] = {i0[0] + y0 + z0, i1[0] + y0 + z0, i0[0] + y1 + z0, i1[0] + y1 + z0,
                            i0[0] + y0 + z1, i1[0] + y0 + z1, i0[0] + y1 + z1, i1[0] + y1 + z1};
  for (size_t c = 0; c < n; ++c) {
    float texels[8];
    for (int k = 0; k < 8; ++k) texels[k] = texel(v->data, n * corner[k] + c);
    out[c] = cvr_trilinear(texels, w);
  }
}

/* The gradient of every component at p (central differences, as
 * apply_gradient). */
CVR_ALWAYS_INLINE void component_gradients(const cpu_volume *v, texel_fn texel, const float p[3],
                                           float g[CVR_MAX_COMPONENTS][3]) {
  float neighbours[6][CVR_MAX_COMPONENTS];
  for (int a = 0; a < 3; ++a)
    for (int side = 0; side < 2; ++side) {
      float q[3] = {p[0], p[1], p[2]};
      q[a] += side ? -1.0f : 1.0f;
      sample_components(v, texel, q, neighbours[2 * a + side]);
    }
  for (int c = 0; c < v->components; ++c) {
    const float n[6] = {neighbours[0][c], neighbours[1][c], neighbours[2][c],
                        neighbours[3][c], neighbours[4][c], neighbours[5][c]};
    cvr_gradient(n, g[c]);
  }
}

/* The gradient at p from its six neighbours (raycast.h, cvr_gradient). */
CVR_ALWAYS_INLINE void gradient_at(const cpu_volume *v, texel_fn texel, const float p[3],
                                   float gradient[3]) {
  float neighbours[6];
  for (int a = 0; a < 3; ++a)
    for (int side = 0; side < 2; ++side) {
      float q[3] = {p[0], p[1], p[2]};
      q[a] += side ? -1.0f : 1.0f;
      neighbours[2 * a + side] = sample_volume(v, texel, q);
    }
  cvr_gradient(neighbours, gradient);
}

/* The opacity of a shadow ray's sample at p: the volume's function, as a
 * primary sample's (raycast.h, cvr_shadow_opacity; components mixed). */
CVR_ALWAYS_INLINE float shadow_opacity(const cvr_frame *f, const cvr_ray *ray, const cpu_volume *v,
                                       texel_fn texel, const float q[3]) {
  const cvr_ray_params *p = &f->ray;
  if (p->components > 1) {
    float values[CVR_MAX_COMPONENTS];
    sample_components(v, texel, q, values);
    return cvr_classify_components(p, ray, 0.0f, values, NULL, NULL).a;
  }
  const float value = sample_volume(v, texel, q);
  const float a = cvr_classify(f->sample_table, p->tf_size, p->tf_scale, p->tf_bias, value).a;
  if (!cvr_shadow_needs_gradient(p)) return a;
  float gradient[3];
  gradient_at(v, texel, q, gradient);
  return cvr_shadow_opacity(p, value, a, gradient);
}

/* The light that reaches the sample at pos from each light through the
 * volume (raycast.h, cvr_shadow_setup): volumetric scattering's shadows. */
CVR_ALWAYS_INLINE void light_through(const cvr_frame *f, const cvr_ray *ray, const cpu_volume *v,
                          texel_fn texel, const float pos[3], float through[CVR_MAX_LIGHTS]) {
  const cvr_ray_params *p = &f->ray;
  for (int i = 0; i < p->shading.light_count; ++i) {
    cvr_shadow_ray shadow;
    const int n = cvr_shadow_setup(&p->shading, i, ray, pos, &shadow);
    float light = 1.0f;
    for (int k = 0; k < n && light >= shadow.cutoff; ++k) {
      float q[3];
      for (int a = 0; a < 3; ++a) q[a] = shadow.start[a] + (float)k * shadow.step[a];
      light *= 1.0f - shadow_opacity(f, ray, v, texel, q);
    }
    through[i] = light;
  }
}

/* A visible sample with the gradient from its six neighbours applied
 * (gradient opacity, shading, scattering). */
CVR_ALWAYS_INLINE cvr_rgba apply_gradient(const cvr_frame *f, const cvr_ray *ray,
                                          const cpu_volume *v, texel_fn texel, const float pos[3],
                                          float t, float value, int label, cvr_rgba s) {
  float gradient[3], through[CVR_MAX_LIGHTS];
  gradient_at(v, texel, pos, gradient);
  const int scatter = f->ray.shading.scattering.blend > 0.0f;
  if (scatter) light_through(f, ray, v, texel, pos, through);
  return cvr_apply_gradient(&f->ray, ray, t, gradient, value, label, s, scatter ? through : NULL);
}

typedef struct pixel_result {
  cvr_rgba color;
  float depth;
  int hit;
  uint64_t samples;
  uint64_t lattice; /* the ray's lattice samples, taken or not */
  uint64_t skipped; /* in empty macro-cells */
} pixel_result;

/* A classified multi-component sample at pos, its gradients applied where
 * visible and needed (cvr_classify_components, or for an iso crossing
 * cvr_classify_crossing). */
CVR_ALWAYS_INLINE cvr_rgba classify_components(const cvr_frame *f, const cvr_ray *ray,
                                               const cpu_volume *v, texel_fn texel,
                                               const float pos[3], float t, const float *values,
                                               int crossing) {
  const cvr_ray_params *p = &f->ray;
  cvr_rgba s = crossing ? cvr_classify_crossing(p, ray, t, values, NULL, NULL)
                        : cvr_classify_components(p, ray, t, values, NULL, NULL);
  if (!(s.a > 0.0f) || !cvr_needs_gradient(p)) return s;
  float g[CVR_MAX_COMPONENTS][3], through[CVR_MAX_LIGHTS];
  component_gradients(v, texel, pos, g);
  const int scatter = p->shading.scattering.blend > 0.0f;
  if (scatter) light_through(f, ray, v, texel, pos, through);
  return crossing ? cvr_classify_crossing(p, ray, t, values, (const float(*)[3])g,
                                          scatter ? through : NULL)
                  : cvr_classify_components(p, ray, t, values, (const float(*)[3])g,
                                            scatter ? through : NULL);
}

/* One ray through a multi-component volume (cvr.h, cvr_component_mode): the
 * same lattice, removal and blending as cast_ray, per component. */
CVR_ALWAYS_INLINE pixel_result cast_ray_components(const cvr_frame *f, const cpu_volume *v,
                                                   texel_fn texel, int px, int py) {
  pixel_result r = {{0.0f, 0.0f, 0.0f, 0.0f}, 1.0f, 0, 0, 0, 0};
  const cvr_ray_params *p = &f->ray;
  cvr_ray ray;
  float values[CVR_MAX_COMPONENTS], pos[3];
  const float depth = f->opaque_depth ? f->opaque_depth[(size_t)py * p->width + px] : 1.0f;
  if (p->blend == CVR_BLEND_SLICE) {
    float t;
    if (!cvr_slice_setup(p, px, py, depth, &ray, &t)) return r;
    r.hit = 1;
    r.samples = r.lattice = 1;
    cvr_ray_position(&ray, t, pos);
    if (!cvr_sample_kept(p, pos)) return r;
    sample_components(v, texel, pos, values);
    const cvr_rgba s = classify_components(f, &ray, v, texel, pos, t, values, 0);
    cvr_composite(&r.color, s);
    if (s.a > 0.0f) r.depth = cvr_ray_depth(p, &ray, t);
    return r;
  }
  if (!cvr_ray_setup(p, px, py, depth, &ray)) return r;
  r.hit = 1;
  const float t_first = cvr_ray_t_first(&ray, p->lattice_offset);
  const float t_last = cvr_ray_t_last(&ray, p->lattice_offset);
  r.lattice = (uint64_t)(ray.k_last - ray.k_first + 1);
  if (p->blend != CVR_BLEND_COMPOSITE && p->blend != CVR_BLEND_ISOSURFACE) {
    cvr_component_blend q;
    cvr_component_blend_init(p, &q);
    for (float t = t_first; t <= t_last; t += 1.0f) {
      cvr_ray_position(&ray, t, pos);
      ++r.samples;
      if (!cvr_sample_kept(p, pos)) continue;
      sample_components(v, texel, pos, values);
      cvr_component_blend_take(p, &q, values);
    }
    r.color = cvr_component_blend_pixel(p, &q);
    if (r.color.a > 0.0f) r.depth = cvr_ray_depth(p, &ray, t_first);
    return r;
  }
  const int iso = p->blend == CVR_BLEND_ISOSURFACE;
  int interval = -1; /* ISOSURFACE */
  float t_hit = -1.0f;
  for (float t = t_first; t <= t_last; t += 1.0f) {
    cvr_ray_position(&ray, t, pos);
    ++r.samples;
    if (!cvr_sample_kept(p, pos)) continue;
    sample_components(v, texel, pos, values);
    if (iso && !cvr_iso_take(p, &interval, &values[p->iso_component])) continue;
    const cvr_rgba c = classify_components(f, &ray, v, texel, pos, t, values, iso);
    if (c.a > 0.0f && t_hit < 0.0f) t_hit = t;
    cvr_composite(&r.color, c);
    if (cvr_ray_done(p, &r.color)) break;
  }
  if (t_hit >= 0.0f) r.depth = cvr_ray_depth(p, &ray, t_hit);
  return r;
}

/* One ray, front to back on the shared lattice. reverse_order exists only
 * for the tests that prove a reversed compositing order would be caught. */
CVR_ALWAYS_INLINE pixel_result cast_ray(const cvr_frame *f, const cpu_volume *v, texel_fn texel,
                                        int reverse_order, int px, int py) {
  pixel_result r = {{0.0f, 0.0f, 0.0f, 0.0f}, 1.0f, 0, 0, 0, 0};
  const cvr_ray_params *p = &f->ray;
  if (p->components > 1) return cast_ray_components(f, v, texel, px, py);
  cvr_ray ray;
  const float depth = f->opaque_depth ? f->opaque_depth[(size_t)py * p->width + px] : 1.0f;
  if (p->blend == CVR_BLEND_SLICE) { /* one sample, where the ray meets the plane */
    float t, pos[3];
    if (!cvr_slice_setup(p, px, py, depth, &ray, &t)) return r;
    r.hit = 1;
    r.samples = r.lattice = 1;
    cvr_ray_position(&ray, t, pos);
    if (!cvr_sample_kept(p, pos)) return r;
    const float value = sample_volume(v, texel, pos);
    cvr_rgba s = cvr_classify(f->sample_table, p->tf_size, p->tf_scale, p->tf_bias, value);
    if (cvr_needs_gradient(p) && s.a > 0.0f) s = apply_gradient(f, &ray, v, texel, pos, t, value, 0, s);
    cvr_composite(&r.color, s);
    if (s.a > 0.0f) r.depth = cvr_ray_depth(p, &ray, t);
    return r;
  }
  if (!cvr_ray_setup(p, px, py, depth, &ray)) return r;
  r.hit = 1;
  const float t_first = cvr_ray_t_first(&ray, p->lattice_offset);
  const float t_last = cvr_ray_t_last(&ray, p->lattice_offset);
  r.lattice = (uint64_t)(ray.k_last - ray.k_first + 1);
  if (p->blend != CVR_BLEND_COMPOSITE && p->blend != CVR_BLEND_ISOSURFACE) {
    /* the order does not matter here */
    cvr_blend_state q;
    cvr_blend_init(p, &q);
    for (float t = t_first; t <= t_last; t += 1.0f) {
      float pos[3];
      cvr_ray_position(&ray, t, pos);
      ++r.samples;
      if (!cvr_sample_kept(p, pos)) continue;
      const float value = sample_volume(v, texel, pos);
      const float weight = cvr_blend_take(p, &q, value);
      if (weight > 0.0f)
        cvr_blend_add(&q, weight,
                           cvr_classify(f->sample_table, p->tf_size, p->tf_scale, p->tf_bias, value).a);
    }
    const cvr_rgba extreme = cvr_classify(f->sample_table, p->tf_size, p->tf_scale, p->tf_bias, q.extreme);
    r.color = cvr_blend_pixel(p, &q, extreme);
    if (r.color.a > 0.0f) r.depth = cvr_ray_depth(p, &ray, t_first);
    return r;
  }
  const int iso = p->blend == CVR_BLEND_ISOSURFACE, gradients = cvr_needs_gradient(p);
  int interval = -1; /* ISOSURFACE */
  int known = 0;     /* samples from t on known to lie in a cell that is not empty */
  float t_hit = -1.0f, t = reverse_order ? t_last : t_first;
  for (; reverse_order ? t >= t_first : t <= t_last; t = reverse_order ? t - 1.0f : t + 1.0f) {
    if (p->skip_empty && known-- == 0) { /* (never with reverse_order: cvr_cpu_render) */
      int cell[3];
      const int empty = cvr_skip_empty_at(p, &ray, t, cell);
      const int n = cvr_skip_cell_samples(p, &ray, t, cell, (int)(t_last - t));
      if (empty) {
        r.skipped += (uint64_t)n;
        t += (float)(n - 1); /* the loop steps past the last */
        known = 0;
        continue;
      }
      known = n - 1;
    }
    float pos[3];
    cvr_ray_position(&ray, t, pos);
    ++r.samples;
    if (!cvr_sample_kept(p, pos)) continue; /* transparent */
    float value = sample_volume(v, texel, pos);
    if (iso && !cvr_iso_take(p, &interval, &value)) continue; /* no surface here */
    const cvr_rgba s = cvr_classify(f->sample_table, p->tf_size, p->tf_scale, p->tf_bias, value);
    const int label = cvr_ray_label(p, &ray, t);
    cvr_rgba c = cvr_classify_label(p, label, value, s);
    if (gradients && c.a > 0.0f) c = apply_gradient(f, &ray, v, texel, pos, t, value, label, s);
    if (c.a > 0.0f && t_hit < 0.0f) t_hit = t;
    cvr_composite(&r.color, c);
    if (cvr_ray_done(p, &r.color)) break;
  }
  if (t_hit >= 0.0f) r.depth = cvr_ray_depth(p, &ray, t_hit);
  return r;
}

struct worker;
typedef void (*tile_fn)(struct worker *, int);

typedef struct tile_job {
  const cvr_frame *frame;
  const cvr_image *image;
  cpu_volume volume;
  tile_fn render_tile; /* the renderer for the volume's stored type */
  int reverse_order;
  int tiles_x, tile_count, tile_w, tile_h;
  int thread_count;
  cvr_cpu_schedule schedule;
  atomic_int next_tile;
} tile_job;

typedef struct worker {
  tile_job *job;
  int index;
  uint64_t rays, samples, lattice, skipped;
} worker;

/* x86-64's baseline (SSE2) has no instruction for floorf and ceilf, which
 * every sample takes at least three of (the filter's texels): the tile
 * renderers are also built for SSE4.1 (roundss), picked when the library
 * loads (cvr_internal.h). The arithmetic is the same. */
#define CVR_CPU_CLONES CVR_TARGET_CLONES("sse4.1", "default")

#define DEFINE_TILE_RENDERER(NAME, TEXEL)                                                          \
  CVR_CPU_CLONES static void NAME(worker *w, int tile) {                                           \
    const tile_job *j = w->job;                                                                    \
    const int width = j->frame->ray.width, height = j->frame->ray.height;                          \
    const int x0 = (tile % j->tiles_x) * j->tile_w, y0 = (tile / j->tiles_x) * j->tile_h;          \
    const int x1 = x0 + j->tile_w < width ? x0 + j->tile_w : width;                                \
    const int y1 = y0 + j->tile_h < height ? y0 + j->tile_h : height;                              \
    for (int py = y0; py < y1; ++py)                                                               \
      for (int px = x0; px < x1; ++px) {                                                           \
        const pixel_result r = cast_ray(j->frame, &j->volume, TEXEL, j->reverse_order, px, py);     \
        const size_t o = (size_t)py * width + px;                                                  \
        if (j->image->rgba8) {                                                                     \
          j->image->rgba8[4 * o + 0] = cvr_to_unorm8(r.color.r);                                   \
          j->image->rgba8[4 * o + 1] = cvr_to_unorm8(r.color.g);                                   \
          j->image->rgba8[4 * o + 2] = cvr_to_unorm8(r.color.b);                                   \
          j->image->rgba8[4 * o + 3] = cvr_to_unorm8(r.color.a);                                   \
        }                                                                                          \
        if (j->image->rgba32f) memcpy(j->image->rgba32f + 4 * o, &r.color, sizeof r.color);        \
        if (j->image->depth) j->image->depth[o] = r.depth;                                         \
        w->rays += (uint64_t)r.hit;                                                                \
        w->samples += r.samples;                                                                   \
        w->lattice += r.lattice;                                                                   \
        w->skipped += r.skipped;                                                                   \
      }                                                                                            \
  }

/* One tile renderer per stored type, so the texel fetch inlines. */
DEFINE_TILE_RENDERER(render_tile_u8, texel_u8)
DEFINE_TILE_RENDERER(render_tile_s8, texel_s8)
DEFINE_TILE_RENDERER(render_tile_u16, texel_u16)
DEFINE_TILE_RENDERER(render_tile_s16, texel_s16)
DEFINE_TILE_RENDERER(render_tile_f32, texel_f32)

static void *worker_main(void *arg) {
  worker *w = arg;
  tile_job *j = w->job;
  if (j->schedule == CVR_CPU_SCHEDULE_STATIC) {
    for (int t = w->index; t < j->tile_count; t += j->thread_count) j->render_tile(w, t);
  } else {
    for (int t; (t = atomic_fetch_add(&j->next_tile, 1)) < j->tile_count;) j->render_tile(w, t);
  }
  return NULL;
}

static tile_fn tile_renderer_for(cvr_scalar_type stored_type) {
  switch (stored_type) {
  case CVR_UINT8: return render_tile_u8;
  case CVR_INT8: return render_tile_s8;
  case CVR_UINT16: return render_tile_u16;
  case CVR_INT16: return render_tile_s16;
  default: return render_tile_f32;
  }
}

cvr_status cvr_cpu_render(cvr_context *ctx, const cvr_frame *frame, const cvr_image *image,
                          cvr_render_stats *stats) {
  const cvr_volume *vol = frame->volume;
  const cvr_render_settings *s = frame->settings;
  cvr_frame skipping = *frame; /* the frame with its empty cells */
  const int shift = ctx->debug.reverse_order ? 0 : cvr_skip_shift_for(s);
  if (shift) {
    const cvr_status st = cvr_cpu_skip_prepare(ctx, (cvr_volume *)vol, frame, shift,
                                               &skipping.ray.skip_empty);
    if (st != CVR_OK) return st;
    memcpy(skipping.ray.skip_cells, vol->cpu_skip.cells, sizeof skipping.ray.skip_cells);
    skipping.ray.skip_shift = shift;
    frame = &skipping;
  }
  tile_job job;
  memset(&job, 0, sizeof job);
  job.frame = frame;
  job.image = image;
  job.volume.data = vol->host_data;
  job.volume.components = vol->components;
  memcpy(job.volume.dims, vol->dims, sizeof job.volume.dims);
  job.volume.stride_y = (size_t)vol->dims[0];
  job.volume.stride_z = (size_t)vol->dims[0] * vol->dims[1];
  job.volume.nearest = s->interpolation == CVR_INTERPOLATION_NEAREST;
  job.render_tile = tile_renderer_for(vol->stored_type);
  job.volume.weights = ctx->debug.filter_weights;
  job.reverse_order = ctx->debug.reverse_order;
  job.tile_w = s->cpu_tile_width;
  job.tile_h = s->cpu_tile_height;
  job.tiles_x = (frame->ray.width + job.tile_w - 1) / job.tile_w;
  const int tiles_y = (frame->ray.height + job.tile_h - 1) / job.tile_h;
  job.tile_count = job.tiles_x * tiles_y;
  job.schedule = s->cpu_schedule;
  job.thread_count = ctx->cpu_threads < job.tile_count ? ctx->cpu_threads : job.tile_count;
  atomic_init(&job.next_tile, 0);

  worker *workers = calloc((size_t)job.thread_count, sizeof *workers);
  pthread_t *threads = calloc((size_t)job.thread_count, sizeof *threads);
  if (!workers || !threads) {
    free(workers);
    free(threads);
    return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "CPU renderer: out of host memory");
  }
  const double start = cvr_now_ms();
  int started = 0;
  for (int i = 0; i < job.thread_count; ++i) {
    workers[i].job = &job;
    workers[i].index = i;
  }
  /* worker 0 runs on the calling thread; if a thread cannot start, the
   * dynamic queue lets the others absorb its tiles, the static one cannot */
  for (int i = 1; i < job.thread_count; ++i, ++started)
    if (pthread_create(&threads[i], NULL, worker_main, &workers[i]) != 0) break;
  if (started + 1 < job.thread_count && job.schedule == CVR_CPU_SCHEDULE_STATIC) {
    for (int i = 1; i <= started; ++i) pthread_join(threads[i], NULL);
    free(workers);
    free(threads);
    return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "CPU renderer: could not start %d threads",
                    job.thread_count);
  }
  worker_main(&workers[0]);
  for (int i = 1; i <= started; ++i) pthread_join(threads[i], NULL);
  stats->kernel_ms = cvr_now_ms() - start;
  for (int i = 0; i < job.thread_count; ++i) {
    stats->rays += workers[i].rays;
    stats->samples += workers[i].samples;
    stats->samples_skipped_empty += workers[i].skipped;
    stats->samples_skipped_terminated += workers[i].lattice - workers[i].samples - workers[i].skipped;
  }
  stats->block_width = job.tile_w;
  stats->block_height = job.tile_h;
  free(workers);
  free(threads);
  return CVR_OK;
}
