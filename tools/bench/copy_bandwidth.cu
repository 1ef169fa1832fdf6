// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Copy rates the benchmarks hold the library against. The device's copy
 * bandwidth, as CUDA's bandwidthTest measures it: a device-to-device
 * cudaMemcpy of `bytes`, counted as 2 x bytes (read and write) per copy;
 * the median of repeats after one warm-up. */
#include <algorithm>
#include <chrono>
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
  cudaMemset(a, 0, bytes); /* (what it copies is defined: compute-sanitizer's initcheck) */
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

/* Host-to-device copy rate of `bytes` from `host` (pinned or pageable, as
 * the caller allocated it) into a device buffer: bytes / time, the median
 * of repeats after one warm-up, timed on the host (a cudaMemcpy returns
 * once the copy is done). */
extern "C" int cvr_bench_host_to_device(const void *host, size_t bytes, int repeats,
                                        double *gbytes_per_s) {
  void *d = nullptr;
  if (cudaMalloc(&d, bytes) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  std::vector<double> s;
  for (int i = 0; i <= repeats; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    if (cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice) != cudaSuccess) break;
    const auto t1 = std::chrono::steady_clock::now();
    if (i > 0) s.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  cudaFree(d);
  if (s.empty()) return 0;
  std::sort(s.begin(), s.end());
  *gbytes_per_s = (double)bytes / s[s.size() / 2] / 1e9;
  return cudaGetLastError() == cudaSuccess;
}

/* Pinned host memory for the reference copy (NULL when it cannot be had). */
extern "C" void *cvr_bench_pinned(size_t bytes) {
  void *p = nullptr;
  if (cudaHostAlloc(&p, bytes, cudaHostAllocDefault) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  return p;
}

extern "C" void cvr_bench_pinned_free(void *p) { cudaFreeHost(p); }
