// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* cvr-bench: the micro-benchmark of Wang et al. (LDAV 2014) section 3.2 on
 * the cvr library. A random N^3 uint8 volume, R x R orthographic rays that
 * cover the volume's face (ray distance N/R voxels), 512 samples of 0.5
 * voxel from each ray's entry, no early termination, the transfer function
 * in shared memory, and the volume rotated about X, Y or Z over 0..180
 * degrees. Times come from CUDA events around the kernel (the median of
 * repeats after warm-up). Output: JSON lines, one per view. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sys/resource.h>

#include "cvr.h"
#include "cvr_commit.h"
#include "cvr_tools.h"

#ifdef CVR_BENCH_HAVE_CUDA
int cvr_bench_texture_ceiling(double *gsamples_per_s, char *info, size_t info_size);
#endif

static void usage(void) {
  fprintf(stderr,
          "usage: cvr-bench [options]\n"
          "  --sizes N[,N...]        volume sizes (default 512,1024)\n"
          "  --rays R[,R...]         image sizes R x R (default 512)\n"
          "  --blocks WxH[,WxH...]   standard-strategy thread blocks (default 16x16,32x4,1x128,8x16)\n"
          "  --configs C[,C...]      strategy configurations instead of --blocks:\n"
          "                          std:WxH (standard), std:WxH/S (S threads a ray, its\n"
          "                          samples in S parts), shape (block shape, 32x4 / 1x128),\n"
          "                          shape:WxH:WxH (horizontal / vertical blocks),\n"
          "                          wm:VARIANT:WIDTH:RXxRY:BXxBY (warp marching: SBShared,\n"
          "                          DBShared, SBShuffle or DBShuffle; lanes per ray; rays of\n"
          "                          a warp; warps of a block), e.g. wm:DBShuffle:8:2x2:1x8\n"
          "                          auto (AUTO, each view class swept by cvr_tune_now\n"
          "                          before it is timed: converged; tables in memory only),\n"
          "                          slab:WxH:D (slab-based: W x H threads, the outer ring\n"
          "                          border rays, slabs of D samples), e.g. slab:32x8:8,\n"
          "                          +gather: every thread a pixel, the border rays gathered\n"
          "                          any followed by @texture, @array or @zorder (memory\n"
          "                          layout), +shade (Phong shading, a headlight),\n"
          "                          +scatter:B:R:G (shaded, volumetric scattering of\n"
          "                          blend B, reach R, anisotropy G),\n"
          "                          +rot (in-place rotation on region change),\n"
          "                          +rot:H (with H degrees of hysteresis), +tile:TxK\n"
          "                          (rotation tile), +skip (empty-space skipping), +skip:N\n"
          "                          (with cells of N voxels), +noskip, e.g. shape+rot@zorder\n"
          "  --axes xyz              rotation axes (default xyz)\n"
          "  --step DEG              angle step over 0..180 (default 15)\n"
          "  --range DEG             angles 0 .. DEG (default 180; 360 stops at 360 - step):\n"
          "                          views follow each other as frames, so rotations happen\n"
          "                          where the view changes region\n"
          "  --shape AxBxC           also a random volume of this non-cubic shape\n"
          "  --turn A:DEG            turn the volume about its axis A (x, y or z) by DEG\n"
          "                          before each view's rotation (e.g. --axes z --turn x:90:\n"
          "                          the image turns about rays along the stored y)\n"
          "  --shift X,Y             move the volume X, Y voxels across the screen (rays\n"
          "                          off the voxel grid's alignment; default 0,0)\n"
          "  --repeats K             timed repeats per view (default 7)\n"
          "  --warmups K             untimed renders before them (default 2)\n"
          "  --volume FILE --lo A --hi B\n"
          "                          instead of the micro-benchmark: a 360 degree\n"
          "                          perspective orbit (--step degrees) of a real NIfTI\n"
          "                          volume, early termination on, opacity ramp from A to\n"
          "                          B, sample distance half the smallest spacing, images\n"
          "                          of the --rays sizes\n"
          "  --resample AxBxC        with --volume: resample it trilinearly to A x B x C\n"
          "                          first (a derived volume, labelled as such)\n"
          "  --azimuths A:B          with --volume: only the views from A to B degrees\n"
          "                          (every --step), e.g. to profile a few with ncu\n"
          "  --elevation DEG         with --volume: the orbit's elevation (default 20; at 0\n"
          "                          azimuth 0 faces the XY plane and 90 the ZY plane)\n"
          "  --backend cuda|cpu      (default cuda)\n"
          "  --budget B[K|M|G]       the context's memory budget (volumes larger render\n"
          "                          from bricks; cvr_context_options.memory_budget)\n"
          "  --brick-size N          bricks of N^3 voxels (default 128)\n"
          "  --lend                  lend the scalars to the volume (borrow_data) rather\n"
          "                          than let it copy them where it keeps them in host memory\n"
          "  --ceiling               also measure the texture-filtering ceiling\n"
          "  --out FILE              JSON lines (default stdout)\n");
}

