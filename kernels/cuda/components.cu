// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Multi-component volumes (cvr.h, cvr_component_mode) on the device: the
 * voxels as a 3D texture of 2 or 4 channels (3 components take 4: CUDA
 * arrays have no 3-channel formats), each channel filtered by the texture
 * unit with the same weights, and the one kernel that renders them: one
 * thread per ray, as the standard strategy, every blend mode. Classification,
 * mixing and blending are raycast.h's, shared with the CPU renderer. */
#include <stdlib.h>
#include <string.h>

#include "ray_march.cuh"

extern "C" {
#include "volume_convert.h"
}

/* Channels of the texture of a volume of n components. */
static int channels_for(int components) { return components == 2 ? 2 : 4; }

static cudaChannelFormatDesc channel_desc(cvr_scalar_type stored, int channels) {
  const int bits = (int)cvr_scalar_type_size(stored) * 8;
  const cudaChannelFormatKind kind = stored == CVR_FLOAT32                       ? cudaChannelFormatKindFloat
                                     : stored == CVR_INT8 || stored == CVR_INT16 ? cudaChannelFormatKindSigned
                                                                                 : cudaChannelFormatKindUnsigned;
  return cudaCreateChannelDesc(bits, bits, channels == 4 ? bits : 0, channels == 4 ? bits : 0, kind);
}

extern "C" cvr_status cvr_cuda_components_write(cvr_context *ctx, cvr_volume *volume,
                                                const cvr_upload *u) {
  cvr_cuda_context *c = ctx->cuda;
  const cvr_cuda_volume *v = volume->cuda;
  const int *d = volume->dims, n = volume->components, channels = channels_for(n);
  const size_t elem = cvr_scalar_type_size(volume->stored_type), in_elem = cvr_scalar_type_size(u->type);
  const size_t slice = (size_t)d[0] * d[1];
  /* chunks of whole z-slices through the staging ring, as volume_storage.cu */
  const int nz = cvr_cuda_chunk_slices(d, channels * elem);
  /* three components are converted here first, then widened into staging */
  void *converted = channels == n ? NULL : malloc(slice * nz * n * elem);
  if (channels != n && !converted)
    return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "volume: no host memory to stage the upload");
  cudaError_t e = cudaSuccess;
  for (int z0 = 0; e == cudaSuccess && z0 < d[2]; z0 += nz) {
    const int count = z0 + nz <= d[2] ? nz : d[2] - z0;
    void *staged;
    int slot;
    if ((e = cvr_cuda_staging_take(&c->staging, slice * nz * channels * elem, &staged, &slot)) != cudaSuccess)
      break;
    const void *src = (const char *)u->data + (size_t)z0 * slice * n * in_elem;
    cvr_convert_range(u->type, src, slice * count * n, converted ? converted : staged, u->range, n,
                      u->component_ranges, u->threads);
    if (converted) cvr_widen_channels(converted, slice * count, n, channels, elem, staged, u->threads);
    cudaMemcpy3DParms copy;
    memset(&copy, 0, sizeof copy);
    copy.srcPtr = make_cudaPitchedPtr(staged, (size_t)d[0] * channels * elem, d[0], d[1]);
    copy.dstArray = v->array;
    copy.dstPos = make_cudaPos(0, 0, z0);
    copy.extent = make_cudaExtent(d[0], d[1], count);
    copy.kind = cudaMemcpyHostToDevice;
    e = cudaMemcpy3DAsync(&copy, c->stream);
    if (e == cudaSuccess) e = cvr_cuda_staging_queued(&c->staging, slot, c->stream);
    if (e == cudaSuccess && u->progress) u->progress((double)(z0 + count) / d[2], u->progress_user);
  }
  if (e == cudaSuccess) e = cudaStreamSynchronize(c->stream);
  free(converted);
  return e == cudaSuccess ? CVR_OK : cvr_cuda_volume_failure(ctx, e, "upload");
}

