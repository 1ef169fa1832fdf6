// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* How kernels read the volume in each memory layout (Bethel and Howison
 * section 3.3): a sampler filters at a texel coordinate of the stored copy,
 * an accessor reads and writes single voxels (uploads, rotation). Every
 * strategy is a template over the sampler, so each layout gets its own
 * compiled kernel with no per-sample branch on the layout. */
#ifndef CVR_VOLUME_SAMPLER_CUH
#define CVR_VOLUME_SAMPLER_CUH

#include "cuda_internal.cuh"

/* The stored types, and what a texture unit returns for each. */
__device__ __forceinline__ float cvr_texel(unsigned char v) { return cvr_texel_u8(v); }
__device__ __forceinline__ float cvr_texel(signed char v) { return cvr_texel_s8(v); }
__device__ __forceinline__ float cvr_texel(unsigned short v) { return cvr_texel_u16(v); }
__device__ __forceinline__ float cvr_texel(short v) { return cvr_texel_s16(v); }
__device__ __forceinline__ float cvr_texel(float v) { return v; }

/* TEXTURE: the texture unit filters (clamp addressing, 8-bit weights). */
struct cvr_texture_sampler {
  /* fetches a one-thread-per-ray kernel keeps in flight (standard.cu) */
  static constexpr int fetch_ahead = 8;
  /* strategies compile instances per feature set for this sampler (ray_march.cuh) */
  static constexpr bool specialized = true;
  cudaTextureObject_t texture;
  __device__ explicit cvr_texture_sampler(const cvr_storage_view &v) : texture(v.texture) {}
  __device__ __forceinline__ float operator()(float x, float y, float z) const {
    return tex3D<float>(texture, x, y, z);
  }
};

/* ARRAY_ORDER and Z_ORDER: voxel (i, j, k) at Lx[i] + Ly[j] + Lz[k] (the
 * paper's lookup tables; the layout is in the tables' contents), filtered
 * here the way the texture unit does (raycast.h), through the read-only
 * cache. The stored type is a uniform branch per sample rather than a
 * template parameter: these layouts run at a fifth of the texture's speed,
 * where one branch beside eight dependent loads costs nothing measurable,
 * and one instance per strategy instead of five keeps the library small. */
struct cvr_global_sampler {
  /* each fetch is 6 table and 8 voxel loads: 2 in flight fit the registers */
  static constexpr int fetch_ahead = 2;
  static constexpr bool specialized = false;
  const void *data;
  const unsigned long long *lx, *ly, *lz;
  int n[3];
  int nearest;
  int type; /* cvr_scalar_type of the stored voxels */
  __device__ explicit cvr_global_sampler(const cvr_storage_view &v)
      : data(v.data), lx(v.index), ly(v.index + v.dims[0]), lz(v.index + v.dims[0] + v.dims[1]),
        nearest(v.nearest), type(v.stored_type) {
    n[0] = v.dims[0];
    n[1] = v.dims[1];
    n[2] = v.dims[2];
  }
  template <typename T>
  __device__ __forceinline__ float texel(unsigned long long i) const {
    return cvr_texel(__ldg((const T *)data + i));
  }
  template <typename T>
  __device__ __forceinline__ float filter(const unsigned long long x[2], const unsigned long long y[2],
                                          const unsigned long long z[2], const float w[3]) const {
    const float c[8] = {texel<T>(x[0] + y[0] + z[0]), texel<T>(x[1] + y[0] + z[0]),
                        texel<T>(x[0] + y[1] + z[0]), texel<T>(x[1] + y[1] + z[0]),
                        texel<T>(x[0] + y[0] + z[1]), texel<T>(x[1] + y[0] + z[1]),
                        texel<T>(x[0] + y[1] + z[1]), texel<T>(x[1] + y[1] + z[1])};
    return cvr_trilinear(c, w);
  }
  __device__ __forceinline__ float voxel(unsigned long long i) const {
    switch (type) {
    case CVR_INT8: return texel<signed char>(i);
    case CVR_UINT8: return texel<unsigned char>(i);
    case CVR_INT16: return texel<short>(i);
    case CVR_UINT16: return texel<unsigned short>(i);
    default: return texel<float>(i);
    }
  }
  /* not inlined: a kernel fetches at many places, and the filter of five
   * types is long; one copy per kernel instead of one per fetch */
  __device__ __noinline__ float operator()(float x, float y, float z) const {
    if (nearest)
      return voxel(__ldg(lx + cvr_nearest_texel(x, n[0])) + __ldg(ly + cvr_nearest_texel(y, n[1])) +
                   __ldg(lz + cvr_nearest_texel(z, n[2])));
    int i0, i1, j0, j1, k0, k1;
    const float w[3] = {cvr_filter_axis(x, n[0], CVR_WEIGHTS_8BIT_ROUNDED, &i0, &i1),
                        cvr_filter_axis(y, n[1], CVR_WEIGHTS_8BIT_ROUNDED, &j0, &j1),
                        cvr_filter_axis(z, n[2], CVR_WEIGHTS_8BIT_ROUNDED, &k0, &k1)};
    const unsigned long long xs[2] = {__ldg(lx + i0), __ldg(lx + i1)};
    const unsigned long long ys[2] = {__ldg(ly + j0), __ldg(ly + j1)};
    const unsigned long long zs[2] = {__ldg(lz + k0), __ldg(lz + k1)};
    switch (type) {
    case CVR_INT8: return filter<signed char>(xs, ys, zs, w);
    case CVR_UINT8: return filter<unsigned char>(xs, ys, zs, w);
    case CVR_INT16: return filter<short>(xs, ys, zs, w);
    case CVR_UINT16: return filter<unsigned short>(xs, ys, zs, w);
    default: return filter<float>(xs, ys, zs, w);
    }
  }
};

