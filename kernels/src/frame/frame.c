// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The frame layer: a frame's settings made concrete (cvr_frame_settings),
 * its parameters built from the volume, transfer function and view, and
 * the frame handed to the context's backend (cvr_render_frame). Under the
 * API (render.c) and AUTO (auto.c), above the backends. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bricks.h"
#include "cuda_backend.h"

/* A ray never takes more samples than this across the volume's diagonal:
 * beyond it the sample distance is a mistake, not a quality setting. */
#define CVR_MAX_SAMPLES_ACROSS 1000000.0

static double world_diagonal(const cvr_volume *v, const double *volume_to_world) {
  /* an upper bound on the box diagonal in world units: |A| |I2P| |dims| */
  double s = 0.0;
  for (int a = 0; a < 3; ++a) s += pow((v->dims[a] - 1) * v->spacing[a], 2.0);
  double n = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) n += volume_to_world[4 * i + j] * volume_to_world[4 * i + j];
  double d = 0.0;
  for (int i = 0; i < 9; ++i) d += v->direction[i] * v->direction[i];
  return sqrt(s * n * d);
}

/* The average-intensity range in table coordinates, the units the ray
 * compares sampled values in (cvr_projection_take); clamped to the float
 * range, so an infinite bound stays an open end. */
static void average_range_coordinates(const cvr_transfer_function *tf, const double range[2],
                                      float out[2]) {
  const double per_value = (tf->size - 1) / (tf->range[1] - tf->range[0]);
  for (int i = 0; i < 2; ++i) {
    const double c = (range[i] - tf->range[0]) * per_value;
    out[i] = (float)(c < -FLT_MAX ? -INFINITY : (c > FLT_MAX ? INFINITY : c));
  }
}

/* Clipping planes with unit normals (distances in world units, as the
 * lattice), and the cropping planes as texel coordinates (index + 0.5), the
 * coordinates rays sample at. */
static void clipping_params(const cvr_render_settings *s, cvr_ray_params *p) {
  p->clip_count = s->clip_plane_count;
  for (int i = 0; i < s->clip_plane_count; ++i) {
    const double *c = s->clip_planes[i];
    const double n = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    for (int k = 0; k < 4; ++k) p->clip[i][k] = (float)(c[k] / n);
  }
  p->cropping = s->cropping != 0;
  for (int i = 0; i < 6; ++i) p->crop[i] = (float)(s->cropping_planes[i] + 0.5);
  p->crop_flags = s->cropping_flags;
}

static int ascending(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* ISOSURFACE's values as sampled (data * the stored type's normalization),
 * ascending and distinct; SLICE's plane with a unit normal. */
static void surface_params(const cvr_render_settings *s, const cvr_volume *volume,
                           cvr_ray_params *p) {
  double iso[CVR_MAX_ISO_VALUES];
  const int n = s->blend_mode == CVR_BLEND_ISOSURFACE ? s->iso_value_count : 0;
  memcpy(iso, s->iso_values, (size_t)n * sizeof *iso);
  qsort(iso, (size_t)n, sizeof *iso, ascending);
  const double norm = cvr_stored_type_normalization(volume->stored_type);
  p->iso_count = 0;
  for (int i = 0; i < n; ++i) {
    const float v = (float)(iso[i] * norm);
    if (p->iso_count == 0 || v > p->iso[p->iso_count - 1]) p->iso[p->iso_count++] = v;
  }
  const double *o = s->slice_origin, *nv = s->slice_normal;
  const double len = sqrt(nv[0] * nv[0] + nv[1] * nv[1] + nv[2] * nv[2]);
  for (int a = 0; a < 3; ++a) p->slice[a] = len > 0.0 ? (float)(nv[a] / len) : 0.0f;
  p->slice[3] = len > 0.0 ? (float)(-(nv[0] * o[0] + nv[1] * o[1] + nv[2] * o[2]) / len) : 0.0f;
}

/* How a gradient's index-space component along each axis becomes the
 * magnitude in entries of a gradient-opacity table of `entries` per data
 * unit: mean spacing / |spacing a| (VTK's measure), / the stored type's
 * normalization (data units). */
static void gradient_axis_scale(const cvr_volume *volume, double entries, float out[3]) {
  const double *sp = volume->spacing;
  const double mean = (fabs(sp[0]) + fabs(sp[1]) + fabs(sp[2])) / 3.0;
  const double norm = cvr_stored_type_normalization(volume->stored_type);
  for (int a = 0; a < 3; ++a) out[a] = (float)(mean / fabs(sp[a]) / norm * entries);
}

/* Gradient opacity and 2D transfer functions (COMPOSITE, ISOSURFACE and
 * SLICE, where a sample's gradient is taken; not the projections): an index-space gradient's
 * component along axis a, times gradient_scale[a], is the magnitude's part in
 * table entries: mean spacing / |spacing a| (VTK's measure), / the stored
 * type's normalization (data units), * (size - 1) / the table's maximum. */
