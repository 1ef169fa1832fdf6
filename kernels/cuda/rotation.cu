// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* In-place rotation of the stored voxels by quarter turns (Misaki, Ino and
 * Hagihara, Algorithm 1, with 3D tiles): the rotated plane is x and the
 * partner axis, both N long; the third axis is the rotation axis. A thread
 * block takes one t x t x k tile and the three tiles it visits under the
 * turn, and moves the four in a cycle through shared memory: it loads the
 * next tile before writing the current one, rotated, over it, so no voxel is
 * lost and no device memory beyond the two tile buffers is used. Reads and
 * writes run along x (coalesced); the turn happens in the shared-memory
 * indexing, padded by one element so that no bank conflicts arise.
 *
 * Beyond the paper: N need not be a multiple of t. The plane is cut into the
 * four quarters of a pinwheel (Q0 = [0, ceil(N/2)) x [0, floor(N/2)) and its
 * turns; the centre of an odd N stays), tiles cover Q0 and are clipped to
 * it, and a voxel is moved only when it belongs to its tile's quarter. The
 * layout's accessor does the reading and writing, so the same kernel turns
 * the texture's array (through a surface) and both global-memory layouts.
 * Blocks of whole tiles move 8 bytes a thread access (rotate_tiles_vector). */
#include "volume_sampler.cuh"

/* The quarter turn in the plane (a, b): (a, b) -> (N - 1 - b, a). Voxel g
 * belongs to quarter q of the pinwheel when q inverse turns take it into Q0. */
__device__ __forceinline__ bool in_quarter(int a, int b, int n, int q) {
  for (int i = 0; i < q; ++i) {
    const int t = a;
    a = b;
    b = n - 1 - t;
  }
  return a < (n + 1) / 2 && b < n / 2;
}

/* The vector path's accesses along x: CVR_ROTATION_ACCESS_BYTES bytes, the
 * voxels of type T they hold, and the word type that moves them; and the
 * reads each thread has in flight: the fastest measured (doc/tuning.md,
 * the rotation kernel). */
#ifndef CVR_ROTATION_ACCESS_BYTES
#define CVR_ROTATION_ACCESS_BYTES 8
#endif
#ifndef CVR_ROTATION_UNROLL
#define CVR_ROTATION_UNROLL 8
#endif
template <int BYTES> struct cvr_rotation_word;
template <> struct cvr_rotation_word<4> { typedef unsigned type; };
template <> struct cvr_rotation_word<8> { typedef uint2 type; };
template <> struct cvr_rotation_word<16> { typedef uint4 type; };
template <typename T>
struct cvr_rotation_vector {
  static constexpr int bytes = CVR_ROTATION_ACCESS_BYTES;
  static constexpr int voxels = bytes / (int)sizeof(T);
  typedef typename cvr_rotation_word<bytes>::type word;
};

/* The vector path of a block whose four tiles lie whole inside the volume
 * and their quarters (most blocks): 8-byte accesses along x, 256 voxels of a
 * uint8 volume a warp instruction instead of 32, and no per-voxel
 * bounds or quarter checks; the turn is a gather of a column of the tile in
 * shared memory, whose rows are padded to an odd number of words so that a
 * warp's column reads fall in distinct banks. */
#define CVR_ROTATION_VECTOR_TILE 32 /* the vector path's tile side (the default's) */
template <typename Access, typename T>
__device__ __forceinline__ void rotate_tiles_vector(const Access &volume, unsigned char *tile_memory,
                                                    int n, int partner, int layers, int c0,
                                                    int a_origin, int b_origin) {
  typedef typename cvr_rotation_vector<T>::word W;
  constexpr int V = cvr_rotation_vector<T>::voxels, B = cvr_rotation_vector<T>::bytes;
  constexpr int t = CVR_ROTATION_VECTOR_TILE;
  constexpr int row = t * (int)sizeof(T) + 4, layer = t * row, per_row = t / V;
  unsigned char *buffer[2] = {tile_memory, tile_memory + (size_t)layers * layer};
  const int threads = blockDim.x * blockDim.y, tid = threadIdx.x + blockDim.x * threadIdx.y;
  const int slots = layers * t * per_row;
  auto at = [&](int a, int b, int c, int &x, int &y, int &z) {
    x = a;
    y = partner == 1 ? b : c;
    z = partner == 1 ? c : b;
  };
  /* UNROLL reads in flight per thread before their stores into the tile (a
   * store waits for its read: one at a time would leave the memory idle) */
  constexpr int UNROLL = CVR_ROTATION_UNROLL;
  auto load = [&](unsigned char *buf, int ao, int bo) {
    for (int i0 = tid; i0 < slots; i0 += UNROLL * threads) {
      W word[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
        const int i = i0 + u * threads;
        if (i >= slots) break;
        const int c = i / (t * per_row), r = (i / per_row) % t, v = i % per_row;
        int x, y, z;
        at(ao + v * V, bo + r, c0 + c, x, y, z);
        word[u] = volume.template read_raw<W>(x, y, z);
      }
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
        const int i = i0 + u * threads;
        if (i >= slots) break;
        const int c = i / (t * per_row), r = (i / per_row) % t, v = i % per_row;
        /* (4-byte stores: the padded rows keep only 4-byte alignment) */
        const unsigned *w = (const unsigned *)&word[u];
#pragma unroll
        for (int k = 0; k < B / 4; ++k) *(unsigned *)(buf + c * layer + r * row + v * B + 4 * k) = w[k];
      }
    }
  };
  load(buffer[0], a_origin, b_origin);
