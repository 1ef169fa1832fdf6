// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The device copy of a volume: allocation in one memory layout (a 3D array
 * bound to textures and a surface, or global memory in array order or
 * Z-order with lookup tables), padding for in-place rotation, upload,
 * read-back in the original voxel order, and rebuilding for new settings.
 * Transfers go in chunks of z-slices through the context's pinned staging
 * ring (staging.cu) and a device slab, which the layout's accessor scatters
 * or gathers, so one path serves every layout and orientation. An upload's
 * host threads convert chunk i + 1 (and find its range) while the copy
 * engine and a kernel store chunk i. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "volume_sampler.cuh"

extern "C" {
#include "volume_convert.h"
}

/* Calls f(access) with the accessor of v's layout for voxels of type T. */
template <typename T, typename F>
static cudaError_t with_access(const cvr_cuda_volume *v, F &&f) {
  if (v->layout == CVR_LAYOUT_TEXTURE) return f(cvr_surface_access<T>{v->surface});
  return f(cvr_global_access<T>{(T *)v->data, v->index, v->dims[0], v->dims[1]});
}

/* Writes stored voxels z in [z_begin, z_end) from a slab of the volume (its
 * slices z0 .. z0 + nz - 1, unturned): voxels past the data (padding) repeat
 * the nearest edge voxel, so clamped filtering at the data's edge sees the
 * same values with or without padding. */
template <typename Access, typename T>
__global__ void write_slab(Access a, const T *slab, int d0, int d1, int z0, int nz, int p0, int p1,
                           int z_begin, int z_end) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int z = z_begin + (int)blockIdx.z;
  if (x >= p0 || y >= p1 || z >= z_end) return;
  const int sx = min(x, d0 - 1), sy = min(y, d1 - 1), sz = min(z, z0 + nz - 1) - z0;
  a.write(slab[sx + (size_t)d0 * (sy + (size_t)d1 * sz)], x, y, z);
}

/* Reads the volume's slices z0 .. z0 + nz - 1 in their original order from
 * wherever the orientation has put them. */
template <typename Access, typename T>
__global__ void read_slab(Access a, T *slab, int d0, int d1, int z0, cvr_orientation o) {
  const int i[3] = {(int)(blockIdx.x * blockDim.x + threadIdx.x),
                    (int)(blockIdx.y * blockDim.y + threadIdx.y), z0 + (int)blockIdx.z};
  if (i[0] >= d0 || i[1] >= d1) return;
  int s[3];
#pragma unroll
  for (int k = 0; k < 3; ++k) {
    const int src = o.axis[k] == 0 ? i[0] : (o.axis[k] == 1 ? i[1] : i[2]);
    s[k] = o.sign[k] * src + o.offset[k];
  }
  slab[i[0] + (size_t)d0 * (i[1] + (size_t)d1 * blockIdx.z)] = a.read(s[0], s[1], s[2]);
}

/* The lookup tables Lx, Ly, Lz (back to back) of a layout over dims, and
 * the number of voxels it addresses. Array order: i, j * n0, k * n0 * n1.
 * Z-order: the bits of i, j and k interleaved from the lowest up, an axis
 * dropping out once its extent (rounded up to a power of two) is covered. */
static unsigned long long *index_tables(cvr_memory_layout layout, const int *dims,
                                        unsigned long long *voxels) {
  unsigned long long *t =
      (unsigned long long *)calloc((size_t)dims[0] + dims[1] + dims[2], sizeof *t);
  if (!t) return NULL;
  unsigned long long *l[3] = {t, t + dims[0], t + dims[0] + dims[1]};
  if (layout == CVR_LAYOUT_ARRAY_ORDER) {
    const unsigned long long stride[3] = {1, (unsigned long long)dims[0],
                                          (unsigned long long)dims[0] * dims[1]};
    for (int a = 0; a < 3; ++a)
      for (int i = 0; i < dims[a]; ++i) l[a][i] = i * stride[a];
    *voxels = stride[2] * dims[2];
    return t;
  }
  int bits[3];
  for (int a = 0; a < 3; ++a)
    for (bits[a] = 0; (1 << bits[a]) < dims[a]; ++bits[a]) {
    }
  int position = 0;
  for (int level = 0; level < 14; ++level)
    for (int a = 0; a < 3; ++a) {
      if (level >= bits[a]) continue;
      for (int i = 0; i < dims[a]; ++i)
        if (i >> level & 1) l[a][i] |= 1ull << position;
      ++position;
    }
  *voxels = 1ull << position;
  return t;
}