static void gradient_opacity_params(const cvr_transfer_function *tf, const cvr_volume *volume,
                                    cvr_blend_mode blend, cvr_ray_params *p) {
  const int gradients =
      blend == CVR_BLEND_COMPOSITE || blend == CVR_BLEND_ISOSURFACE || blend == CVR_BLEND_SLICE;
  p->gradient_opacity = gradients ? tf->gradient_size : 0;
  p->gradient_table = tf->gradient_table;
  /* a 2D function: its y coordinate + 0.5, the magnitude in entries of its
   * height (a texture's: the top edge at tf2d_height) */
  p->tf2d = gradients ? tf->table_2d : NULL;
  p->tf2d_height = p->tf2d ? tf->size_2d[1] : 0;
  /* the volume's and the labels' gradient-opacity tables share one extent */
  const int gradient_size = tf->gradient_size ? tf->gradient_size : tf->label_gradient_size;
  const double entries = p->tf2d ? tf->size_2d[1] / tf->gradient_max_2d
                         : gradient_size ? (gradient_size - 1) / tf->gradient_max
                                         : 0.0;
  gradient_axis_scale(volume, entries, p->gradient_scale);
}

/* The volume's mask as the frame uses it (cvr.h, cvr_mask_type): binary in
 * every blend mode, a label map in COMPOSITE and with some weight; in the
 * volume's index order (the CUDA backend maps the rays to it). */
static void mask_params(const cvr_render_settings *s, const cvr_volume *volume,
                        const cvr_transfer_function *tf, cvr_ray_params *p) {
  p->mask = CVR_MASK_NONE;
  p->mask_labels = volume->mask_host ? volume->mask_host : (const unsigned char *)volume->mask_device;
  if (!p->mask_labels) return;
  if (s->mask_type == CVR_MASK_BINARY) p->mask = CVR_MASK_REMOVES;
  else if (s->blend_mode == CVR_BLEND_COMPOSITE && s->mask_blend > 0.0 && tf->label_count > 0)
    p->mask = CVR_MASK_LABELS;
  else return;
  for (int a = 0; a < 3; ++a) {
    p->mask_dims[a] = volume->dims[a];
    p->mask_axis[a] = a;
    p->mask_sign[a] = 1.0f;
    p->mask_shift[a] = 0.0f;
  }
  if (p->mask != CVR_MASK_LABELS) return;
  p->label_table = tf->label_table;
  p->label_count = tf->label_count;
  p->label_gradient = tf->label_gradient;
  p->label_gradient_size = tf->label_gradient_size;
  p->mask_blend = (float)s->mask_blend;
}

/* Two components as a 2D function's axes (cvr.h, CVR_COMPONENTS_TRANSFER_2D):
 * component 0 as one component with the function's 1D table (the most
 * opaque entry of each column: the AVERAGE range and the grey of the
 * projections), component 1's mapping the row coordinate + 0.5 of its value
 * (a texture's: the top edge at tf2d_height), in every blend mode. */
static void transfer_2d_y_params(const cvr_transfer_function *tf, const cvr_volume *volume,
                                 const cvr_render_settings *s, const cvr_rgba *table0,
                                 cvr_ray_params *p) {
  p->tf2d_y = 1;
  p->tf2d = tf->table_2d;
  p->tf2d_height = tf->size_2d[1];
  p->iso_component = 0;
  for (int c = 0; c < 2; ++c) {
    p->component_table[c] = table0; /* component 1's: unused */
    p->component_size[c] = tf->size;
    p->component_weight[c] = c ? 0.0f : 1.0f;
  }
  cvr_transfer_function_mapping(tf, volume, &p->component_scale[0], &p->component_bias[0]);
  average_range_coordinates(tf, s->average_range, p->component_average[0]);
  const double norm = cvr_stored_type_normalization(volume->stored_type);
  const double per_value = tf->size_2d[1] / (tf->range_2d_y[1] - tf->range_2d_y[0]);
  p->component_scale[1] = (float)(per_value / norm);
  p->component_bias[1] = (float)(-tf->range_2d_y[0] * per_value);
  p->gradient_opacity = 0; /* the 2D function replaces it */
}

/* A multi-component volume's functions (cvr.h, cvr_component_mode): each
 * component's table for the frame (tables[c - 1]; component 0's is the
 * frame's own), mapping, average range and gradient opacity. */