static int parse_list(const char *s, int *out, int max) {
  int n = 0;
  for (char *end; *s && n < max; s = *end ? end + 1 : end) out[n++] = (int)strtol(s, &end, 10);
  return n;
}

/* One strategy configuration of the benchmark: its settings and a label. */
typedef struct bench_config {
  char label[64];
  cvr_render_settings settings;
} bench_config;

/* Layout and rotation modifiers after the strategy: @texture, @array,
 * @zorder, +rot, +rot:H, +tile:TxK; +shade; +scatter:B:R:G; +gather (the slab's border rays
 * fetched by the tile's threads); +skip, +skip:N, +noskip (empty-space skipping). */
static int parse_modifiers(const char *m, cvr_render_settings *s) {
  while (*m) {
    int n = 0;
    if (!strncmp(m, "@texture", 8)) s->memory_layout = CVR_LAYOUT_TEXTURE, n = 8;
    else if (!strncmp(m, "@array", 6)) s->memory_layout = CVR_LAYOUT_ARRAY_ORDER, n = 6;
    else if (!strncmp(m, "@zorder", 7)) s->memory_layout = CVR_LAYOUT_Z_ORDER, n = 7;
    else if (sscanf(m, "+tile:%dx%d%n", &s->rotation_tile[0], &s->rotation_tile[1], &n) == 2) {
    } else if (sscanf(m, "+rot:%lf%n", &s->rotation_hysteresis, &n) == 1)
      s->rotation_policy = CVR_ROTATION_HYSTERESIS;
    else if (!strncmp(m, "+rot", 4)) s->rotation_policy = CVR_ROTATION_ON_REGION_CHANGE, n = 4;
    else if (sscanf(m, "+scatter:%lf:%lf:%lf%n", &s->shading.scattering_blend,
                    &s->shading.scattering_reach, &s->shading.scattering_anisotropy, &n) == 3)
      s->shading.enabled = 1;
    else if (!strncmp(m, "+shade", 6)) s->shading.enabled = 1, n = 6;
    else if (!strncmp(m, "+gather", 7)) s->slab_border = CVR_SLAB_BORDER_GATHERED, n = 7;
    else if (!strncmp(m, "+noskip", 7)) s->empty_space_skipping = 0, n = 7;
    else if (sscanf(m, "+skip:%d%n", &s->empty_space_cell, &n) == 1) s->empty_space_skipping = 1;
    else if (!strncmp(m, "+skip", 5)) s->empty_space_skipping = 1, n = 5;
    if (n <= 0) return 0;
    m += n;
  }
  return 1;
}