extern "C" cvr_status cvr_cuda_components_build(cvr_context *ctx, cvr_volume *volume,
                                                const cvr_upload *u) {
  const cudaDeviceProp *p = &ctx->cuda->props;
  const int *d = volume->dims, n = volume->components, channels = channels_for(n);
  const cvr_scalar_type stored = volume->stored_type;
  const size_t elem = cvr_scalar_type_size(stored);
  for (int a = 0; a < 3; ++a)
    if (d[a] > p->maxTexture3D[a])
      return cvr_fail(ctx, CVR_ERROR_UNSUPPORTED,
                      "volume: %d x %d x %d exceeds the device's 3D texture limit %d x %d x %d",
                      d[0], d[1], d[2], p->maxTexture3D[0], p->maxTexture3D[1], p->maxTexture3D[2]);
  cvr_cuda_volume *v = (cvr_cuda_volume *)calloc(1, sizeof *v);
  if (!v) return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "volume: out of host memory");
  v->layout = CVR_LAYOUT_TEXTURE;
  v->padded = 0;
  v->partner = 2;
  for (int a = 0; a < 3; ++a) {
    v->dims[a] = d[a];
    v->orientation.axis[a] = a;
    v->orientation.sign[a] = 1;
  }
  v->components = n;
  v->bytes = (size_t)d[0] * d[1] * d[2] * channels * elem;
  cvr_status st = CVR_OK;
  const cudaChannelFormatDesc channel = channel_desc(stored, channels);
  cudaError_t e = cudaMalloc3DArray(&v->array, &channel, make_cudaExtent(d[0], d[1], d[2]));
  if (e != cudaSuccess) {
    char what[128];
    snprintf(what, sizeof what, "volume: cannot allocate %d x %d x %d voxels of %d components",
             d[0], d[1], d[2], n);
    st = cvr_cuda_allocation_failure(ctx, e, v->bytes, what);
  }
  volume->cuda = v; /* (components_write reads it) */
  if (st == CVR_OK) st = cvr_cuda_components_write(ctx, volume, u);
  if (st == CVR_OK &&
      ((e = cvr_cuda_volume_texture(v->array, stored, cudaFilterModeLinear, &v->linear)) != cudaSuccess ||
       (e = cvr_cuda_volume_texture(v->array, stored, cudaFilterModePoint, &v->nearest)) != cudaSuccess))
    st = cvr_cuda_volume_failure(ctx, e, "texture");
  if (st != CVR_OK) {
    volume->cuda = NULL;
    cvr_cuda_storage_free(ctx, v);
    free(v);
  }
  return st;
}

extern "C" cvr_status cvr_cuda_components_read(cvr_context *ctx, const cvr_volume *volume, void *out) {
  const cvr_cuda_volume *v = volume->cuda;
  const int *d = volume->dims, n = volume->components, channels = channels_for(n);
  const size_t elem = cvr_scalar_type_size(volume->stored_type);
  const size_t voxels = (size_t)d[0] * d[1] * d[2];
  void *staged = channels == n ? out : malloc(voxels * channels * elem);
  if (!staged) return cvr_fail(ctx, CVR_ERROR_OUT_OF_MEMORY, "read-back: out of host memory");
  cudaMemcpy3DParms copy;
  memset(&copy, 0, sizeof copy);
  copy.srcArray = v->array;
  copy.dstPtr = make_cudaPitchedPtr(staged, (size_t)d[0] * channels * elem, d[0], d[1]);
  copy.extent = make_cudaExtent(d[0], d[1], d[2]);
  copy.kind = cudaMemcpyDeviceToHost;
  const cudaError_t e = cudaMemcpy3D(&copy);
  if (e == cudaSuccess && staged != out)
    for (size_t i = 0; i < voxels; ++i)
      memcpy((char *)out + i * n * elem, (const char *)staged + i * channels * elem, n * elem);
  if (staged != out) free(staged);
  return e == cudaSuccess ? CVR_OK : cvr_cuda_volume_failure(ctx, e, "read-back");
}

/* Every component at texel coordinate (x, y, z), the channels beyond them
 * unused. */
/* (the texture's channels a uniform branch, not an instance per count: the
 * classification of several components costs far more than the branch) */
__device__ __forceinline__ void cvr_fetch_components(cudaTextureObject_t tex, const float pos[3],
                                                     float v[CVR_MAX_COMPONENTS], int components) {
  if (components == 2) {
    const float2 s = tex3D<float2>(tex, pos[0], pos[1], pos[2]);
    v[0] = s.x, v[1] = s.y, v[2] = 0.0f, v[3] = 0.0f;
  } else {
    const float4 s = tex3D<float4>(tex, pos[0], pos[1], pos[2]);
    v[0] = s.x, v[1] = s.y, v[2] = s.z, v[3] = s.w;
  }
}