cudaChannelFormatDesc cvr_cuda_channel_for(cvr_scalar_type stored) {
  switch (stored) {
  case CVR_INT8: return cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindSigned);
  case CVR_UINT8: return cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
  case CVR_INT16: return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindSigned);
  case CVR_UINT16: return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindUnsigned);
  default: return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  }
}

cudaError_t cvr_cuda_volume_texture(cudaArray_t array, cvr_scalar_type stored,
                                    cudaTextureFilterMode filter, cudaTextureObject_t *out) {
  cudaResourceDesc res;
  memset(&res, 0, sizeof res);
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaTextureDesc tex;
  memset(&tex, 0, sizeof tex);
  tex.addressMode[0] = tex.addressMode[1] = tex.addressMode[2] = cudaAddressModeClamp;
  tex.filterMode = filter;
  tex.readMode = stored == CVR_FLOAT32 ? cudaReadModeElementType : cudaReadModeNormalizedFloat;
  tex.normalizedCoords = 0;
  return cudaCreateTextureObject(out, &res, &tex, NULL);
}

cvr_status cvr_cuda_volume_failure(cvr_context *ctx, cudaError_t e, const char *what) {
  cudaGetLastError();
  return cvr_fail(ctx,
                  e == cudaErrorMemoryAllocation ? CVR_ERROR_OUT_OF_MEMORY : CVR_ERROR_DEVICE,
                  "volume: %s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
}

cvr_status cvr_cuda_allocation_failure(cvr_context *ctx, cudaError_t e, size_t bytes,
                                       const char *what) {
  size_t free_bytes = 0, total = 0;
  cudaGetLastError();
  cudaMemGetInfo(&free_bytes, &total);
  return cvr_fail(ctx, e == cudaErrorMemoryAllocation ? CVR_ERROR_OUT_OF_MEMORY : CVR_ERROR_DEVICE,
                  "%s, %.1f MiB, on the device (%.1f MiB free): %s", what,
                  (double)bytes / 1048576.0, (double)free_bytes / 1048576.0, cudaGetErrorString(e));
}

/* Allocates v's voxels for its layout and dims; fills v->bytes. */
static cvr_status allocate(cvr_context *ctx, cvr_cuda_volume *v, cvr_scalar_type stored) {
  const cudaDeviceProp *p = &ctx->cuda->props;
  const size_t elem = cvr_scalar_type_size(stored);
  const int *n = v->dims;
  unsigned long long voxels = (unsigned long long)n[0] * n[1] * n[2];
  cudaError_t e;
  if (v->layout == CVR_LAYOUT_TEXTURE) {
    for (int a = 0; a < 3; ++a)
      if (n[a] > p->maxTexture3D[a] || n[a] > p->maxSurface3D[a])
        return cvr_fail(ctx, CVR_ERROR_UNSUPPORTED,
                        "volume: %d x %d x %d%s exceeds the device's 3D texture limit %d x %d x %d",
                        n[0], n[1], n[2], v->padded ? " (padded for rotation)" : "",
                        p->maxTexture3D[0] < p->maxSurface3D[0] ? p->maxTexture3D[0] : p->maxSurface3D[0],
                        p->maxTexture3D[1] < p->maxSurface3D[1] ? p->maxTexture3D[1] : p->maxSurface3D[1],
                        p->maxTexture3D[2] < p->maxSurface3D[2] ? p->maxTexture3D[2] : p->maxSurface3D[2]);
    const cudaChannelFormatDesc channel = cvr_cuda_channel_for(stored);
    e = cudaMalloc3DArray(&v->array, &channel, make_cudaExtent(n[0], n[1], n[2]),
                          cudaArraySurfaceLoadStore);
  } else {
    unsigned long long *tables = index_tables(v->layout, n, &voxels);
    if (!tables) return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "volume: out of host memory");
    const size_t table_bytes = ((size_t)n[0] + n[1] + n[2]) * sizeof *tables;
    e = cudaMalloc(&v->index, table_bytes);
    if (e == cudaSuccess) e = cudaMemcpy(v->index, tables, table_bytes, cudaMemcpyHostToDevice);
    free(tables);
    if (e == cudaSuccess) e = cudaMalloc(&v->data, voxels * elem);
  }
  v->bytes = (size_t)voxels * elem;
  if (e != cudaSuccess) {
    char what[128];
    snprintf(what, sizeof what, "volume: cannot allocate %d x %d x %d voxels in %s layout", n[0],
             n[1], n[2], cvr_memory_layout_name(v->layout));
    return cvr_cuda_allocation_failure(ctx, e, v->bytes, what);
  }
  if (v->layout == CVR_LAYOUT_TEXTURE) {
    if ((e = cvr_cuda_volume_texture(v->array, stored, cudaFilterModeLinear, &v->linear)) != cudaSuccess ||
        (e = cvr_cuda_volume_texture(v->array, stored, cudaFilterModePoint, &v->nearest)) != cudaSuccess)
      return cvr_cuda_volume_failure(ctx, e, "texture");
    cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = v->array;
    if ((e = cudaCreateSurfaceObject(&v->surface, &res)) != cudaSuccess)
      return cvr_cuda_volume_failure(ctx, e, "surface");
  }
  return CVR_OK;
}