/* Single voxels of the stored copy, for uploads, read-back and rotation. */
template <typename T>
struct cvr_surface_access {
  cudaSurfaceObject_t surface;
  __device__ __forceinline__ T read(int x, int y, int z) const {
    T v;
    surf3Dread(&v, surface, x * (int)sizeof(T), y, z);
    return v;
  }
  __device__ __forceinline__ void write(T v, int x, int y, int z) const {
    surf3Dwrite(v, surface, x * (int)sizeof(T), y, z);
  }
  /* sizeof(V) bytes of consecutive voxels from x on (an unformatted surface
   * access: x * sizeof(T) aligned to sizeof(V)) */
  template <typename V>
  __device__ __forceinline__ V read_raw(int x, int y, int z) const {
    V v;
    surf3Dread(&v, surface, x * (int)sizeof(T), y, z);
    return v;
  }
  template <typename V>
  __device__ __forceinline__ void write_raw(V v, int x, int y, int z) const {
    surf3Dwrite(v, surface, x * (int)sizeof(T), y, z);
  }
};

template <typename T>
struct cvr_global_access {
  T *data;
  const unsigned long long *index;
  int n0, n1;
  __device__ __forceinline__ unsigned long long at(int x, int y, int z) const {
    return index[x] + index[n0 + y] + index[n0 + n1 + z];
  }
  __device__ __forceinline__ T read(int x, int y, int z) const { return data[at(x, y, z)]; }
  __device__ __forceinline__ void write(T v, int x, int y, int z) const { data[at(x, y, z)] = v; }
  /* (array order only: consecutive x are consecutive in memory there) */
  template <typename V>
  __device__ __forceinline__ V read_raw(int x, int y, int z) const {
    return *(const V *)(data + at(x, y, z));
  }
  template <typename V>
  __device__ __forceinline__ void write_raw(V v, int x, int y, int z) const {
    *(V *)(data + at(x, y, z)) = v;
  }
};

template <typename T>
struct cvr_type_tag {
  typedef T type;
};

/* Calls f(cvr_type_tag<T>()) with T the C type of a stored scalar type. */
template <typename F>
static cudaError_t cvr_with_stored_type(cvr_scalar_type stored_type, F &&f) {
  switch (stored_type) {
  case CVR_INT8: return f(cvr_type_tag<signed char>());
  case CVR_UINT8: return f(cvr_type_tag<unsigned char>());
  case CVR_INT16: return f(cvr_type_tag<short>());
  case CVR_UINT16: return f(cvr_type_tag<unsigned short>());
  case CVR_FLOAT32: return f(cvr_type_tag<float>());
  default: return cudaErrorInvalidValue;
  }
}

/* Calls f(cvr_type_tag<Sampler>()) with the sampler of a layout (the
 * global layouts' sampler reads the stored type from the storage view). */
template <typename F>
static cudaError_t cvr_with_sampler(cvr_memory_layout layout, F &&f) {
  if (layout == CVR_LAYOUT_TEXTURE) return f(cvr_type_tag<cvr_texture_sampler>());
  return f(cvr_type_tag<cvr_global_sampler>());
}

/* The ray in the stored copy's texel coordinates: its lattice (k range) was
 * found in the volume's, so every layout and orientation takes the same
 * samples; only where they are fetched from moves. */
__device__ __forceinline__ void cvr_ray_to_storage(const cvr_storage_view &v, cvr_ray *ray) {
  if (v.identity) return;
  const float o[3] = {ray->origin[0], ray->origin[1], ray->origin[2]};
  const float s[3] = {ray->step[0], ray->step[1], ray->step[2]};
#pragma unroll
  for (int a = 0; a < 3; ++a) {
    const int i = v.axis[a];
    const float oi = i == 0 ? o[0] : (i == 1 ? o[1] : o[2]);
    const float si = i == 0 ? s[0] : (i == 1 ? s[1] : s[2]);
    ray->origin[a] = __fadd_rn(__fmul_rn(v.sign[a], oi), v.offset[a]);
    ray->step[a] = __fmul_rn(v.sign[a], si);
  }
}

#endif