/* A classified sample at pos (cvr_classify_components, or for an iso
 * crossing cvr_classify_crossing), with every component's gradient from its
 * six neighbours applied where visible and GRADIENT asks for them, and with
 * SCATTER volumetric scattering (its shadow samples' components mixed
 * without gradients). */
template <bool GRADIENT, bool SCATTER>
__device__ __forceinline__ cvr_rgba cvr_components_sample(const cvr_ray_params &p, const cvr_ray &ray,
                                                          cudaTextureObject_t tex, const float pos[3],
                                                          float t, const float *v, bool crossing) {
  cvr_rgba s = crossing ? cvr_classify_crossing(&p, &ray, t, v, NULL, NULL)
                        : cvr_classify_components(&p, &ray, t, v, NULL, NULL);
  if constexpr (GRADIENT) {
    if (s.a > 0.0f) {
      float plus[CVR_MAX_COMPONENTS], minus[CVR_MAX_COMPONENTS], g[CVR_MAX_COMPONENTS][3];
#pragma unroll
      for (int a = 0; a < 3; ++a) {
        float q[3] = {pos[0], pos[1], pos[2]};
        q[a] = pos[a] + 1.0f;
        cvr_fetch_components(tex, q, plus, p.components);
        q[a] = pos[a] - 1.0f;
        cvr_fetch_components(tex, q, minus, p.components);
#pragma unroll
        for (int c = 0; c < CVR_MAX_COMPONENTS; ++c) g[c][a] = 0.5f * (plus[c] - minus[c]);
      }
      float through[CVR_MAX_LIGHTS];
      const float *lit = nullptr;
      if (SCATTER && p.shading.scattering.blend > 0.0f) {
        cvr_light_through(p, ray, pos, [&](const float q[3]) {
          float w[CVR_MAX_COMPONENTS];
          cvr_fetch_components(tex, q, w, p.components);
          return cvr_classify_components(&p, &ray, 0.0f, w, NULL, NULL).a;
        }, through);
        lit = through;
      }
      s = crossing ? cvr_classify_crossing(&p, &ray, t, v, g, lit)
                   : cvr_classify_components(&p, &ray, t, v, g, lit);
    }
  }
  return s;
}

/* The kernel's instances: compositing (with ISO, isosurfaces), with or
 * without gradients, the projections, slices. */
enum { CVR_COMPONENTS_COMPOSITE = 0, CVR_COMPONENTS_PROJECT, CVR_COMPONENTS_SLICE };

/* At most 256 threads a block, so that the gradient instances keep their
 * four components' differences in registers (at 1024 they spilled). */
