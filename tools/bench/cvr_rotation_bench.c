// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* cvr-rotation-bench: the in-place rotation kernel alone (Misaki et al.), a
 * quarter turn of a random uint8 volume per memory layout and tile, against
 * a device-to-device copy of as many bytes; with --orders instead, the
 * standard kernel on the micro-benchmark's views about z in each voxel
 * order the copy can be turned to. It reaches the copy through the
 * library's test hooks (cvr_debug_rotate, cvr_debug_turn_to), so it links
 * libcvr-internal. Output: JSON lines. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cvr.h"
#include "cvr_commit.h"
#include "cvr_internal.h"
#include "cvr_tools.h"

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

#ifdef CVR_BENCH_HAVE_CUDA
int cvr_bench_copy_bandwidth(size_t bytes, int repeats, double *gbytes_per_s);
#endif

/* The in-place rotation kernel (one quarter turn, median of repeats) per
 * layout and tile depth k, as effective bandwidth: every voxel of the
 * turned square prism is read and written once. Beside it a device-to-device
 * copy of as many bytes (bandwidthTest's measure: 2 x bytes / time). */
static int rotation_bandwidth(cvr_context *ctx, FILE *out, cvr_volume *vol, const int *d,
                              int repeats) {
  const int partner = abs(d[0] - d[1]) < abs(d[0] - d[2]) ? 1 : 2;
  const int n = d[0] > d[partner] ? d[0] : d[partner];
  const double moved = (double)n * n * d[3 - partner]; /* bytes, uint8 */
  double copy = 0.0;
#ifdef CVR_BENCH_HAVE_CUDA
  if (!cvr_bench_copy_bandwidth((size_t)moved, repeats, &copy)) copy = 0.0;
#endif
  const cvr_memory_layout layouts[3] = {CVR_LAYOUT_TEXTURE, CVR_LAYOUT_ARRAY_ORDER, CVR_LAYOUT_Z_ORDER};
  const int depths[6] = {1, 2, 4, 8, 16, 32}, widths[2] = {32, 16};
  for (int l = 0; l < 3; ++l)
    for (int w = 0; w < 2; ++w)
      for (int i = 0; i < 6; ++i) {
        cvr_render_settings s;
        cvr_render_settings_init(&s);
        s.memory_layout = layouts[l];
        s.rotation_policy = CVR_ROTATION_ON_REGION_CHANGE;
        s.rotation_tile[0] = widths[w];
        s.rotation_tile[1] = depths[i];
        double ms[64];
        int ok = cvr_debug_rotate(vol, &s, 1, &ms[0]) == CVR_OK; /* layout change and warm-up */
        for (int k = 0; ok && k < repeats; ++k) ok = cvr_debug_rotate(vol, &s, 1, &ms[k]) == CVR_OK;
        if (!ok) {
          fprintf(out, "{\"bench\":\"rotation\",\"layout\":\"%s\",\"t\":%d,\"k\":%d,\"error\":\"%s\"}\n",
                  cvr_memory_layout_name(layouts[l]), widths[w], depths[i], cvr_last_error(ctx));
          continue;
        }
        qsort(ms, (size_t)repeats, sizeof ms[0], cmp_double);
        const double median = ms[repeats / 2];
        fprintf(out,
                "{\"bench\":\"rotation\",\"dims\":\"%dx%dx%d\",\"turned\":\"%dx%dx%d\","
                "\"layout\":\"%s\",\"t\":%d,\"k\":%d,\"ms\":%.4f,\"ms_min\":%.4f,"
                "\"gbytes_per_s\":%.1f,\"copy_gbytes_per_s\":%.1f,\"of_copy\":%.3f}\n",
                d[0], d[1], d[2], n, partner == 1 ? n : d[1], partner == 2 ? n : d[2],
                cvr_memory_layout_name(layouts[l]), widths[w], depths[i], median, ms[0],
                2.0 * moved / (median * 1e-3) / 1e9, copy,
                copy > 0.0 ? 2.0 * moved / (median * 1e-3) / 1e9 / copy : 0.0);
        fflush(out);
      }
  return 0;
}