void cvr_cuda_storage_free(cvr_context *ctx, cvr_cuda_volume *v) {
  (void)ctx;
  if (v->surface) cudaDestroySurfaceObject(v->surface);
  if (v->linear) cudaDestroyTextureObject(v->linear);
  if (v->nearest) cudaDestroyTextureObject(v->nearest);
  if (v->array) cudaFreeArray(v->array);
  cudaFree(v->data);
  cudaFree(v->index);
  cvr_cuda_skip_free(v);
  memset(v, 0, sizeof *v);
}

/* The axis x trades places with under rotation: of y and z the one closer
 * to x in length (less padding), z on a tie (a turn about y, as the paper). */
static int partner_axis(const int *d) {
  return abs(d[0] - d[1]) < abs(d[0] - d[2]) ? 1 : 2;
}

/* A volume whose x and partner axes are equally long turns without
 * padding: it counts as padded whatever the rotation policy, so switching
 * the policy (the auto-tuner does) never rebuilds it. */
static int is_padded(const int *d, int padding_asked) {
  return padding_asked || d[0] == d[partner_axis(d)];
}

extern "C" int cvr_cuda_volume_partners(const cvr_volume *volume, int *fallback) {
  const cvr_cuda_volume *v = volume->cuda;
  if (v && v->padded) {
    *fallback = v->partner;
    return cvr_cuda_partners(v);
  }
  const int *d = volume->dims, p = partner_axis(d);
  int padded[3] = {d[0], d[1], d[2]}; /* x and the partner once padded */
  padded[0] = padded[p] = d[0] > d[p] ? d[0] : d[p];
  *fallback = p;
  return cvr_cuda_partner_set(padded, p);
}

/* Writes the upload's scalars into v (identity orientation), chunk by
 * chunk through the staging ring. */
static cvr_status write_voxels(cvr_context *ctx, const cvr_volume *volume, cvr_cuda_volume *v,
                               const cvr_upload *u) {
  cvr_cuda_context *c = ctx->cuda;
  const int *d = volume->dims;
  const cvr_scalar_type stored = volume->stored_type;
  const size_t elem = cvr_scalar_type_size(stored), in_elem = cvr_scalar_type_size(u->type);
  const size_t slice = (size_t)d[0] * d[1];
  const int nz = cvr_cuda_chunk_slices(d, elem);
  void *slab = NULL;
  cudaError_t e = cudaMalloc(&slab, slice * nz * elem);
  for (int z0 = 0; e == cudaSuccess && z0 < d[2]; z0 += nz) {
    const int n = z0 + nz <= d[2] ? nz : d[2] - z0;
    void *staged;
    int slot;
    if ((e = cvr_cuda_staging_take(&c->staging, slice * nz * elem, &staged, &slot)) != cudaSuccess)
      break;
    cvr_convert_range(u->type, (const char *)u->data + (size_t)z0 * slice * in_elem, slice * n,
                      staged, u->range, 1, NULL, u->threads);
    e = cudaMemcpyAsync(slab, staged, slice * n * elem, cudaMemcpyHostToDevice, c->stream);
    if (e == cudaSuccess) e = cvr_cuda_staging_queued(&c->staging, slot, c->stream);
    /* the last chunk also fills the padding's slices */
    const int z_end = z0 + n < d[2] ? z0 + n : v->dims[2];
    const dim3 block(32, 8), grid((v->dims[0] + 31) / 32, (v->dims[1] + 7) / 8, z_end - z0);
    if (e == cudaSuccess)
      e = cvr_with_stored_type(stored, [&](auto tag) {
        typedef typename decltype(tag)::type T;
        return with_access<T>(v, [&](auto a) {
          write_slab<<<grid, block, 0, c->stream>>>(a, (const T *)slab, d[0], d[1], z0, n,
                                                    v->dims[0], v->dims[1], z0, z_end);
          return cudaGetLastError();
        });
      });
    if (e == cudaSuccess && u->progress) u->progress((double)(z0 + n) / d[2], u->progress_user);
  }
  if (e == cudaSuccess) e = cudaStreamSynchronize(c->stream);
  if (slab) cudaFree(slab);
  return e == cudaSuccess ? CVR_OK : cvr_cuda_volume_failure(ctx, e, "upload");
}