static int parse_config(const char *spec, bench_config *c) {
  cvr_render_settings_init(&c->settings);
  cvr_render_settings *s = &c->settings;
  char variant[16], base[64];
  int n = 0;
  size_t len = strcspn(spec, ",");
  if (len >= sizeof c->label) return 0;
  memcpy(c->label, spec, len);
  c->label[len] = 0;
  const size_t base_len = strcspn(c->label, "@+");
  memcpy(base, c->label, base_len);
  base[base_len] = 0;
  if (!parse_modifiers(c->label + base_len, s)) return 0;
  if (sscanf(base, "std:%dx%d%n", &s->block_width, &s->block_height, &n) == 2) {
    int m = 0;
    if (!base[n]) return 1;
    return sscanf(base + n, "/%d%n", &s->ray_segments, &m) == 1 && !base[n + m];
  }
  if (sscanf(base, "slab:%dx%d:%d%n", &s->slab_block[0], &s->slab_block[1], &s->slab_depth, &n) == 3 &&
      !base[n]) {
    s->strategy = CVR_STRATEGY_SLAB;
    return 1;
  }
  if (!strcmp(base, "auto")) {
    s->strategy = CVR_STRATEGY_AUTO;
    return 1;
  }
  if (!strcmp(base, "shape")) {
    s->strategy = CVR_STRATEGY_BLOCK_SHAPE;
    return 1;
  }
  if (sscanf(base, "shape:%dx%d:%dx%d%n", &s->horizontal_block[0], &s->horizontal_block[1],
             &s->vertical_block[0], &s->vertical_block[1], &n) == 4 && !base[n]) {
    s->strategy = CVR_STRATEGY_BLOCK_SHAPE;
    return 1;
  }
  if (sscanf(base, "wm:%15[A-Za-z]:%d:%dx%d:%dx%d%n", variant, &s->warp_width, &s->warp_rays[0],
             &s->warp_rays[1], &s->block_warps[0], &s->block_warps[1], &n) == 6 && !base[n]) {
    s->strategy = CVR_STRATEGY_WARP_MARCHING;
    for (int v = CVR_WARP_SB_SHARED; v <= CVR_WARP_DB_SHUFFLE; ++v)
      if (!strcmp(variant, cvr_warp_variant_name((cvr_warp_variant)v))) {
        s->warp_variant = (cvr_warp_variant)v;
        return 1;
      }
  }
  return 0;
}

static double wall_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* The process's first frame (wall time: the kernels' loading included),
 * written once as {"bench":"first_frame"}. */
static FILE *first_frame_out, *sweep_out;
/* AUTO's choice at the last timed view, in words ("" for other strategies) */
static char auto_choice[160];

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Renders warmups + repeats frames; the median and fastest kernel times of
 * the timed ones, the in-place rotation time of all of them (the first frame
 * at a view is the one that may turn the volume), and the last frame's
 * statistics. Returns 0 on failure. */
static int time_view(cvr_context *ctx, cvr_volume *vol, cvr_transfer_function *tf,
                     const cvr_view *view, const cvr_render_settings *s, int warmups, int repeats,
                     double *median, double *fastest, double *rotation_ms, cvr_render_stats *st) {
  const cvr_image none = {NULL, NULL, NULL, NULL};
  double ms[64];
  *rotation_ms = 0.0;
  if (s->strategy == CVR_STRATEGY_AUTO) { /* AUTO converged: a class still tuning is swept now */
    cvr_tuning_info info;
    if (cvr_tuning_info_for(ctx, vol, view, s, &info) != CVR_OK) {
      fprintf(stderr, "cvr-bench: %s\n", cvr_last_error(ctx));
      return 0;
    }
    /* a sweep may turn the copy (rotation on), which puts the view in a
     * class of its own: swept in turn, a few times at most */
    for (int sweep = 0; info.tuning && sweep < 3; ++sweep) {
      const double start = wall_ms();
      if (cvr_tune_now(ctx, vol, tf, view, s, &none, NULL, NULL, &info) != CVR_OK) {
        fprintf(stderr, "cvr-bench: %s\n", cvr_last_error(ctx));
        return 0;
      }
      if (sweep_out) /* what a sweep costs, layout changes of the volume included */
        fprintf(sweep_out, "{\"bench\":\"tune_now\",\"ms\":%.1f,\"candidates\":%d,\"configuration\":\"%s\"}\n",
                wall_ms() - start, info.candidates, info.configuration);
      if (cvr_tuning_info_for(ctx, vol, view, s, &info) != CVR_OK) {
        fprintf(stderr, "cvr-bench: %s\n", cvr_last_error(ctx));
        return 0;
      }
    }
  }
  for (int k = 0; k < warmups + repeats; ++k) {
    const double start = wall_ms();
    if (cvr_render(ctx, vol, tf, view, s, &none, st) != CVR_OK) {
      fprintf(stderr, "cvr-bench: %s\n", cvr_last_error(ctx));
      return 0;
    }
    if (first_frame_out) {
      fprintf(first_frame_out, "{\"bench\":\"first_frame\",\"ms\":%.3f,\"kernel_ms\":%.4f}\n",
              wall_ms() - start, st->kernel_ms);
      first_frame_out = NULL;
    }
    *rotation_ms += st->rotation_ms;
    if (k >= warmups) ms[k - warmups] = st->kernel_ms;
  }
  auto_choice[0] = '\0';
  cvr_tuning_info info;
  if (s->strategy == CVR_STRATEGY_AUTO && cvr_tuning_info_for(ctx, vol, view, s, &info) == CVR_OK)
    snprintf(auto_choice, sizeof auto_choice, "%s", info.configuration);
  qsort(ms, (size_t)repeats, sizeof ms[0], cmp_double);
  *median = ms[repeats / 2];
  *fastest = ms[0];
  return 1;
}