/* The standard kernel (blocks w x h, s ray segments) at the micro-benchmark's
 * views about z (512^2 parallel rays across the face, 512 samples of 0.5
 * voxel, no ERT), angles 0..90 every 15 degrees, with the copy turned to
 * each of a few voxel orders first (rendered without rotation, so that it
 * stays there): the median of 9 frames after 2. */
static int views_in_orders(cvr_context *ctx, FILE *out, cvr_volume *vol, const int *d) {
  static const int orders[][3] = {{1, 2, 3}, {3, 2, -1}, {3, 1, 2}, {2, 1, -3}};
  static const int blocks[][3] = {{4, 64, 1}, {8, 8, 4}, {16, 16, 1}, {32, 4, 1}, {64, 4, 1}, {2, 128, 1}};
  float table[4 * 256];
  cvr_tools_ramp_tf(table, 256, 0.0, 255.0, 0.0, 255.0, 0.05f);
  const cvr_transfer_function_desc td = {
      .rgba = table, .size = 256, .range = {0.0, 255.0}, .unit_distance = 1.0};
  cvr_transfer_function *tf = NULL;
  if (cvr_transfer_function_create(ctx, &td, &tf) != CVR_OK) return 1;
  const double c[3] = {0.5 * (d[0] - 1), 0.5 * (d[1] - 1), 0.5 * (d[2] - 1)};
  cvr_view view;
  cvr_tools_micro_view(d, 512, &view);
  const cvr_image none = {NULL, NULL, NULL, NULL};
  int rc = 0;
  for (size_t o = 0; o < sizeof orders / sizeof orders[0] && !rc; ++o) {
    cvr_render_settings s;
    cvr_render_settings_init(&s);
    s.rotation_policy = CVR_ROTATION_ON_REGION_CHANGE; /* (what lets the copy turn) */
    if (cvr_debug_turn_to(vol, &s, orders[o], NULL, NULL) != CVR_OK) {
      fprintf(out, "{\"bench\":\"order_views\",\"order\":\"%+d%+d%+d\",\"error\":\"%s\"}\n",
              orders[o][0], orders[o][1], orders[o][2], cvr_last_error(ctx));
      continue;
    }
    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0] && !rc; ++b)
      for (int angle = 0; angle <= 90 && !rc; angle += 15) {
        cvr_tools_rotation_about(2, angle, c, view.volume_to_world);
        cvr_render_settings_init(&s);
        s.strategy = CVR_STRATEGY_STANDARD;
        s.block_width = blocks[b][0];
        s.block_height = blocks[b][1];
        s.ray_segments = blocks[b][2];
        s.sample_distance = 0.5;
        s.early_termination = 0;
        s.max_samples_per_ray = 512;
        s.rotation_policy = CVR_ROTATION_NEVER;
        cvr_render_stats st;
        double ms[9];
        for (int k = 0; k < 11 && !rc; ++k) {
          rc = cvr_render(ctx, vol, tf, &view, &s, &none, &st) != CVR_OK;
          if (!rc && k >= 2) ms[k - 2] = st.kernel_ms;
        }
        if (rc) {
          fprintf(stderr, "cvr-rotation-bench: %s\n", cvr_last_error(ctx));
          break;
        }
        qsort(ms, 9, sizeof ms[0], cmp_double);
        fprintf(out,
                "{\"bench\":\"order_views\",\"dims\":\"%dx%dx%d\",\"order\":\"%+d%+d%+d\","
                "\"axes\":\"%+d%+d%+d\",\"block\":\"%dx%d\",\"ray_segments\":%d,\"axis\":\"z\","
                "\"angle\":%d,\"ms\":%.4f,\"gsamples_per_s\":%.2f}\n",
                d[0], d[1], d[2], orders[o][0], orders[o][1], orders[o][2], st.volume_axes[0],
                st.volume_axes[1], st.volume_axes[2], blocks[b][0], blocks[b][1], blocks[b][2], angle,
                ms[4], (double)st.samples / (ms[4] * 1e-3) / 1e9);
        fflush(out);
      }
  }
  cvr_transfer_function_destroy(tf);
  return rc;
}