template <int KIND, bool GRADIENT, bool ISO, bool SCATTER = false>
__global__ void __launch_bounds__(CVR_COMPONENTS_MAX_THREADS) cvr_components_kernel(const cvr_cuda_launch l) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned hit = 0, samples = 0, lattice = 0;
  if (px < l.ray.width && py < l.ray.height) {
    const cvr_ray_params &p = l.ray;
    const cudaTextureObject_t tex = l.volume.texture;
    cvr_rgba acc = {0.0f, 0.0f, 0.0f, 0.0f};
    float t_hit = -1.0f, v[CVR_MAX_COMPONENTS], pos[3];
    cvr_ray ray;
    if constexpr (KIND == CVR_COMPONENTS_SLICE) {
      float t;
      if (cvr_setup_slice(l, px, py, &ray, &t)) {
        hit = samples = lattice = 1;
        cvr_ray_position(&ray, t, pos);
        if (cvr_sample_kept(&p, pos)) {
          cvr_fetch_components(tex, pos, v, p.components);
          cvr_composite(&acc, cvr_components_sample<GRADIENT, SCATTER>(p, ray, tex, pos, t, v, false));
          if (acc.a > 0.0f) t_hit = t;
        }
      }
    } else if (cvr_setup_ray(l, px, py, &ray)) {
      hit = 1;
      lattice = cvr_lattice_samples(ray);
      const float t_first = cvr_ray_t_first(&ray, p.lattice_offset);
      const float t_last = cvr_ray_t_last(&ray, p.lattice_offset);
      if constexpr (KIND == CVR_COMPONENTS_PROJECT) {
        cvr_component_blend q;
        cvr_component_blend_init(&p, &q);
        for (float t = t_first; t <= t_last; t += 1.0f) {
          cvr_ray_position(&ray, t, pos);
          ++samples;
          if (!cvr_sample_kept(&p, pos)) continue;
          cvr_fetch_components(tex, pos, v, p.components);
          cvr_component_blend_take(&p, &q, v);
        }
        acc = cvr_component_blend_pixel(&p, &q);
        if (acc.a > 0.0f) t_hit = t_first;
      } else {
        int interval = -1; /* ISO */
        for (float t = t_first; t <= t_last; t += 1.0f) {
          cvr_ray_position(&ray, t, pos);
          ++samples;
          if (!cvr_sample_kept(&p, pos)) continue;
          cvr_fetch_components(tex, pos, v, p.components);
          if (ISO && !cvr_iso_take(&p, &interval, &v[p.iso_component])) continue;
          const cvr_rgba s = cvr_components_sample<GRADIENT, SCATTER>(p, ray, tex, pos, t, v, ISO);
          if (s.a > 0.0f && t_hit < 0.0f) t_hit = t;
          cvr_composite(&acc, s);
          if (cvr_ray_done(&p, &acc)) break;
        }
      }
    }
    /* the ray again in the volume's coordinates for its depth (identity
     * orientation: the same lattice) */
    float depth = 1.0f, t_slice;
    const size_t pixel = (size_t)py * p.width + px;
    const float opaque = l.opaque_depth ? l.opaque_depth[pixel] : 1.0f;
    if (t_hit >= 0.0f &&
        (KIND == CVR_COMPONENTS_SLICE ? cvr_slice_setup(&p, px, py, opaque, &ray, &t_slice)
                                      : cvr_ray_phased_line(&p, px, py, opaque, &ray)))
      depth = cvr_ray_depth(&p, &ray, t_hit);
    cvr_write_pixel(l, px, py, acc, depth);
  }
  cvr_count(l.counters, hit, samples, lattice, 0);
}

template <int KIND, bool GRADIENT, bool ISO>
static cudaError_t launch_components(const cvr_cuda_launch &l, dim3 block, cudaStream_t stream) {
  const dim3 grid((l.ray.width + block.x - 1) / block.x, (l.ray.height + block.y - 1) / block.y);
  /* scattering frames: instances of their own (cvr_sample_features' reason) */
  if (GRADIENT && l.ray.shading.scattering.blend > 0.0f)
    cvr_components_kernel<KIND, GRADIENT, ISO, GRADIENT><<<grid, block, 0, stream>>>(l);
  else
    cvr_components_kernel<KIND, GRADIENT, ISO><<<grid, block, 0, stream>>>(l);
  return cudaGetLastError();
}

cudaError_t cvr_cuda_launch_components(const cvr_cuda_launch *launch, dim3 block, cudaStream_t stream) {
  const cvr_cuda_launch &l = *launch; /* (l.ray.components: how many the texture holds) */
  const bool gradient = cvr_needs_gradient(&l.ray);
  switch (l.ray.blend) {
  case CVR_BLEND_COMPOSITE:
    return gradient ? launch_components<CVR_COMPONENTS_COMPOSITE, true, false>(l, block, stream)
                    : launch_components<CVR_COMPONENTS_COMPOSITE, false, false>(l, block, stream);
  case CVR_BLEND_ISOSURFACE:
    return gradient ? launch_components<CVR_COMPONENTS_COMPOSITE, true, true>(l, block, stream)
                    : launch_components<CVR_COMPONENTS_COMPOSITE, false, true>(l, block, stream);
  case CVR_BLEND_SLICE:
    return gradient ? launch_components<CVR_COMPONENTS_SLICE, true, false>(l, block, stream)
                    : launch_components<CVR_COMPONENTS_SLICE, false, false>(l, block, stream);
  default: return launch_components<CVR_COMPONENTS_PROJECT, false, false>(l, block, stream);
  }
}
