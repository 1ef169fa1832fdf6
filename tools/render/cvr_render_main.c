// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* cvr-render: renders a NIfTI volume to a PNG with the cvr library. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cvr.h"
#include "cvr_tools.h"

static void usage(void) {
  fprintf(stderr,
          "usage: cvr-render INPUT.nii[.gz] OUTPUT.png [options]\n"
          "  --size WxH            image size (default 768x768)\n"
          "  --backend auto|cuda|cpu\n"
          "  --azimuth DEG         camera azimuth about the up axis (default 210: NIfTI's\n"
          "                        anterior side, turned 30 degrees)\n"
          "  --elevation DEG       camera elevation (default 20)\n"
          "  --up x|y|z            volume axis shown upwards (default z, NIfTI's superior)\n"
          "  --parallel            parallel projection (default perspective)\n"
          "  --sample-distance D   world units (default: half the smallest spacing)\n"
          "  --opacity LO HI       scalar values where opacity starts and saturates\n"
          "                        (default: from the data's histogram)\n");
}

/* Opacity ramp bounds from the histogram of the voxels above the minimum:
 * it starts at the 50th percentile and saturates at the 99.5th. */
static void auto_ramp(const cvr_volume_desc *d, const double range[2], double *lo, double *hi) {
  enum { BINS = 1024 };
  static long hist[BINS];
  memset(hist, 0, sizeof hist);
  const size_t n = (size_t)d->dims[0] * d->dims[1] * d->dims[2];
  const double scale = (BINS - 1) / (range[1] - range[0]);
  long total = 0;
  for (size_t i = 0; i < n; i += 7) { /* a sparse pass is enough for percentiles */
    double v;
    switch (d->type) {
    case CVR_INT8: v = ((const int8_t *)d->data)[i]; break;
    case CVR_UINT8: v = ((const uint8_t *)d->data)[i]; break;
    case CVR_INT16: v = ((const int16_t *)d->data)[i]; break;
    case CVR_UINT16: v = ((const uint16_t *)d->data)[i]; break;
    case CVR_INT32: v = ((const int32_t *)d->data)[i]; break;
    case CVR_UINT32: v = ((const uint32_t *)d->data)[i]; break;
    case CVR_FLOAT32: v = ((const float *)d->data)[i]; break;
    default: v = ((const double *)d->data)[i]; break;
    }
    if (!(v > range[0])) continue;
    hist[(int)((v - range[0]) * scale)]++;
    total++;
  }
  long acc = 0;
  *lo = range[0];
  *hi = range[1];
  int lo_set = 0;
  for (int b = 0; b < BINS; ++b) {
    acc += hist[b];
    if (!lo_set && acc >= 0.5 * total) {
      *lo = range[0] + b / scale;
      lo_set = 1;
    }
    if (acc >= 0.995 * total) {
      *hi = range[0] + (b + 1) / scale;
      break;
    }
  }
  if (!(*hi > *lo)) *hi = *lo + (range[1] - range[0]) * 0.01;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    usage();
    return 2;
  }
  const char *input = argv[1], *output = argv[2];
  int width = 768, height = 768, parallel = 0, have_ramp = 0;
  int up = 2;
  double azimuth = 210.0, elevation = 20.0, sample_distance = 0.0, lo = 0.0, hi = 0.0;
  cvr_context_options options;
  cvr_context_options_init(&options);
  for (int i = 3; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "--size") && i + 1 < argc && sscanf(argv[i + 1], "%dx%d", &width, &height) == 2) {
      ++i;
    } else if (!strcmp(a, "--backend") && i + 1 < argc) {
      const char *b = argv[++i];
      options.backend = !strcmp(b, "cuda") ? CVR_BACKEND_CUDA
                        : !strcmp(b, "cpu") ? CVR_BACKEND_CPU
                                            : CVR_BACKEND_AUTO;
    } else if (!strcmp(a, "--azimuth") && i + 1 < argc) {
      azimuth = atof(argv[++i]);
    } else if (!strcmp(a, "--elevation") && i + 1 < argc) {
      elevation = atof(argv[++i]);
    } else if (!strcmp(a, "--up") && i + 1 < argc && argv[i + 1][0] >= 'x' && argv[i + 1][0] <= 'z') {
      up = argv[++i][0] - 'x';
    } else if (!strcmp(a, "--parallel")) {
      parallel = 1;
    } else if (!strcmp(a, "--sample-distance") && i + 1 < argc) {
      sample_distance = atof(argv[++i]);
    } else if (!strcmp(a, "--opacity") && i + 2 < argc) {
      lo = atof(argv[++i]);
      hi = atof(argv[++i]);
      have_ramp = 1;
    } else {
      usage();
      return 2;
    }
  }

  char err[512];
  cvr_tools_volume vol;
  if (!cvr_tools_load_nifti(input, &vol, err, sizeof err)) {
    fprintf(stderr, "cvr-render: %s\n", err);
    return 1;
  }
  cvr_context *ctx = NULL;
  cvr_volume *volume = NULL;
  cvr_transfer_function *tf = NULL;
  uint8_t *pixels = NULL;
  int rc = 1;
  cvr_status st = cvr_context_create(&options, &ctx);
  if (st != CVR_OK) {
    fprintf(stderr, "cvr-render: %s\n", cvr_last_error(NULL));
    goto out;
  }
  printf("backend: %s\n", cvr_context_description(ctx));
  if ((st = cvr_volume_create(ctx, &vol.desc, &volume)) != CVR_OK) goto fail;
  double range[2];
  cvr_volume_get_range(volume, range);
  if (!(range[1] > range[0])) range[1] = range[0] + 1.0;
  if (!have_ramp) auto_ramp(&vol.desc, range, &lo, &hi);
  float table[4 * 256];
  cvr_tools_ramp_tf(table, 256, range[0], range[1], lo, hi, 0.35f);
  double min_spacing = vol.desc.spacing[0];
  for (int a = 1; a < 3; ++a)
    if (vol.desc.spacing[a] < min_spacing) min_spacing = vol.desc.spacing[a];
  const cvr_transfer_function_desc tfd = {
      .rgba = table, .size = 256, .range = {range[0], range[1]}, .unit_distance = min_spacing};
  if ((st = cvr_transfer_function_create(ctx, &tfd, &tf)) != CVR_OK) goto fail;

  double center[3], radius;
  cvr_tools_volume_bounds(&vol.desc, center, &radius);
  cvr_view view;
  cvr_tools_orbit_view(center, radius, azimuth, elevation,
                       parallel ? CVR_PROJECTION_PARALLEL : CVR_PROJECTION_PERSPECTIVE, width,
                       height, &view);
  /* turn the chosen volume axis onto +y, the orbit's up */
  if (up == 2) cvr_tools_rotation_about(0, -90.0, center, view.volume_to_world);
  if (up == 0) cvr_tools_rotation_about(2, 90.0, center, view.volume_to_world);
  cvr_render_settings settings;
  cvr_render_settings_init(&settings);
  settings.sample_distance = sample_distance > 0.0 ? sample_distance : 0.5 * min_spacing;
  pixels = malloc((size_t)width * height * 4);
  if (!pixels) goto out;
  const cvr_image image = {pixels, NULL, NULL, NULL};
  cvr_render_stats stats;
  if ((st = cvr_render(ctx, volume, tf, &view, &settings, &image, &stats)) != CVR_OK) goto fail;
  const float background[3] = {0.1f, 0.1f, 0.15f};
  if (!cvr_tools_write_png(output, pixels, width, height, background)) {
    fprintf(stderr, "cvr-render: cannot write %s\n", output);
    goto out;
  }
  printf("%s: %dx%dx%d %s, opacity ramp %g..%g\n", input, vol.desc.dims[0], vol.desc.dims[1],
         vol.desc.dims[2], range[0] < 0 ? "signed" : "unsigned", lo, hi);
  printf("rendered %dx%d in %.2f ms (ray casting %.2f ms, %llu rays, %llu samples) -> %s\n", width,
         height, stats.total_ms, stats.kernel_ms, (unsigned long long)stats.rays,
         (unsigned long long)stats.samples, output);
  rc = 0;
  goto out;
fail:
  fprintf(stderr, "cvr-render: %s: %s\n", cvr_status_string(st), cvr_last_error(ctx));
out:
  free(pixels);
  cvr_transfer_function_destroy(tf);
  cvr_volume_destroy(volume);
  cvr_context_destroy(ctx);
  cvr_tools_volume_free(&vol);
  return rc;
}