static void usage(void) {
  fprintf(stderr, "usage: cvr-rotation-bench [--sizes N[,N...]] [--shape AxBxC] [--repeats K] [--orders]\n"
                  "                          [--out FILE]\n"
                  "  cubes of the sizes (default 512,1024) and the shape, each turned in place\n"
                  "  per layout and tile (t x k), K timed turns each (default 7, at most 63);\n"
                  "  --orders: instead, the standard kernel's views about z in four voxel orders\n");
}

int main(int argc, char **argv) {
  int volumes[9][3], n_volumes = 0, repeats = 7, orders = 0;
  const char *out_path = NULL;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--sizes") && v) {
      for (char *s = argv[++i], *end; *s && n_volumes < 8; s = *end ? end + 1 : end) {
        const int n = (int)strtol(s, &end, 10);
        volumes[n_volumes][0] = volumes[n_volumes][1] = volumes[n_volumes][2] = n;
        ++n_volumes;
      }
    } else if (!strcmp(a, "--shape") && v) {
      int *d = volumes[n_volumes];
      if (n_volumes == 9 || sscanf(argv[++i], "%dx%dx%d", &d[0], &d[1], &d[2]) != 3) {
        usage();
        return 2;
      }
      ++n_volumes;
    } else if (!strcmp(a, "--repeats") && v) repeats = atoi(argv[++i]);
    else if (!strcmp(a, "--orders")) orders = 1;
    else if (!strcmp(a, "--out") && v) out_path = argv[++i];
    else {
      usage();
      return 2;
    }
  }
  if (!n_volumes) {
    volumes[0][0] = volumes[0][1] = volumes[0][2] = 512;
    volumes[1][0] = volumes[1][1] = volumes[1][2] = 1024;
    n_volumes = 2;
  }
  for (int vi = 0; vi < n_volumes; ++vi)
    if (volumes[vi][0] < 2 || volumes[vi][1] < 2 || volumes[vi][2] < 2) repeats = 0;
  if (repeats < 1 || repeats > 63) {
    usage();
    return 2;
  }
  FILE *out = out_path ? fopen(out_path, "w") : stdout;
  if (!out) {
    perror(out_path);
    return 1;
  }
  cvr_context_options o;
  cvr_context_options_init(&o);
  o.backend = CVR_BACKEND_CUDA;
  cvr_context *ctx = NULL;
  if (cvr_context_create(&o, &ctx) != CVR_OK) {
    fprintf(stderr, "cvr-rotation-bench: %s\n", cvr_last_error(NULL));
    return 125;
  }
  cvr_tools_write_meta(out, cvr_context_description(ctx), CVR_GIT_COMMIT, argc, argv);
  int rc = 0;
  for (int vi = 0; vi < n_volumes && !rc; ++vi) {
    const int *d = volumes[vi];
    uint8_t *voxels = cvr_tools_random_voxels(d);
    cvr_volume_desc desc;
    cvr_volume_desc_init(&desc);
    desc.data = voxels;
    memcpy(desc.dims, d, sizeof desc.dims);
    cvr_volume *vol = NULL;
    if (!voxels || cvr_volume_create(ctx, &desc, &vol) != CVR_OK) {
      fprintf(stderr, "cvr-rotation-bench: %dx%dx%d: %s\n", d[0], d[1], d[2],
              voxels ? cvr_last_error(ctx) : "no host memory");
      rc = 1;
    } else {
      rc = orders ? views_in_orders(ctx, out, vol, d) : rotation_bandwidth(ctx, out, vol, d, repeats);
    }
    free(voxels);
    cvr_volume_destroy(vol);
  }
  cvr_context_destroy(ctx);
  if (out != stdout) fclose(out);
  return rc;
}