#pragma unroll
  for (int s = 0; s < 4; ++s) {
    const int a_next = n - b_origin - t, b_next = a_origin;
    if (s < 3) load(buffer[(s + 1) & 1], a_next, b_next);
    __syncthreads();
    const unsigned char *from = buffer[s & 1];
    for (int i = tid; i < slots; i += threads) {
      /* destination (p1 .. p1 + V - 1, p2) takes source (o1, o2) = (p2, t - 1 - p1 - e) */
      const int c = i / (t * per_row), p2 = (i / per_row) % t, p1 = (i % per_row) * V;
      union {
        W word;
        T voxel[V];
      } w;
#pragma unroll
      for (int e = 0; e < V; ++e)
        w.voxel[e] = *(const T *)(from + c * layer + (t - 1 - p1 - e) * row + p2 * (int)sizeof(T));
      int x, y, z;
      at(a_next + p1, b_next + p2, c0 + c, x, y, z);
      volume.template write_raw<W>(w.word, x, y, z);
    }
    __syncthreads();
    a_origin = a_next;
    b_origin = b_next;
  }
}

/* VECTOR: the layout keeps consecutive x consecutive (the texture's array,
 * array order), tiles are CVR_ROTATION_VECTOR_TILE voxels a side and N is a
 * multiple of the voxels of an access, so that blocks of whole tiles
 * take the vector path. */
template <typename Access, typename T, bool VECTOR>
__global__ void rotate_kernel(Access volume, int n, int partner, int depth, int t, int k) {
  extern __shared__ __align__(16) unsigned char tile_memory[];
  const int c0 = blockIdx.z * k;
  /* tile origins in the plane: this block's tile of Q0, then its turns */
  int a_origin = blockIdx.x * t, b_origin = blockIdx.y * t;
  if (VECTOR && a_origin + t <= (n + 1) / 2 && b_origin + t <= n / 2) {
    rotate_tiles_vector<Access, T>(volume, tile_memory, n, partner, depth - c0 < k ? depth - c0 : k,
                                   c0, a_origin, b_origin);
    return;
  }
  const int tile = k * t * (t + 1);
  T *buffer[2] = {(T *)tile_memory, (T *)tile_memory + tile};
  /* a voxel of the plane and the rotation axis in volume coordinates */
  auto xyz = [&](int a, int b, int c, int &x, int &y, int &z) {
    x = a;
    y = partner == 1 ? b : c;
    z = partner == 1 ? c : b;
  };
  auto load = [&](T *buf, int ao, int bo) {
    for (int c = 0; c < k && c0 + c < depth; ++c)
      for (int o2 = threadIdx.y; o2 < t; o2 += blockDim.y) {
        const int a = ao + (int)threadIdx.x, b = bo + o2;
        if (a < 0 || a >= n || b < 0 || b >= n) continue;
        int x, y, z;
        xyz(a, b, c0 + c, x, y, z);
        buf[(c * t + o2) * (t + 1) + threadIdx.x] = volume.read(x, y, z);
      }
  };
  load(buffer[0], a_origin, b_origin);
  for (int s = 0; s < 4; ++s) {
    /* the tile the turn takes this one to: local (o1, o2) goes to (t-1-o2, o1) */
    const int a_next = n - b_origin - t, b_next = a_origin;
    if (s < 3) load(buffer[(s + 1) & 1], a_next, b_next);
    __syncthreads();
    const T *from = buffer[s & 1];
    for (int c = 0; c < k && c0 + c < depth; ++c)
      for (int p2 = threadIdx.y; p2 < t; p2 += blockDim.y) {
        const int p1 = threadIdx.x, a = a_next + p1, b = b_next + p2;
        if (a < 0 || a >= n || b < 0 || b >= n || !in_quarter(a, b, n, (s + 1) & 3)) continue;
        int x, y, z;
        xyz(a, b, c0 + c, x, y, z);
        volume.write(from[(c * t + (t - 1 - p1)) * (t + 1) + p2], x, y, z);
      }
    __syncthreads();
    a_origin = a_next;
    b_origin = b_next;
  }
}

/* Two tile buffers: the scalar path's rows of t + 1 voxels, the vector
 * path's of t voxels and 4 bytes. */