/* The context's memory budget in MiB (--budget; 0: none), for the output. */
static double budget_mib;
/* --lend: volumes read the caller's scalars in place (cvr_volume_desc.borrow_data) */
static int lend;

/* cvr_volume_create, written as {"bench":"volume"}: its wall time, the host
 * copy the volume keeps, and the process's peak resident memory so far. */
static cvr_status create_volume(cvr_context *ctx, FILE *out, cvr_volume_desc *desc, cvr_volume **vol) {
  desc->borrow_data = lend;
  const double start = wall_ms();
  const cvr_status st = cvr_volume_create(ctx, desc, vol);
  const double ms = wall_ms() - start;
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  if (st == CVR_OK)
    fprintf(out,
            "{\"bench\":\"volume\",\"dims\":\"%dx%dx%d\",\"lent\":%d,\"create_ms\":%.1f,"
            "\"host_copy_mib\":%.1f,\"peak_rss_mib\":%.1f}\n",
            desc->dims[0], desc->dims[1], desc->dims[2], lend, ms,
            cvr_volume_host_bytes(*vol) / 1048576.0, usage.ru_maxrss / 1024.0);
  return st;
}

/* The orbit on real data: every configuration at every azimuth. */
static int orbit(cvr_context *ctx, FILE *out, const char *path, const int *resample, double lo,
                 double hi, const int *rays, int n_rays, const int azimuths[2], double elevation,
                 int step,
                 int warmups, int repeats, const bench_config *configs, int n_configs) {
  cvr_tools_volume data;
  char err[512], derived[64] = "";
  if (!cvr_tools_load_nifti(path, &data, err, sizeof err)) {
    fprintf(stderr, "cvr-bench: %s\n", err);
    return 1;
  }
  if (resample[0] > 0) {
    cvr_tools_volume r;
    if (!cvr_tools_resample(&data, resample, &r)) {
      fprintf(stderr, "cvr-bench: no host memory to resample to %dx%dx%d\n", resample[0],
              resample[1], resample[2]);
      cvr_tools_volume_free(&data);
      return 1;
    }
    snprintf(derived, sizeof derived, "%dx%dx%d", data.desc.dims[0], data.desc.dims[1],
             data.desc.dims[2]);
    cvr_tools_volume_free(&data);
    data = r;
  }
  cvr_volume *vol = NULL;
  cvr_transfer_function *tf = NULL;
  int rc = 0;
  if (create_volume(ctx, out, &data.desc, &vol) != CVR_OK) {
    fprintf(stderr, "cvr-bench: %s\n", cvr_last_error(ctx));
    cvr_tools_volume_free(&data);
    return 1;
  }
  double range[2], center[3], radius;
  cvr_volume_get_range(vol, range);
  static float table[4 * 1024];
  cvr_tools_ramp_tf(table, 1024, range[0], range[1], lo, hi, 0.5f);
  double spacing = data.desc.spacing[0];
  for (int a = 1; a < 3; ++a) spacing = data.desc.spacing[a] < spacing ? data.desc.spacing[a] : spacing;
  const cvr_transfer_function_desc td = {
      .rgba = table, .size = 1024, .range = {range[0], range[1]}, .unit_distance = spacing};
  cvr_transfer_function_create(ctx, &td, &tf);
  cvr_tools_volume_bounds(&data.desc, center, &radius);
  const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  /* configurations outermost: each changes the volume's layout or padding
   * at most once, and a rotating one sees the orbit's views in order */
  for (int b = 0; b < n_configs && !rc; ++b)
    for (int ri = 0; ri < n_rays && !rc; ++ri)
      for (int az = azimuths[0]; az <= azimuths[1]; az += step) {
        cvr_view view;
        cvr_tools_orbit_view(center, radius, az, elevation, CVR_PROJECTION_PERSPECTIVE, rays[ri], rays[ri],
                             &view);
        cvr_render_settings s = configs[b].settings;
        s.sample_distance = 0.5 * spacing;
        double median, fastest, rotation_ms;
        cvr_render_stats st;
        if (!time_view(ctx, vol, tf, &view, &s, warmups, repeats, &median, &fastest, &rotation_ms,
                       &st)) {
          rc = 1;
          break;
        }
        fprintf(out,
                "{\"bench\":\"orbit\",\"volume\":\"%s\",\"resampled_from\":\"%s\",\"dims\":\"%dx%dx%d\",\"R\":%d,"
                "\"azimuth\":%d,\"elevation\":%g,\"strategy\":\"%s\",\"config\":\"%s\",\"block\":\"%dx%d\",\"ray_segments\":%d,"
                "\"layout\":\"%s\",\"ms\":%.4f,\"ms_min\":%.4f,\"rotation_ms\":%.4f,"
                "\"axes\":\"%+d%+d%+d\",\"shaded\":%d,\"slab_depth\":%d,\"slab_border\":\"%s\",\"rays\":%llu,"
                "\"samples\":%llu,\"skipped_empty\":%llu,\"skipped_terminated\":%llu,"
                "\"gsamples_per_s\":%.2f,\"total_ms\":%.4f,\"budget_mib\":%.0f,\"bricks\":%d,"
                "\"bricks_drawn\":%d,\"bricks_loaded\":%d,\"mib_loaded\":%.1f,\"load_ms\":%.3f}\n",
                name, derived, data.desc.dims[0], data.desc.dims[1], data.desc.dims[2], rays[ri], az, elevation,
                cvr_strategy_name(st.strategy), configs[b].label, st.block_width, st.block_height, st.ray_segments,
                cvr_memory_layout_name(st.memory_layout), median, fastest, rotation_ms,
                st.volume_axes[0], st.volume_axes[1], st.volume_axes[2], s.shading.enabled,
                st.slab_depth, cvr_slab_border_name(st.slab_border), (unsigned long long)st.rays,
                (unsigned long long)st.samples, (unsigned long long)st.samples_skipped_empty,
                (unsigned long long)st.samples_skipped_terminated,
                st.samples / (median * 1e-3) / 1e9, st.total_ms, budget_mib, st.brick_count,
                st.bricks_drawn, st.bricks_loaded, st.brick_bytes_loaded / 1048576.0,
                st.brick_load_ms);
        fflush(out);
      }
  cvr_transfer_function_destroy(tf);
  cvr_volume_destroy(vol);
  cvr_tools_volume_free(&data);
  return rc;
}

