// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Shared by the C tests: checks, backends, data, and the one stated image
 * tolerance between backends and strategies. */
#ifndef CVR_TEST_COMMON_H
#define CVR_TEST_COMMON_H

#include <stdio.h>
#include <stdlib.h>

#include "cvr.h"
#include "cvr_tools.h"

/* ctest's SKIP_RETURN_CODE for tests that need a GPU or data that is absent. */
#define CVR_TEST_SKIP 125

extern int cvr_test_failures;

#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      ++cvr_test_failures;                                                                         \
      fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);                     \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
    }                                                                                              \
  } while (0)

/* Parses "cpu" or "cuda" from argv[1] and creates a context; exits with
 * CVR_TEST_SKIP when CUDA is asked for and no device is usable. */
cvr_context *cvr_test_context(int argc, char **argv, cvr_backend *backend);

/* Loads ../shared/data/<relative> (CVR_DATA_DIR, or the environment variable
 * of that name); returns 0 when the file is absent. */
int cvr_test_load(const char *relative, cvr_tools_volume *out);

/* Finishes a test: prints a summary line and returns the exit code. */
int cvr_test_finish(const char *name);

/* The tolerance between two renderings that should be the same image (CPU
 * reference vs. a CUDA strategy), in 8-bit levels of premultiplied RGBA:
 *  - at most CVR_TOL_OVER_FRACTION of the pixels may differ by more than
 *    CVR_TOL_LEVELS in any channel, or in depth by more than 1e-3, and
 *  - the mean channel difference stays below CVR_TOL_MEAN_LEVELS.
 * Why these numbers: both backends take the same samples (bit-identical
 * positions) and classify with the same half-precision table; what differs
 * is the texture unit's filtering arithmetic, which the CPU emulates (8-bit
 * weights) but cannot reproduce bit for bit. Measured on an H100 over 115
 * unshaded comparisons (test_cuda_vs_cpu): no pixel off by more than 1 level,
 * mean at most 0.0054 levels, depth off in at most 0.027% of the pixels.
 * Shading normalizes gradients and so magnifies those differences where the
 * gradient is small: over 12 shaded comparisons at most 0.081% of the pixels
 * were off by more than 1 level (mean at most 0.0136); with each ray's
 * samples starting at its entry (other positions), 0.116% on an H200. A
 * half-sample shift of the lattice or a reversed compositing order fails
 * this by far (test_reference_tolerance proves it on the same data). */
#define CVR_TOL_LEVELS 1
#define CVR_TOL_OVER_FRACTION 0.0015
#define CVR_TOL_MEAN_LEVELS 0.02

/* Where the texture's filtering moves a sample's opacity a little more
 * than plain classification does (gradient opacity takes differences of
 * filtered values, a jittered lattice meets other filter weights, an
 * isosurface crossing flips), early ray termination may stop a ray a sample
 * earlier or later than the reference: the samples reached may differ by this
 * fraction of them (cvr_test_visited). Measured on an H100 over
 * test_gradient_opacity and test_surfaces: at most 1.5e-4. */
#define CVR_TOL_ERT_SAMPLES_FRACTION 5e-4

/* Thresholds on filtered values (an isosurface crossing, the ends of the
 * average-intensity range) from the texture against the reference, whose
 * filter arithmetic the reference emulates but not bit for bit: where a
 * filtered value lies within that difference of the threshold the sample
 * falls on the other side, so a few pixels of a surface's silhouette, or a
 * ray's average, differ by far. Pixels more than CVR_TOL_LEVELS apart, and the
 * mean difference. Measured on an H100: test_surfaces' isosurfaces at most
 * 0.30% of the pixels, mean 0.033 levels
 * (tools/bench/results/2026-11-23-h100-surfaces). A lattice or a threshold
 * off by half a step fails them by far. */
#define CVR_TOL_FLIP_OVER_FRACTION 0.01
#define CVR_TOL_FLIP_MEAN_LEVELS 0.1

/* The samples a frame's rays reached: taken, or stepped over in empty
 * macro-cells (empty-space skipping, which each strategy does at its own
 * granularity). With early ray termination off this is every ray's lattice,
 * so it is what backends and strategies must agree on exactly. */
static inline uint64_t cvr_test_visited(const cvr_render_stats *s) {
  return s->samples + s->samples_skipped_empty;
}

typedef struct cvr_test_diff {
  cvr_tools_image_diff color;
  double depth_over_fraction; /* pixels whose depth differs by > 1e-3 */
} cvr_test_diff;