static void component_params(const cvr_transfer_function *tf, const cvr_volume *volume,
                             const cvr_render_settings *s, const cvr_rgba *table0,
                             cvr_rgba (*tables)[CVR_TRANSFER_FUNCTION_TABLE_SIZE],
                             cvr_ray_params *p) {
  p->components = volume->components;
  if (p->components == 1) return;
  if (tf->transfer_2d_y) {
    transfer_2d_y_params(tf, volume, s, table0, p);
    return;
  }
  p->dependent = tf->component_dependent;
  const int gradients = s->blend_mode == CVR_BLEND_COMPOSITE ||
                        s->blend_mode == CVR_BLEND_ISOSURFACE || s->blend_mode == CVR_BLEND_SLICE;
  p->iso_component = p->dependent ? p->components - 1 : 0;
  for (int c = 0; c < p->components; ++c) {
    const cvr_transfer_function *f = c ? tf->component[c - 1] : tf;
    if (c) cvr_transfer_function_sample_table(f, s->sample_distance, s->blend_mode, tables[c - 1]);
    p->component_table[c] = c ? tables[c - 1] : table0;
    p->component_size[c] = f->size;
    cvr_transfer_function_mapping(f, volume, &p->component_scale[c], &p->component_bias[c]);
    average_range_coordinates(f, s->average_range, p->component_average[c]);
    p->component_weight[c] = tf->component_weight[c];
    if (!p->dependent && tf->component_weight[c] > tf->component_weight[p->iso_component])
      p->iso_component = c;
    /* DEPENDENT: component 0's gradient, function 0's gradient opacity */
    const int with_gradient = gradients && f->gradient_size && (!p->dependent || c == 0);
    p->component_gradient[c] = with_gradient ? f->gradient_table : NULL;
    p->component_gradient_size[c] = with_gradient ? f->gradient_size : 0;
    p->component_gradients |= with_gradient;
    gradient_axis_scale(volume, with_gradient ? (f->gradient_size - 1) / f->gradient_max : 0.0,
                        p->component_gradient_scale[c]);
  }
  /* component 0's gradient opacity goes through the component path alone */
  p->gradient_opacity = 0;
}

/* What decides visibility for empty-space skipping: the frame's table, and
 * with a label map each entry's most opaque label function too (a sample
 * mixes the two, never above the larger). */
static void visibility_table(const cvr_ray_params *p, const cvr_rgba *table, cvr_rgba *out) {
  for (int i = 0; i < p->tf_size; ++i) {
    out[i] = table[i];
    for (int l = 0; p->mask == CVR_MASK_LABELS && l < p->label_count; ++l)
      out[i].a = cvr_maxf(out[i].a, p->label_table[(size_t)l * p->tf_size + i].a);
  }
}

/* The settings a frame renders with: the caller's, or (in *storage) the
 * caller's with the standard strategy where the one asked does not render
 * such frames (cvr.h): several components and volumetric scattering (one
 * kernel renders them, from a texture, unturned; components without
 * skipping), blend modes other than composite with warp marching or slab,
 * and jittering with slab (its rays share one lattice). */
const cvr_render_settings *cvr_frame_settings(const cvr_volume *volume,
                                              const cvr_render_settings *given,
                                              cvr_render_settings *storage) {
  const int components = volume->components > 1;
  if (volume->bricks) { /* (bricks.h) */
    *storage = *given;
    storage->strategy = CVR_STRATEGY_STANDARD;
    storage->memory_layout = CVR_LAYOUT_TEXTURE;
    storage->rotation_policy = CVR_ROTATION_NEVER;
    storage->ray_segments = 1;
    return storage;
  }
  const int standard_only =
      components || cvr_shading_scatters(&given->shading, given->blend_mode) ||
      (given->blend_mode != CVR_BLEND_COMPOSITE &&
       (given->strategy == CVR_STRATEGY_WARP_MARCHING || given->strategy == CVR_STRATEGY_SLAB)) ||
      (given->jittering && given->strategy == CVR_STRATEGY_SLAB);
  if (!standard_only) return given;
  *storage = *given;
  storage->strategy = CVR_STRATEGY_STANDARD;
  if (components || cvr_shading_scatters(&given->shading, given->blend_mode)) {
    storage->memory_layout = CVR_LAYOUT_TEXTURE;
    storage->rotation_policy = CVR_ROTATION_NEVER;
    if (components) storage->empty_space_skipping = 0;
  }
  return storage;
}