int main(int argc, char **argv) {
  int sizes[8] = {512, 1024}, n_sizes = 2, rays[8] = {512}, n_rays = 1;
  int blocks[16][2] = {{16, 16}, {32, 4}, {1, 128}, {8, 16}}, n_blocks = 4;
  enum { MAX_CONFIGS = 256 };
  static bench_config configs[MAX_CONFIGS];
  int n_configs = 0;
  const char *axes = "xyz", *out_path = NULL;
  int step = 15, repeats = 7, warmups = 2, ceiling = 0, range = 180;
  int shape[3] = {0, 0, 0}, resample[3] = {0, 0, 0}, azimuths[2] = {0, 359};
  const char *volume_path = NULL;
  double lo = 0.0, hi = 0.0, elevation = 20.0, shift[2] = {0.0, 0.0};
  char turn_axis = 0;
  int turn_degrees = 0;
  cvr_context_options o;
  cvr_context_options_init(&o);
  o.backend = CVR_BACKEND_CUDA;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--sizes") && v) n_sizes = parse_list(argv[++i], sizes, 8);
    else if (!strcmp(a, "--rays") && v) n_rays = parse_list(argv[++i], rays, 8);
    else if (!strcmp(a, "--blocks") && v) {
      n_blocks = 0;
      for (const char *s = argv[++i]; *s && n_blocks < 16;) {
        if (sscanf(s, "%dx%d", &blocks[n_blocks][0], &blocks[n_blocks][1]) == 2) ++n_blocks;
        s = strchr(s, ',');
        if (!s) break;
        ++s;
      }
    } else if (!strcmp(a, "--configs") && v) {
      for (const char *c = argv[++i]; c && *c; c = strchr(c, ',') ? strchr(c, ',') + 1 : NULL) {
        if (n_configs == MAX_CONFIGS) { /* never drop configurations silently */
          fprintf(stderr, "cvr-bench: more than %d configurations\n", MAX_CONFIGS);
          return 2;
        }
        if (!parse_config(c, &configs[n_configs++])) {
          fprintf(stderr, "cvr-bench: bad configuration in %s\n", c);
          usage();
          return 2;
        }
      }
    } else if (!strcmp(a, "--axes") && v) axes = argv[++i];
    else if (!strcmp(a, "--step") && v) step = atoi(argv[++i]);
    else if (!strcmp(a, "--range") && v) range = atoi(argv[++i]);
    else if (!strcmp(a, "--shape") && v) {
      if (sscanf(argv[++i], "%dx%dx%d", &shape[0], &shape[1], &shape[2]) != 3) shape[0] = -1;
    } else if (!strcmp(a, "--repeats") && v) repeats = atoi(argv[++i]);
    else if (!strcmp(a, "--warmups") && v) warmups = atoi(argv[++i]);
    else if (!strcmp(a, "--volume") && v) volume_path = argv[++i];
    else if (!strcmp(a, "--resample") && v) {
      if (sscanf(argv[++i], "%dx%dx%d", &resample[0], &resample[1], &resample[2]) != 3 ||
          resample[0] < 2 || resample[1] < 2 || resample[2] < 2)
        resample[0] = -1;
    } else if (!strcmp(a, "--azimuths") && v) {
      if (sscanf(argv[++i], "%d:%d", &azimuths[0], &azimuths[1]) != 2) azimuths[0] = -1;
    } else if (!strcmp(a, "--elevation") && v) elevation = atof(argv[++i]);
    else if (!strcmp(a, "--turn") && v) {
      if (sscanf(argv[++i], "%c:%d", &turn_axis, &turn_degrees) != 2 || turn_axis < 'x' ||
          turn_axis > 'z')
        shape[0] = -1; /* (usage) */
    } else if (!strcmp(a, "--shift") && v) {
      if (sscanf(argv[++i], "%lf,%lf", &shift[0], &shift[1]) != 2) shape[0] = -1; /* (usage) */
    } else if (!strcmp(a, "--lo") && v) lo = atof(argv[++i]);
    else if (!strcmp(a, "--hi") && v) hi = atof(argv[++i]);
    else if (!strcmp(a, "--backend") && v) o.backend = !strcmp(argv[++i], "cpu") ? CVR_BACKEND_CPU : CVR_BACKEND_CUDA;
    else if (!strcmp(a, "--budget") && v) {
      char unit = 0;
      double x = 0.0;
      const int n = sscanf(argv[++i], "%lf%c", &x, &unit);
      const double scale = unit == 'G' ? 1073741824.0 : unit == 'M' ? 1048576.0 : unit == 'K' ? 1024.0 : 1.0;
      if (n < 1 || !(x > 0.0)) shape[0] = -1; /* (usage) */
      o.memory_budget = (size_t)(x * scale);
      budget_mib = (double)o.memory_budget / 1048576.0;
    } else if (!strcmp(a, "--brick-size") && v) o.brick_size = atoi(argv[++i]);
    else if (!strcmp(a, "--ceiling")) ceiling = 1;
    else if (!strcmp(a, "--lend")) lend = 1;
    else if (!strcmp(a, "--out") && v) out_path = argv[++i];
    else {
      usage();
      return 2;
    }
  }
  if (step < 1 || repeats < 1 || warmups < 0 || repeats + warmups > 64 || range < 0 ||
      range > 360 || shape[0] < 0 || resample[0] < 0 || (volume_path && !(hi > lo)) ||
      azimuths[0] < 0 || azimuths[1] < azimuths[0] || azimuths[1] > 359 || elevation < -89.0 ||
      elevation > 89.0) {
    usage();
    return 2;
  }
  if (!n_configs) /* --blocks: the standard strategy */
    for (int b = 0; b < n_blocks; ++b) {
      cvr_render_settings_init(&configs[b].settings);
      configs[b].settings.block_width = blocks[b][0];
      configs[b].settings.block_height = blocks[b][1];
      snprintf(configs[b].label, sizeof configs[b].label, "std:%dx%d", blocks[b][0], blocks[b][1]);
      n_configs = b + 1;
    }
  FILE *out = out_path ? fopen(out_path, "w") : stdout;
  if (!out) {
    perror(out_path);
    return 1;
  }
  cvr_context *ctx = NULL;
  if (cvr_context_create(&o, &ctx) != CVR_OK) {
    fprintf(stderr, "cvr-bench: %s\n", cvr_last_error(NULL));
    return o.backend == CVR_BACKEND_CUDA ? 125 : 1;
  }
  cvr_tuning_set_cache_dir(ctx, ""); /* AUTO's tables: this run's own */
  first_frame_out = sweep_out = out;
  cvr_tools_write_meta(out, cvr_context_description(ctx), CVR_GIT_COMMIT, argc, argv);
