/* Render settings: defaults and the checks every backend shares. */
#include <math.h>

#include "cvr_internal.h"

#define CVR_MAX_BLOCK_THREADS 1024 /* every CUDA device since Fermi */
#define CVR_MAX_CPU_TILE 4096

void cvr_render_settings_init(cvr_render_settings *s) {
  if (!s) return;
  s->sample_distance = 1.0;
  s->early_termination = 1;
  s->termination_opacity = 254.0 / 255.0;
  s->max_samples_per_ray = 0;
  s->interpolation = CVR_INTERPOLATION_LINEAR;
  s->strategy = CVR_STRATEGY_STANDARD;
  s->block_width = 16;
  s->block_height = 16;
  s->cpu_tile_width = 32;
  s->cpu_tile_height = 32;
  s->cpu_schedule = CVR_CPU_SCHEDULE_DYNAMIC;
}

cvr_status cvr_validate_settings(cvr_context *ctx, const cvr_render_settings *s) {
  if (!(s->sample_distance > 0.0) || !isfinite(s->sample_distance))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: sample distance %g must be positive and finite", s->sample_distance);
  if (!(s->termination_opacity > 0.0 && s->termination_opacity <= 1.0))
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: termination opacity %g must be in (0, 1]", s->termination_opacity);
  if (s->max_samples_per_ray < 0)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: max samples per ray %d is negative (0 = unlimited)",
                    s->max_samples_per_ray);
  if (s->interpolation != CVR_INTERPOLATION_LINEAR && s->interpolation != CVR_INTERPOLATION_NEAREST)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "settings: unknown interpolation %d",
                    (int)s->interpolation);
  if (s->strategy != CVR_STRATEGY_STANDARD)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "settings: unknown strategy %d",
                    (int)s->strategy);
  if (s->block_width < 1 || s->block_height < 1 ||
      (long)s->block_width * s->block_height > CVR_MAX_BLOCK_THREADS)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: thread block %d x %d must have 1..%d threads, each side >= 1",
                    s->block_width, s->block_height, CVR_MAX_BLOCK_THREADS);
  if (s->cpu_tile_width < 1 || s->cpu_tile_height < 1 || s->cpu_tile_width > CVR_MAX_CPU_TILE ||
      s->cpu_tile_height > CVR_MAX_CPU_TILE)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT,
                    "settings: CPU tile %d x %d must be 1..%d on each side", s->cpu_tile_width,
                    s->cpu_tile_height, CVR_MAX_CPU_TILE);
  if (s->cpu_schedule != CVR_CPU_SCHEDULE_DYNAMIC && s->cpu_schedule != CVR_CPU_SCHEDULE_STATIC)
    return cvr_fail(ctx, CVR_ERROR_INVALID_ARGUMENT, "settings: unknown CPU schedule %d",
                    (int)s->cpu_schedule);
  return CVR_OK;
}
