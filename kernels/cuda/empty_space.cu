// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Empty-space skipping on the device (empty_space.h): the value ranges of
 * the stored copy's macro-cells, read through the layout's own sampler at
 * texel centres (so every layout and orientation gets the values its
 * kernels sample), and the cells the frame's table leaves empty. */
#include <string.h>

#include "volume_sampler.cuh"

/* One thread per cell: the values of its texels (raycast.h,
 * cvr_skip_cell_texels), NaN as -inf below. */
template <typename Sampler>
__global__ void cvr_skip_range_kernel(const cvr_storage_view v, int shift, int3 cells,
                                      float2 *range) {
  const int cx = blockIdx.x * blockDim.x + threadIdx.x;
  const int cy = blockIdx.y * blockDim.y + threadIdx.y, cz = blockIdx.z;
  if (cx >= cells.x || cy >= cells.y) return;
  const Sampler volume(v);
  int x0, x1, y0, y1, z0, z1;
  cvr_skip_cell_texels(cx, shift, v.dims[0], &x0, &x1);
  cvr_skip_cell_texels(cy, shift, v.dims[1], &y0, &y1);
  cvr_skip_cell_texels(cz, shift, v.dims[2], &z0, &z1);
  float lo = INFINITY, hi = -INFINITY;
  bool nan = false;
  for (int z = z0; z <= z1; ++z)
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) {
        const float s = volume((float)x + 0.5f, (float)y + 0.5f, (float)z + 0.5f);
        nan |= s != s;
        lo = fminf(lo, s);
        hi = fmaxf(hi, s);
      }
  range[((size_t)cz * cells.y + cy) * cells.x + cx] = make_float2(nan ? -INFINITY : lo, hi);
}

/* *any (zeroed before) becomes 1 where some cell is empty. */
__global__ void cvr_skip_empty_kernel(const float2 *range, size_t count, const int *visible_prefix,
                                      int size, float scale, float bias, unsigned char *empty,
                                      int *any);

/* The kernels skipping needs with the sampler of a layout. */
cudaError_t cvr_cuda_load_empty_space(cvr_memory_layout layout) {
  return cvr_with_sampler(layout, [&](auto tag) {
    typedef typename decltype(tag)::type S;
    return cvr_cuda_load({(const void *)cvr_skip_range_kernel<S>, (const void *)cvr_skip_empty_kernel});
  });
}

/* *any (zeroed before) becomes 1 where some cell is empty. */
__global__ void cvr_skip_empty_kernel(const float2 *range, size_t count, const int *visible_prefix,
                                      int size, float scale, float bias, unsigned char *empty,
                                      int *any) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const float2 r = range[i];
  const int e = cvr_skip_range_empty(visible_prefix, size, scale, bias, r.x, r.y);
  empty[i] = (unsigned char)e;
  if (e) *any = 1;
}

/* Where the empty flags' device buffer keeps the any-empty word after them. */
static size_t any_empty_offset(size_t count) { return (count + 3) & ~(size_t)3; }

void cvr_cuda_skip_free(cvr_cuda_volume *v) {
  cudaFree(v->skip.range);
  cudaFree(v->skip.empty);
  memset(&v->skip, 0, sizeof v->skip);
}

/* Device memory for the grid's cells (kept while their number stays). */
static cudaError_t allocate(cvr_skip_grid *g, const int cells[3]) {
  if (g->range && cells[0] == g->cells[0] && cells[1] == g->cells[1] && cells[2] == g->cells[2])
    return cudaSuccess;
  cudaFree(g->range);
  cudaFree(g->empty);
  g->range = NULL;
  g->empty = NULL;
  for (int a = 0; a < 3; ++a) g->cells[a] = cells[a];
  const size_t count = cvr_skip_grid_count(g);
  cudaError_t e = cudaMalloc(&g->range, count * sizeof(float2));
  if (e == cudaSuccess) e = cudaMalloc(&g->empty, any_empty_offset(count) + sizeof(int));
  if (e != cudaSuccess) {
    cudaFree(g->range);
    g->range = NULL;
    g->empty = NULL;
  }
  return e;
}

cvr_status cvr_cuda_skip_prepare(cvr_context *ctx, cvr_volume *volume, const cvr_frame *frame,
                                 int shift, const int *visible_prefix, cvr_ray_params *ray,
                                 cudaStream_t stream) {
  ray->skip_empty = NULL;
  cvr_cuda_volume *v = volume->cuda;
  cvr_skip_grid *g = &v->skip;
  if (g->shift != shift || !g->range) {
    int cells[3];
    cvr_skip_grid_cells(v->dims, shift, cells);
    cudaError_t e = allocate(g, cells);
    if (e == cudaErrorMemoryAllocation) { /* no room: this frame renders every sample */
      cudaGetLastError();
      return CVR_OK;
    }
    if (e == cudaSuccess) {
      const dim3 block(32, 4), grid((cells[0] + 31) / 32, (cells[1] + 3) / 4, cells[2]);
      const int3 c = make_int3(cells[0], cells[1], cells[2]);
      const cvr_storage_view view = cvr_cuda_storage_view(volume, 1); /* exact texels */
      e = cvr_with_sampler(v->layout, [&](auto tag) {
        typedef typename decltype(tag)::type S;
        cvr_skip_range_kernel<S><<<grid, block, 0, stream>>>(view, shift, c, (float2 *)g->range);
        return cudaGetLastError();
      });
    }
    if (e != cudaSuccess) {
      cvr_cuda_skip_free(v);
      return device_failure(ctx, e, "empty-space skipping: macro-cell ranges");
    }
    g->shift = shift;
    g->flags_valid = 0;
  }
  if (!cvr_skip_flags_current(g, frame->tf, &frame->ray)) {
    /* whether any cell is empty comes back to the host (a wait on the
     * stream when the table changes, not every frame): a frame with nothing
     * to skip then launches the kernels without skipping */
    const size_t count = cvr_skip_grid_count(g);
    int *any = (int *)(g->empty + any_empty_offset(count));
    cudaError_t e = cudaMemsetAsync(any, 0, sizeof(int), stream);
    if (e == cudaSuccess) {
      cvr_skip_empty_kernel<<<(unsigned)((count + 255) / 256), 256, 0, stream>>>(
          (const float2 *)g->range, count, visible_prefix, frame->ray.tf_size, frame->ray.tf_scale,
          frame->ray.tf_bias, g->empty, any);
      e = cudaGetLastError();
    }
    if (e == cudaSuccess) e = cudaMemcpyAsync(&g->any_empty, any, sizeof(int), cudaMemcpyDeviceToHost, stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
    if (e != cudaSuccess) {
      g->flags_valid = 0;
      return device_failure(ctx, e, "empty-space skipping: empty cells");
    }
  }
  if (!g->any_empty) return CVR_OK; /* (ray->skip_empty stays NULL) */
  ray->skip_empty = g->empty;
  for (int a = 0; a < 3; ++a) ray->skip_cells[a] = g->cells[a];
  ray->skip_shift = shift;
  return CVR_OK;
}