static size_t shared_bytes(cvr_scalar_type stored_type, int t, int k) {
  const size_t size = cvr_scalar_type_size(stored_type);
  const size_t scalar = (size_t)t * (t + 1) * size, vector = (size_t)t * (t * size + 4);
  return 2 * (size_t)k * (scalar > vector ? scalar : vector);
}

int cvr_cuda_rotation_depth(const cudaDeviceProp *props, cvr_scalar_type stored_type, int t, int k) {
  const size_t limit = props->sharedMemPerBlockOptin;
  if (k > 0) return shared_bytes(stored_type, t, k) <= limit ? k : 0;
  /* 4: the fastest measured for every layout and size (doc/tuning.md, the
   * rotation kernel) */
  for (k = 4; k >= 1; k /= 2)
    if (shared_bytes(stored_type, t, k) <= limit) return k;
  return 0;
}

int cvr_cuda_partners(const cvr_cuda_volume *v) {
  return v->padded ? cvr_cuda_partner_set(v->dims, v->partner) : 0;
}

/* The instances cvr_cuda_rotate launches for a layout and voxel size. */
cudaError_t cvr_cuda_load_rotation(cvr_memory_layout layout, cvr_scalar_type stored_type) {
  const auto load = [&](auto tag) {
    typedef typename decltype(tag)::type T;
    if (layout == CVR_LAYOUT_TEXTURE)
      return cvr_cuda_load({(const void *)rotate_kernel<cvr_surface_access<T>, T, true>,
                            (const void *)rotate_kernel<cvr_surface_access<T>, T, false>});
    if (layout == CVR_LAYOUT_Z_ORDER) /* (never by vectors) */
      return cvr_cuda_load({(const void *)rotate_kernel<cvr_global_access<T>, T, false>});
    return cvr_cuda_load({(const void *)rotate_kernel<cvr_global_access<T>, T, true>,
                          (const void *)rotate_kernel<cvr_global_access<T>, T, false>});
  };
  switch (cvr_scalar_type_size(stored_type)) {
  case 1: return load(cvr_type_tag<unsigned char>());
  case 2: return load(cvr_type_tag<unsigned short>());
  default: return load(cvr_type_tag<unsigned int>());
  }
}

cudaError_t cvr_cuda_rotate(cvr_cuda_volume *v, cvr_scalar_type stored_type, int partner,
                            int turns, int t, int k, cudaStream_t stream) {
  if (partner < 1 || partner > 2 || !((cvr_cuda_partners(v) >> partner) & 1))
    return cudaErrorInvalidValue; /* (callers pick from cvr_cuda_partners) */
  const int n = v->dims[0], axis = 3 - partner;
  const int depth = v->dims[axis];
  const dim3 block(t, t * t >= 256 ? 256 / t : t);
  const dim3 grid(((n + 1) / 2 + t - 1) / t, (n / 2 + t - 1) / t, (depth + k - 1) / k);
  const size_t bytes = shared_bytes(stored_type, t, k);
  if (grid.y == 0) return cudaSuccess; /* N = 1: nothing moves */
  for (int i = 0; i < turns; ++i) {
    /* a turn moves bits: one instance per voxel size, not per type */
    const auto with_size = [&](auto f) {
      switch (cvr_scalar_type_size(stored_type)) {
      case 1: return f(cvr_type_tag<unsigned char>());
      case 2: return f(cvr_type_tag<unsigned short>());
      default: return f(cvr_type_tag<unsigned int>());
      }
    };
    const cudaError_t e = with_size([&](auto tag) {
      typedef typename decltype(tag)::type T;
      constexpr int V = cvr_rotation_vector<T>::voxels;
      const bool vector = v->layout != CVR_LAYOUT_Z_ORDER && n % V == 0 && t == CVR_ROTATION_VECTOR_TILE;
      auto launch = [&](auto access) {
        const auto kernel = vector ? rotate_kernel<decltype(access), T, true>
                                   : rotate_kernel<decltype(access), T, false>;
        cudaError_t r = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             (int)bytes);
        if (r != cudaSuccess) return r;
        kernel<<<grid, block, bytes, stream>>>(access, n, partner, depth, t, k);
        return cudaGetLastError();
      };
      if (v->layout == CVR_LAYOUT_TEXTURE) return launch(cvr_surface_access<T>{v->surface});
      return launch(cvr_global_access<T>{(T *)v->data, v->index, v->dims[0], v->dims[1]});
    });
    if (e != cudaSuccess) return e;
    /* stored (a, b) = (N - 1 - b', a') of the voxel before the turn */
    cvr_orientation *o = &v->orientation;
    const cvr_orientation before = *o;
    o->axis[0] = before.axis[partner];
    o->sign[0] = -before.sign[partner];
    o->offset[0] = n - 1 - before.offset[partner];
    o->axis[partner] = before.axis[0];
    o->sign[partner] = before.sign[0];
    o->offset[partner] = before.offset[0];
  }
  /* the macro-cells hold other voxels now (their number stays: x and the
   * partner are equally long) */
  if (turns > 0) v->skip.shift = 0;
  return cudaSuccess;
}