#ifdef CVR_BENCH_HAVE_CUDA
  if (ceiling && o.backend == CVR_BACKEND_CUDA) {
    double g = 0.0;
    char info[256];
    if (cvr_bench_texture_ceiling(&g, info, sizeof info))
      fprintf(out, "{\"bench\":\"texture_ceiling\",\"gsamples_per_s\":%.1f,\"info\":\"%s\"}\n", g, info);
    else
      fprintf(stderr, "ceiling: %s\n", info);
  }
#else
  (void)ceiling;
#endif

  if (volume_path) {
    const int rc = orbit(ctx, out, volume_path, resample, lo, hi, rays, n_rays, azimuths, elevation, step,
                         warmups, repeats, configs, n_configs);
    cvr_context_destroy(ctx);
    if (out != stdout) fclose(out);
    return rc;
  }
  float table[4 * 256];
  cvr_tools_ramp_tf(table, 256, 0.0, 255.0, 0.0, 255.0, 0.05f);
  const cvr_transfer_function_desc td = {
      .rgba = table, .size = 256, .range = {0.0, 255.0}, .unit_distance = 1.0};
  cvr_transfer_function *tf = NULL;
  cvr_transfer_function_create(ctx, &td, &tf);
  int rc = 0;
  int volumes[9][3], n_volumes = 0;
  for (int si = 0; si < n_sizes; ++si, ++n_volumes)
    volumes[n_volumes][0] = volumes[n_volumes][1] = volumes[n_volumes][2] = sizes[si];
  if (shape[0] > 0) memcpy(volumes[n_volumes++], shape, sizeof shape);
  for (int vi = 0; vi < n_volumes && !rc; ++vi) {
    const int *d = volumes[vi], n = d[0] > d[1] ? (d[0] > d[2] ? d[0] : d[2]) : (d[1] > d[2] ? d[1] : d[2]);
    uint8_t *voxels = cvr_tools_random_voxels(d);
    if (!voxels) {
      fprintf(stderr, "cvr-bench: no host memory for %dx%dx%d\n", d[0], d[1], d[2]);
      rc = 1;
      break;
    }
    cvr_volume_desc desc;
    cvr_volume_desc_init(&desc);
    desc.data = voxels;
    memcpy(desc.dims, d, sizeof desc.dims);
    cvr_volume *vol = NULL;
    if (create_volume(ctx, out, &desc, &vol) != CVR_OK) {
      fprintf(stderr, "cvr-bench: %s\n", cvr_last_error(ctx));
      free(voxels);
      rc = 1;
      break;
    }
    if (!lend) free(voxels); /* (lent: the volume reads them until destroyed) */
    /* the volume's centre; the view covers its largest face */
    const double center[3] = {0.5 * (d[0] - 1), 0.5 * (d[1] - 1), 0.5 * (d[2] - 1)};
    /* configurations outermost: each changes the volume's layout or padding
     * at most once, and a rotating one sees the views in order as frames */
    for (int b = 0; b < n_configs && !rc; ++b)
      for (int ri = 0; ri < n_rays && !rc; ++ri) {
        const int r = rays[ri];
        cvr_view view;
        cvr_tools_micro_view(d, r, &view);
        for (const char *ax = axes; *ax && !rc; ++ax) {
          const int axis = *ax - 'x';
          if (axis < 0 || axis > 2) continue;
          for (int angle = 0; angle <= range && !(range == 360 && angle == 360); angle += step) {
            cvr_tools_rotation_about(axis, angle, center, view.volume_to_world);
            if (turn_axis) {
              double turn[16];
              cvr_tools_rotation_about(turn_axis - 'x', turn_degrees, center, turn);
              cvr_tools_multiply(view.volume_to_world, turn, view.volume_to_world);
            }
            view.volume_to_world[3] += shift[0]; /* (world x, y: the screen's) */
            view.volume_to_world[7] += shift[1];
            cvr_render_settings s = configs[b].settings;
            s.sample_distance = 0.5;
            s.early_termination = 0;
            s.max_samples_per_ray = 512;
            double median, fastest, rotation_ms;
            cvr_render_stats st;
            if (!time_view(ctx, vol, tf, &view, &s, warmups, repeats, &median, &fastest,
                           &rotation_ms, &st)) {
              rc = 1;
              break;
            }
            fprintf(out,
                    "{\"bench\":\"wang_micro\",\"N\":%d,\"dims\":\"%dx%dx%d\",\"R\":%d,"
                    "\"axis\":\"%c\",\"angle\":%d,\"turn\":\"%c%d\",\"strategy\":\"%s\",\"config\":\"%s\","
                    "\"block\":\"%dx%d\",\"ray_segments\":%d,\"layout\":\"%s\",\"ms\":%.4f,\"ms_min\":%.4f,"
                    "\"rotation_ms\":%.4f,\"frame_ms\":%.4f,\"axes\":\"%+d%+d%+d\","
                    "\"volume_mib\":%.1f,\"samples\":%llu,\"skipped_empty\":%llu,"
                    "\"gsamples_per_s\":%.2f,\"auto_choice\":\"%s\",\"total_ms\":%.4f,\"budget_mib\":%.0f,"
                    "\"bricks\":%d,\"bricks_drawn\":%d,\"bricks_loaded\":%d,"
                    "\"mib_loaded\":%.1f,\"load_ms\":%.3f}\n",
                    n, d[0], d[1], d[2], r, *ax, angle, turn_axis ? turn_axis : '-', turn_degrees,
                    cvr_strategy_name(st.strategy),
                    configs[b].label, st.block_width, st.block_height, st.ray_segments,
                    cvr_memory_layout_name(st.memory_layout), median, fastest, rotation_ms,
                    median + rotation_ms, st.volume_axes[0], st.volume_axes[1], st.volume_axes[2],
                    st.volume_bytes / 1048576.0, (unsigned long long)st.samples,
                    (unsigned long long)st.samples_skipped_empty, st.samples / (median * 1e-3) / 1e9,
                    auto_choice, st.total_ms, budget_mib, st.brick_count, st.bricks_drawn, st.bricks_loaded,
                    st.brick_bytes_loaded / 1048576.0, st.brick_load_ms);
            fflush(out);
          }
        }
      }
    cvr_volume_destroy(vol);
    if (lend) free(voxels);
  }
  cvr_transfer_function_destroy(tf);
  cvr_context_destroy(ctx);
  if (out != stdout) fclose(out);
  return rc;
}
