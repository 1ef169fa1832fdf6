// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Helpers shared by the tests, cvr-render and cvr-bench: reading volumes
 * with libniftiio, writing PNG with libpng, building cameras, comparing
 * images. Not part of the library. */
#ifndef CVR_TOOLS_H
#define CVR_TOOLS_H

#include <stdint.h>
#include <stdio.h>

#include "cvr.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A volume read from a file: desc.data points at data, which it owns. */
typedef struct cvr_tools_volume {
  cvr_volume_desc desc;
  void *data;
} cvr_tools_volume;

/* Reads a NIfTI-1 file (.nii or .nii.gz); its sform (or qform) becomes
 * origin, spacing and direction. Returns 0 and fills err on failure. */
int cvr_tools_load_nifti(const char *path, cvr_tools_volume *out, char *err, size_t err_size);
void cvr_tools_volume_free(cvr_tools_volume *v);

/* Trilinear resampling to dims over the same physical extent (spacing
 * follows); out owns its data. Returns 0 when out of memory. */
int cvr_tools_resample(const cvr_tools_volume *in, const int dims[3], cvr_tools_volume *out);

/* Writes a bottom-up premultiplied RGBA8 image as PNG, composited over an
 * opaque background (r, g, b in [0,1]). Returns 0 on failure. */
int cvr_tools_write_png(const char *path, const uint8_t *rgba, int width, int height,
                        const float background[3]);

/* Centre and half-diagonal of the volume in world space (volume_to_world =
 * identity). */
void cvr_tools_volume_bounds(const cvr_volume_desc *d, double center[3], double *radius);

/* A camera orbiting center at distance 3 * radius: azimuth about +y,
 * elevation towards +y, in degrees. Perspective uses a 30 degree view angle;
 * parallel fits the sphere of the given radius. volume_to_world = identity. */
void cvr_tools_orbit_view(const double center[3], double radius, double azimuth,
                          double elevation, cvr_projection projection, int width, int height,
                          cvr_view *out);

/* Row-major 4x4 helpers. */
void cvr_tools_identity(double m[16]);
void cvr_tools_multiply(const double a[16], const double b[16], double out[16]);
/* Rotation by degrees about axis 0 (x), 1 (y) or 2 (z), about point c. */
void cvr_tools_rotation_about(int axis, double degrees, const double c[3], double out[16]);
/* The micro-benchmark's camera (Wang et al. 3.2): parallel rays along -z
 * through the centre of a volume of dims voxels, rays x rays of them over
 * its largest face (volume_to_world is left to the caller). */
void cvr_tools_micro_view(const int dims[3], int rays, cvr_view *view);
void cvr_tools_look_at(const double eye[3], const double center[3], const double up[3],
                       double out[16]);
void cvr_tools_ortho(double half_width, double half_height, double near_z, double far_z,
                     double out[16]);
void cvr_tools_perspective(double fovy_degrees, double aspect, double near_z, double far_z,
                           double out[16]);

/* Differences between two RGBA8 images, in 8-bit levels over all channels. */
typedef struct cvr_tools_image_diff {
  int max_diff;          /* largest channel difference */
  double mean_diff;      /* mean channel difference */
  double over_fraction;  /* fraction of pixels with a channel differing by > threshold */
  long over_count;
} cvr_tools_image_diff;

cvr_tools_image_diff cvr_tools_compare_rgba8(const uint8_t *a, const uint8_t *b, long pixels,
                                             int threshold);

/* Transfer functions for real data: a grey-to-white colour ramp with opacity
 * rising linearly from 0 at lo to max_opacity at hi (clamped beyond), over
 * [range0, range1] in size entries. rgba must hold 4 * size floats. */
void cvr_tools_ramp_tf(float *rgba, int size, double range0, double range1, double lo, double hi,
                       float max_opacity);

/* "uint8", "int16", ... */
const char *cvr_tools_type_name(cvr_scalar_type type);

/* Deterministic pseudo-random numbers (xorshift64*). */
uint64_t cvr_tools_random(uint64_t *state);

/* The micro-benchmark's volume (Wang et al.): dims[0] x dims[1] x dims[2]
 * random uint8 voxels, the same for the same size; free() it. NULL without
 * host memory. */
uint8_t *cvr_tools_random_voxels(const int dims[3]);

/* A results file's first line: device, date, the commit the numbers come
 * from and the command, its file names without their folders. */
void cvr_tools_write_meta(FILE *out, const char *device, const char *commit, int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
