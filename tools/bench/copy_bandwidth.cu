// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The device's copy bandwidth, as CUDA's bandwidthTest measures it: a
 * device-to-device cudaMemcpy of `bytes`, counted as 2 x bytes (read and
 * write) per copy; the median of repeats after one warm-up. */
#include <algorithm>
#include <vector>

#include <cuda_runtime.h>

extern "C" int cvr_bench_copy_bandwidth(size_t bytes, int repeats, double *gbytes_per_s) {
  void *a = nullptr, *b = nullptr;
  cudaEvent_t start, stop;
  if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) {
    cudaFree(a);
    cudaGetLastError();
    return 0;
  }
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::vector<float> ms;
  for (int i = 0; i <= repeats; ++i) {
    cudaEventRecord(start);
    cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float t = 0.0f;
    cudaEventElapsedTime(&t, start, stop);
    if (i > 0) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  *gbytes_per_s = 2.0 * (double)bytes / (ms[ms.size() / 2] * 1e-3) / 1e9;
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(a);
  cudaFree(b);
  return cudaGetLastError() == cudaSuccess;
}
