// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The CUDA backend as seen from the host code: plain C entry points, no CUDA
 * types. A CPU-only build links cuda_stub.c instead. */
#ifndef CVR_CUDA_BACKEND_H
#define CVR_CUDA_BACKEND_H

#include "cvr_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

int cvr_cuda_count_devices(void);
/* The driver's CUDA version (cudaDriverGetVersion), 0 without one. */
int cvr_cuda_driver_version(void);
/* Opens device_index for ctx: sets ctx->cuda and ctx->description. */
cvr_status cvr_cuda_context_create(cvr_context *ctx, int device_index);
void cvr_cuda_context_destroy(cvr_context *ctx);

/* Uploads the scalars into a 3D array bound to textures, widening the
 * upload's range. */
cvr_status cvr_cuda_volume_upload(cvr_context *ctx, cvr_volume *volume, const cvr_upload *upload);
/* New scalars over the volume's device copy (cvr_volume_update). */
cvr_status cvr_cuda_volume_update(cvr_context *ctx, cvr_volume *volume, const cvr_upload *upload);
void cvr_cuda_volume_release(cvr_volume *volume);

/* mask.cu: the volume's mask (cvr_volume_set_mask) into device memory,
 * replacing the old one only once the new one is there; and freeing it. */
cvr_status cvr_cuda_mask_upload(cvr_context *ctx, cvr_volume *volume, const unsigned char *labels);
void cvr_cuda_mask_release(cvr_volume *volume);

/* How the device copy's voxel order relates to the volume's (in-place
 * rotation): stored s[a] = sign[a] * i[axis[a]] + offset[a]. */
void cvr_cuda_volume_orientation(const cvr_volume *volume, int axis[3], int sign[3], int offset[3]);
/* The axes stored x may trade places with in a quarter turn (bit a: axis a;
 * cvr_rotation_partner), those of the copy padded for rotation where it is
 * not yet (turns only trade axes of one length, so the set does not change
 * with them), and the one it trades with on a tie in *fallback. */
int cvr_cuda_volume_partners(const cvr_volume *volume, int *fallback);

/* A frame's kernels as CUDA loads them: its settings as the frame layer
 * makes them concrete (cvr_frame_settings), the volume's stored type, and
 * whether the frame takes gradients (shading or gradient opacity) and
 * scatters light (volumetric scattering). */
typedef struct cvr_kernel_use {
  cvr_render_settings settings;
  cvr_scalar_type stored_type;
  int gradients, scatters;
} cvr_kernel_use;
/* kernel_loading.cu: loads, without launching anything, the kernel
 * instances such a frame may launch on CUDA device `device` (its strategy's,
 * empty-space skipping's and, with a rotation policy, the rotation's; not
 * the uploads'), so that its first launch does not load them. */
cvr_status cvr_cuda_load_kernels(int device, const cvr_kernel_use *use);

/* Device limits the settings must respect. */
cvr_status cvr_cuda_validate_settings(cvr_context *ctx,
                                      const cvr_render_settings *settings);

cvr_status cvr_cuda_render(cvr_context *ctx, const cvr_frame *frame,
                           const cvr_image *image, cvr_render_stats *stats);

/* bricks.cu: a bricked volume's host scalars registered with the driver
 * (pinned where that succeeds) and unregistered once its copies are done
 * (before they change or go), and its device cache freed with them
 * unregistered. */
void cvr_cuda_bricks_pin(cvr_volume *volume, size_t bytes);
void cvr_cuda_bricks_unpin(cvr_volume *volume);
int cvr_cuda_bricks_pinned(const cvr_volume *volume);
void cvr_cuda_bricks_release(cvr_volume *volume);

/* OpenGL interop (gl_interop.cu): registers gl_buffer of the current OpenGL
 * context, which must run on ctx's device; *resource is a
 * cudaGraphicsResource_t. */
cvr_status cvr_cuda_gl_register(cvr_context *ctx, unsigned int gl_buffer, void **resource);
void cvr_cuda_gl_unregister(cvr_context *ctx, void *resource);

/* Quarter turns of the device copy, the fewest that take it to voxel order
 * `order` (as cvr_render_stats.volume_axes; padded first as rotation pads
 * it): AUTO's table order and the test hook cvr_debug_turn_to. *turns, *ms:
 * how many and how long (either may be NULL). */
cvr_status cvr_cuda_turn_to(cvr_volume *volume, const cvr_render_settings *settings,
                            const int order[3], int *turns, double *ms);

/* Behind the test hooks of debug.c. */
cvr_status cvr_cuda_debug_rotate(cvr_volume *volume, const cvr_render_settings *settings,
                                 int turns, double *ms);
cvr_status cvr_cuda_debug_read_volume(const cvr_volume *volume, void *out);
size_t cvr_cuda_debug_free_bytes(cvr_context *ctx);
void cvr_cuda_debug_thread_limits(cvr_context *ctx, int bound[3], int driver[3]);
cvr_status cvr_cuda_debug_lose_device(cvr_context *ctx);

#ifdef __cplusplus
}
#endif

#endif
