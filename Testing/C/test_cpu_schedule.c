// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The CPU renderer's tiling and work assignment change who renders a pixel,
 * never its value: every tile shape, schedule and thread count gives the
 * same image and statistics, bit for bit. */
#include <math.h>
#include <string.h>

#include "test_common.h"

enum { N = 48, W = 97, H = 61 };

int main(void) {
  static uint16_t voxels[N * N * N];
  for (int z = 0; z < N; ++z)
    for (int y = 0; y < N; ++y)
      for (int x = 0; x < N; ++x)
        voxels[(z * N + y) * N + x] =
            (uint16_t)(30000.0 + 20000.0 * sin(x * 0.3) * cos(y * 0.2) * sin(z * 0.25 + 1.0));
  cvr_volume_desc d;
  cvr_volume_desc_init(&d);
  d.type = CVR_UINT16;
  d.data = voxels;
  d.dims[0] = d.dims[1] = d.dims[2] = N;
  d.spacing[1] = 0.8;

  uint8_t reference[W * H * 4], image8[W * H * 4];
  float depth_ref[W * H], depth[W * H];
  cvr_render_stats ref_stats;
  int combos = 0;
  const int threads[] = {1, 2, 3, 8};
  const int tiles[][2] = {{32, 32}, {1, 1}, {7, 13}, {256, 4}, {W, H}, {4096, 4096}};
  for (int t = 0; t < 4; ++t) {
    cvr_context_options o;
    cvr_context_options_init(&o);
    o.backend = CVR_BACKEND_CPU;
    o.cpu_threads = threads[t];
    cvr_context *ctx = NULL;
    cvr_volume *v = NULL;
    double range[2], center[3], radius;
    if (cvr_context_create(&o, &ctx) != CVR_OK || cvr_volume_create(ctx, &d, &v) != CVR_OK) {
      CHECK(0, "setup: %s", cvr_last_error(ctx));
      return 1;
    }
    cvr_volume_get_range(v, range);
    cvr_transfer_function *tf = cvr_test_ramp(ctx, range, 35000.0, 48000.0, 1.0);
    cvr_tools_volume_bounds(&d, center, &radius);
    cvr_view view;
    cvr_tools_orbit_view(center, radius, 35.0, 25.0, CVR_PROJECTION_PERSPECTIVE, W, H, &view);
    for (size_t i = 0; i < sizeof tiles / sizeof tiles[0]; ++i)
      for (int sched = 0; sched < 2; ++sched) {
        cvr_render_settings s;
        cvr_render_settings_init(&s);
        s.sample_distance = 0.7;
        s.cpu_tile_width = tiles[i][0];
        s.cpu_tile_height = tiles[i][1];
        s.cpu_schedule = sched ? CVR_CPU_SCHEDULE_STATIC : CVR_CPU_SCHEDULE_DYNAMIC;
        const int first = combos == 0;
        const cvr_image image = {first ? reference : image8, NULL, first ? depth_ref : depth, NULL};
        cvr_render_stats stats;
        CHECK(cvr_render(ctx, v, tf, &view, &s, &image, &stats) == CVR_OK, "render: %s",
              cvr_last_error(ctx));
        if (first) {
          ref_stats = stats;
          long lit = 0;
          for (int p = 0; p < W * H; ++p) lit += reference[4 * p + 3] > 10;
          CHECK(lit > W * H / 10, "reference shows too little: %ld pixels", lit);
        } else {
          CHECK(!memcmp(reference, image8, sizeof reference) && !memcmp(depth_ref, depth, sizeof depth),
                "image differs: %d threads, tile %dx%d, %s", threads[t], tiles[i][0], tiles[i][1],
                sched ? "static" : "dynamic");
          CHECK(stats.samples == ref_stats.samples && stats.rays == ref_stats.rays,
                "statistics differ: %llu vs %llu samples", (unsigned long long)stats.samples,
                (unsigned long long)ref_stats.samples);
        }
        ++combos;
      }
    cvr_transfer_function_destroy(tf);
    cvr_volume_destroy(v);
    cvr_context_destroy(ctx);
  }
  printf("%d thread/tile/schedule combinations\n", combos);
  return cvr_test_finish("test_cpu_schedule");
}