cvr_status cvr_render_frame(cvr_context *ctx, const cvr_volume *volume,
                            const cvr_transfer_function *tf, const cvr_view *view,
                            const cvr_render_settings *settings, const cvr_image *image,
                            cvr_render_stats *stats) {
  const double start = cvr_now_ms();
  if (ctx->lost) return cvr_lost_failure(ctx, "cvr_render");
  /* (an update from lent scalars to a copy can fail for memory, leaving none) */
  if ((volume->bricks || ctx->backend == CVR_BACKEND_CPU) && !volume->host_data)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "cvr_render: the volume has no scalars (its last update failed)");
  cvr_render_settings adjusted;
  const cvr_render_settings *given = settings;
  settings = cvr_frame_settings(volume, given, &adjusted);
  cvr_status st = CVR_OK;
  /* a strategy put in the settings' place renders with their other fields
   * (its block among them): checked as the caller's were */
  if (settings != given && ctx->backend == CVR_BACKEND_CUDA &&
      (st = cvr_cuda_validate_settings(ctx, settings)) != CVR_OK)
    return st;
  if (settings->strategy == CVR_STRATEGY_AUTO) /* (cvr_render hands AUTO's frames to auto.c) */
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "cvr_render_frame: strategy AUTO is not a frame's");
  const double diagonal = world_diagonal(volume, view->volume_to_world);
  if (diagonal / settings->sample_distance > CVR_MAX_SAMPLES_ACROSS)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: sample distance %g gives over %.0f samples across the volume "
                    "(diagonal %g)", settings->sample_distance, CVR_MAX_SAMPLES_ACROSS, diagonal);

  cvr_frame frame;
  memset(&frame, 0, sizeof frame);
  st = cvr_build_ray_params(ctx, volume, view, settings->sample_distance, &frame.ray);
  if (st != CVR_OK) return st;
  cvr_rgba table[CVR_TRANSFER_FUNCTION_TABLE_SIZE];
  cvr_transfer_function_sample_table(tf, settings->sample_distance, settings->blend_mode, table);
  cvr_transfer_function_mapping(tf, volume, &frame.ray.tf_scale, &frame.ray.tf_bias);
  frame.ray.tf_size = tf->size;
  frame.ray.blend = (int)settings->blend_mode;
  float average[2];
  average_range_coordinates(tf, settings->average_range, average);
  frame.ray.average_lo = average[0];
  frame.ray.average_hi = average[1];
  clipping_params(settings, &frame.ray);
  surface_params(settings, volume, &frame.ray);
  gradient_opacity_params(tf, volume, settings->blend_mode, &frame.ray);
  mask_params(settings, volume, tf, &frame.ray);
  cvr_rgba component_tables[CVR_MAX_COMPONENTS - 1][CVR_TRANSFER_FUNCTION_TABLE_SIZE];
  component_params(tf, volume, settings, table, component_tables, &frame.ray);
  cvr_rgba visible[CVR_TRANSFER_FUNCTION_TABLE_SIZE];
  visibility_table(&frame.ray, table, visible);
  frame.visibility_table = visible;
  frame.ray.max_samples = settings->max_samples_per_ray;
  frame.ray.early_termination = settings->early_termination != 0;
  frame.ray.jitter = settings->jittering != 0;
  frame.ray.termination_opacity = (float)settings->termination_opacity;
  frame.ray.lattice_offset = ctx->debug.lattice_offset;
  cvr_build_shading_params(&settings->shading, frame.ray.world_to_index, &frame.ray.shading);
  cvr_build_scattering_params(&settings->shading, volume, tf, settings->sample_distance,
                              settings->blend_mode, &frame.ray);
  frame.ray.shading.normals_as_color = ctx->debug.normals_as_color;
  frame.volume = volume;
  frame.tf = tf;
  frame.sample_table = table;
  frame.opaque_depth = view->opaque_depth;
  frame.gl_opaque_depth = view->gl_opaque_depth;
  frame.settings = settings;

  cvr_render_stats local;
  memset(&local, 0, sizeof local);
  local.backend = ctx->backend;
  local.view_class = -1; /* AUTO's */
  local.ray_segments = 1; /* CUDA's standard strategy may split rays */
  /* the CPU backend has one renderer, the reference: strategies are CUDA's */
  local.strategy = ctx->backend == CVR_BACKEND_CUDA ? settings->strategy : CVR_STRATEGY_STANDARD;
  /* the CPU's volume: array order, never turned (CUDA fills in its own) */
  local.memory_layout = CVR_LAYOUT_ARRAY_ORDER;
  for (int a = 0; a < 3; ++a) local.volume_axes[a] = a + 1;
  local.volume_bytes = (size_t)volume->dims[0] * volume->dims[1] * volume->dims[2] *
                       volume->components * cvr_scalar_type_size(volume->stored_type);
  const char *unbricked = volume->bricks ? cvr_bricks_unsupported(volume, &frame) : NULL;
  if (unbricked) return cvr_fail(ctx, CVR_ERROR_UNSUPPORTED, "cvr_render: %s", unbricked);
  st = ctx->backend == CVR_BACKEND_CUDA ? cvr_cuda_render(ctx, &frame, image, &local)
                                        : cvr_cpu_render(ctx, &frame, image, &local);
  local.total_ms = cvr_now_ms() - start;
  if (st == CVR_OK && stats) *stats = local;
  return st;
}