static void identity_orientation(cvr_cuda_volume *v) {
  memset(&v->orientation, 0, sizeof v->orientation);
  for (int a = 0; a < 3; ++a) {
    v->orientation.axis[a] = a;
    v->orientation.sign[a] = 1;
  }
}

cvr_status cvr_cuda_storage_build(cvr_context *ctx, cvr_volume *volume, cvr_memory_layout layout,
                                  int padded, const cvr_upload *upload) {
  cvr_cuda_volume *v = (cvr_cuda_volume *)calloc(1, sizeof *v);
  if (!v) return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "volume: out of host memory");
  const int *d = volume->dims;
  v->layout = layout;
  v->padded = is_padded(d, padded);
  v->partner = partner_axis(d);
  for (int a = 0; a < 3; ++a) v->dims[a] = d[a];
  identity_orientation(v);
  if (v->padded) {
    const int n = d[0] > d[v->partner] ? d[0] : d[v->partner];
    v->dims[0] = v->dims[v->partner] = n;
  }
  cvr_status st = allocate(ctx, v, volume->stored_type);
  if (st == CVR_OK) st = write_voxels(ctx, volume, v, upload);
  if (st != CVR_OK) {
    cvr_cuda_storage_free(ctx, v);
    free(v);
    return st;
  }
  volume->cuda = v;
  return CVR_OK;
}

cvr_status cvr_cuda_storage_rewrite(cvr_context *ctx, cvr_volume *volume, const cvr_upload *upload) {
  cvr_cuda_volume *v = volume->cuda;
  identity_orientation(v);
  v->skip.shift = 0; /* the macro-cells' ranges were the old voxels' */
  return write_voxels(ctx, volume, v, upload);
}

