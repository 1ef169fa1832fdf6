// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The texture-filtering ceiling of the device: trilinear uint8 fetches that
 * all hit the texture cache (every block samples the same 16^3 corner of a
 * small volume), so the number measures the filtering units, not memory. */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime.h>

extern "C" int cvr_bench_texture_ceiling(double *gsamples_per_s, char *info, size_t info_size);

__global__ void ceiling_kernel(cudaTextureObject_t tex, int fetches, float *out) {
  /* positions stay inside a 16^3 region; the offset changes every fetch so
   * the compiler cannot hoist or merge them */
  const float x0 = 0.5f + (threadIdx.x % 8) * 1.37f, y0 = 0.5f + (threadIdx.x / 8 % 4) * 2.11f;
  const float z0 = 0.5f + (threadIdx.x / 32) * 1.73f;
  float acc = 0.0f;
  for (int i = 0; i < fetches; ++i) {
    const float d = (i & 15) * 0.0625f;
    acc += tex3D<float>(tex, x0 + d, y0 + 0.5f * d, z0 + 0.25f * d);
  }
  if (acc == -1.0f) out[blockIdx.x] = acc; /* never true; keeps the loop */
}

#define TRY(call)                                                                                  \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      snprintf(info, info_size, "%s: %s", #call, cudaGetErrorString(e_));                          \
      return 0;                                                                                    \
    }                                                                                              \
  } while (0)

extern "C" int cvr_bench_texture_ceiling(double *gsamples_per_s, char *info, size_t info_size) {
  const int n = 64;
  static unsigned char host[64 * 64 * 64];
  for (int i = 0; i < n * n * n; ++i) host[i] = (unsigned char)(i * 131 + 7);
  cudaArray_t array;
  const cudaChannelFormatDesc ch = cudaCreateChannelDesc<unsigned char>();
  TRY(cudaMalloc3DArray(&array, &ch, make_cudaExtent(n, n, n)));
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr(host, n, n, n);
  p.dstArray = array;
  p.extent = make_cudaExtent(n, n, n);
  p.kind = cudaMemcpyHostToDevice;
  TRY(cudaMemcpy3D(&p));
  cudaResourceDesc res;
  memset(&res, 0, sizeof res);
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeNormalizedFloat;
  cudaTextureObject_t tex;
  TRY(cudaCreateTextureObject(&tex, &res, &td, NULL));
  int sms = 0;
  TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  float *out;
  TRY(cudaMalloc(&out, sizeof(float) * 1024 * 64));
  const int blocks = sms * 8, threads = 256, fetches = 4096;
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  float best = 1e30f;
  for (int r = 0; r < 12; ++r) {
    cudaEventRecord(a);
    ceiling_kernel<<<blocks, threads>>>(tex, fetches, out);
    cudaEventRecord(b);
    TRY(cudaEventSynchronize(b));
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    if (r >= 2 && ms < best) best = ms; /* two warm-up launches */
  }
  TRY(cudaGetLastError());
  *gsamples_per_s = (double)blocks * threads * fetches / (best * 1e-3) / 1e9;
  snprintf(info, info_size, "%d blocks x %d threads x %d fetches, best of 10: %.3f ms", blocks,
           threads, fetches, best);
  cudaDestroyTextureObject(tex);
  cudaFreeArray(array);
  cudaFree(out);
  return 1;
}