cvr_test_diff cvr_test_compare(const uint8_t *a, const uint8_t *b, const float *depth_a,
                               const float *depth_b, long pixels);
int cvr_test_within_tolerance(const cvr_test_diff *d);

/* Checks that a call failed (got != CVR_OK) with a message on ctx that
 * contains `needle`; `what` names the call in the report. */
void cvr_test_expect_failure(cvr_context *ctx, cvr_status got, const char *needle, const char *what);

/* Pixels of an 8-bit RGBA image with any opacity. */
long cvr_test_visible(const uint8_t *rgba, long pixels);

/* Renders into 8-bit RGBA and depth (either may be NULL), checking that it
 * succeeded (a failure is a failed check naming `what`); returns whether. */
int cvr_test_render(cvr_context *ctx, const cvr_volume *v, const cvr_transfer_function *tf,
                    const cvr_view *view, const cvr_render_settings *s, uint8_t *rgba, float *depth,
                    cvr_render_stats *stats, const char *what);

/* A transfer function that shows the structure of a real data set: opacity
 * rising between two percentiles chosen per data set by the tests. */
cvr_transfer_function *cvr_test_ramp(cvr_context *ctx, const double range[2], double lo,
                                     double hi, double unit_distance);

/* A volume of n components with the geometry and scalar type of a
 * one-component description: component c of voxel i is value(c, x, user),
 * x the voxel's value there (stored in the type as a cast does). NULL on
 * failure, which is a failed check. */
cvr_volume *cvr_test_components_volume(cvr_context *ctx, const cvr_volume_desc *one, int n,
                                       double (*value)(int c, double x, const void *user),
                                       const void *user);

/* Real data sets of ../shared/data with a transfer function that shows
 * their structure (opacity ramp between lo and hi, in data units). */
typedef struct cvr_test_dataset {
  const char *file;
  double lo, hi;
} cvr_test_dataset;
extern const cvr_test_dataset cvr_test_datasets[3]; /* bonsai, cranium CT, AVM MRA */

/* A scene of a data set: volume, transfer function and the sample distance
 * (half the smallest spacing), ready to render. */
typedef struct cvr_test_scene {
  cvr_tools_volume data;
  cvr_volume *volume;
  cvr_transfer_function *tf;
  double center[3], radius, sample_distance;
} cvr_test_scene;
/* Returns 0 (after printing why) when the file is absent. */
int cvr_test_scene_open(cvr_context *ctx, const cvr_test_dataset *d, cvr_test_scene *s);
void cvr_test_scene_close(cvr_test_scene *s);
/* View i of a fixed set of orbits that cover every octant. */
void cvr_test_scene_view(const cvr_test_scene *s, int i, cvr_projection p, int width, int height,
                         cvr_view *view);

/* The closed-form tests' scene (test_blend_modes, test_clipping): a 16^3
 * uint8 volume seen straight on along z in parallel projection, 20 x 20
 * pixels, the ray of pixel (i + 2, j + 2) running through the centres of
 * voxel column (i, j), entering at z = 15, its CVR_COLUMN_SAMPLES samples
 * at z = 14.5, 14, ..., 0 (sample distance 0.5). Colour (0.8, 0.4, 0.2)
 * with opacity rising linearly over 0..255. */
enum { CVR_COLUMN_N = 16, CVR_COLUMN_W = 20, CVR_COLUMN_H = 20, CVR_COLUMN_TABLE = 256,
       CVR_COLUMN_SAMPLES = 30 };
cvr_transfer_function *cvr_test_column_tf(cvr_context *ctx, double unit_distance);
void cvr_test_column_view(cvr_view *view);
cvr_volume *cvr_test_column_volume(cvr_context *ctx, const uint8_t *voxels);
/* The same with `components` values a voxel, interleaved. */
cvr_volume *cvr_test_column_components(cvr_context *ctx, const uint8_t *voxels, int components);
/* The 2D tests' closed-form function: 2 x 2 entries, x fastest (row 0 red
 * 0.25 and green 0.5, row 1 blue 0.125 and white 1), and its bilinear entry
 * at fractions (fx, fy) of its extent, as a texture filters it: texel
 * coordinates f * 2 - 0.5, clamped. */
extern const float cvr_test_table_2x2[2 * 2 * 4];
void cvr_test_table_2x2_entry(double fx, double fy, double out[4]);

/* Pixel (RGBA float) of the ray through voxel column (i, j). */
const float *cvr_test_column_pixel(const float *rgba32f, int i, int j);

#endif