cvr_status cvr_cuda_storage_read(cvr_context *ctx, const cvr_volume *volume, void *out) {
  cvr_cuda_context *c = ctx->cuda;
  const cvr_cuda_volume *v = volume->cuda;
  const int *d = volume->dims;
  const size_t elem = cvr_scalar_type_size(volume->stored_type);
  const size_t slice_bytes = (size_t)d[0] * d[1] * elem;
  const int nz = cvr_cuda_chunk_slices(d, elem);
  const int threads = ctx->cpu_threads;
  void *slab = NULL;
  /* chunk i is gathered and copied to a staging buffer while the host
   * copies chunk i - 1 out of its own */
  void *staged[2] = {NULL, NULL};
  int slots[2] = {0, 0}, pending_z = -1, pending_n = 0;
  cudaError_t e = cudaMalloc(&slab, slice_bytes * nz);
  for (int z0 = 0, i = 0; e == cudaSuccess && (z0 < d[2] || pending_z >= 0); z0 += nz, ++i) {
    if (z0 < d[2]) {
      const int n = z0 + nz <= d[2] ? nz : d[2] - z0;
      const dim3 block(32, 8), grid((d[0] + 31) / 32, (d[1] + 7) / 8, n);
      e = cvr_with_stored_type(volume->stored_type, [&](auto tag) {
        typedef typename decltype(tag)::type T;
        return with_access<T>(v, [&](auto a) {
          read_slab<<<grid, block, 0, c->stream>>>(a, (T *)slab, d[0], d[1], z0, v->orientation);
          return cudaGetLastError();
        });
      });
      if (e == cudaSuccess)
        e = cvr_cuda_staging_take(&c->staging, slice_bytes * nz, &staged[i & 1], &slots[i & 1]);
      if (e == cudaSuccess)
        e = cudaMemcpyAsync(staged[i & 1], slab, slice_bytes * n, cudaMemcpyDeviceToHost, c->stream);
      if (e == cudaSuccess) e = cvr_cuda_staging_queued(&c->staging, slots[i & 1], c->stream);
    }
    if (e == cudaSuccess && pending_z >= 0) {
      const int p = (i - 1) & 1;
      e = cvr_cuda_staging_wait(&c->staging, slots[p]);
      if (e == cudaSuccess)
        cvr_copy_parallel((char *)out + (size_t)pending_z * slice_bytes, staged[p],
                          slice_bytes * pending_n, threads);
    }
    pending_z = z0 < d[2] ? z0 : -1;
    pending_n = z0 + nz <= d[2] ? nz : d[2] - z0;
  }
  if (slab) cudaFree(slab);
  return e == cudaSuccess ? CVR_OK : cvr_cuda_volume_failure(ctx, e, "read-back");
}

cvr_status cvr_cuda_storage_prepare(cvr_context *ctx, cvr_volume *volume,
                                    const cvr_render_settings *s) {
  cvr_cuda_volume *v = volume->cuda;
  const int padded = is_padded(volume->dims, s->rotation_policy != CVR_ROTATION_NEVER);
  if (v->layout == s->memory_layout && v->padded == padded) return CVR_OK;
  /* through host memory, so that the device never holds two copies */
  const size_t bytes = (size_t)volume->dims[0] * volume->dims[1] * volume->dims[2] *
                       cvr_scalar_type_size(volume->stored_type);
  void *host = cvr_alloc_volume_copy(bytes);
  if (!host)
    return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY,
                    "volume: %.1f MiB of host memory needed to change its layout",
                    (double)bytes / 1048576.0);
  cvr_status st = cvr_cuda_storage_read(ctx, volume, host);
  if (st == CVR_OK) {
    const cvr_memory_layout old_layout = v->layout;
    const int old_padded = v->padded;
    cvr_cuda_storage_free(ctx, v);
    free(v);
    volume->cuda = NULL;
    const cvr_upload u = {volume->stored_type, host, NULL, NULL, NULL, ctx->cpu_threads};
    st = cvr_cuda_storage_build(ctx, volume, s->memory_layout, padded, &u);
    if (st != CVR_OK) { /* keep the volume usable as it was; report the failure */
      char message[CVR_MESSAGE_SIZE];
      snprintf(message, sizeof message, "%s", cvr_last_error(ctx));
      if (cvr_cuda_storage_build(ctx, volume, old_layout, old_padded, &u) == CVR_OK)
        cvr_fail(ctx, st, "%s; the volume stays in %s layout", message,
                 cvr_memory_layout_name(old_layout));
      else
        cvr_fail(ctx, st, "%s", message);
    }
  }
  free(host);
  return st;
}

cvr_storage_view cvr_cuda_storage_view(const cvr_volume *volume, int nearest) {
  const cvr_cuda_volume *v = volume->cuda;
  cvr_storage_view view;
  memset(&view, 0, sizeof view);
  view.texture = nearest ? v->nearest : v->linear;
  view.data = v->data;
  view.index = v->index;
  view.nearest = nearest;
  view.stored_type = (int)volume->stored_type;
  view.identity = 1;
  for (int a = 0; a < 3; ++a) {
    const cvr_orientation *o = &v->orientation;
    view.dims[a] = v->dims[a];
    view.axis[a] = o->axis[a];
    view.sign[a] = (float)o->sign[a];
    /* texel coordinates are index + 0.5 on both sides */
    view.offset[a] = (float)o->offset[a] + 0.5f * (float)(1 - o->sign[a]);
    if (o->axis[a] != a || o->sign[a] != 1 || o->offset[a] != 0) view.identity = 0;
  }
  return view;
}
