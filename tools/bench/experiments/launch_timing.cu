// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* How much of a short kernel's event-timed duration is the host's launch:
 * a frame records its start event on an idle stream, so the GPU stamps it at
 * once and then waits for the host to push the kernel (with a parameter
 * block the size of the renderer's) through the driver; that gap, and its
 * jitter, count as kernel time. Here a kernel of fixed work (a spin of
 * --us microseconds on every SM) is timed --repeats times:
 *  - "plain": start event, launch, stop event, as cvr_render does;
 *  - "gated": the same behind a one-thread gate kernel that spins until the
 *    host has queued all three (a flag in mapped host memory), so the start
 *    event and the launch reach the GPU together;
 *  - "switch": plain, alternating two kernels and two block shapes (what a
 *    tuner's measured frame follows).
 * One JSON line per mode: median, min, max and percentiles in microseconds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#define TRY(call)                                                                                  \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      fprintf(stderr, "cvr-launch-timing: %s: %s\n", #call, cudaGetErrorString(e_));             \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

/* about the renderer's launch parameters (cvr_cuda_launch) */
typedef struct params {
  float values[320];
} params;

__device__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

template <int variant>
__global__ void spin(params p, unsigned long long ns, float *out) {
  const unsigned long long end = now_ns() + ns;
  float acc = p.values[threadIdx.x % 320];
  while (now_ns() < end) acc = acc * 0.999f + variant;
  if (acc == -1.0f) out[blockIdx.x] = acc; /* never true; keeps the loop */
}

/* spins until the host sets *flag, at most timeout_ns */
__global__ void gate(const volatile int *flag, unsigned long long timeout_ns) {
  const unsigned long long end = now_ns() + timeout_ns;
  while (*flag == 0 && now_ns() < end) {
  }
}

static int cmp(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void report(const char *mode, double *us, int n, double target_us) {
  qsort(us, (size_t)n, sizeof us[0], cmp);
  printf("{\"bench\":\"launch_timing\",\"mode\":\"%s\",\"target_us\":%.1f,\"repeats\":%d,"
         "\"median_us\":%.2f,\"min_us\":%.2f,\"p10_us\":%.2f,\"p90_us\":%.2f,\"max_us\":%.2f,"
         "\"spread\":%.4f}\n",
         mode, target_us, n, us[n / 2], us[0], us[n / 10], us[n - 1 - n / 10], us[n - 1],
         (us[n - 1] - us[0]) / us[n / 2]);
}

int main(int argc, char **argv) {
  double target_us = 200.0;
  int repeats = 200;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--us")) target_us = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--repeats")) repeats = atoi(argv[i + 1]);
  }
  if (repeats < 10 || repeats > 100000 || !(target_us > 0.0)) {
    fprintf(stderr, "usage: cvr-launch-timing [--us MICROSECONDS] [--repeats N]\n");
    return 2;
  }
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    fprintf(stderr, "cvr-launch-timing: no CUDA device\n");
    return 125;
  }
  cudaDeviceProp prop;
  TRY(cudaGetDeviceProperties(&prop, 0));
  printf("{\"device\":\"%s\"}\n", prop.name);
  cudaStream_t stream;
  TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaEvent_t start, stop;
  TRY(cudaEventCreate(&start));
  TRY(cudaEventCreate(&stop));
  int *flag = NULL, *flag_device = NULL;
  TRY(cudaHostAlloc((void **)&flag, sizeof *flag, cudaHostAllocMapped));
  TRY(cudaHostGetDevicePointer((void **)&flag_device, flag, 0));
  float *out = NULL;
  TRY(cudaMalloc((void **)&out, 65536 * sizeof(float)));
  params p;
  for (int i = 0; i < 320; ++i) p.values[i] = (float)i;
  const unsigned long long ns = (unsigned long long)(target_us * 1e3);
  const dim3 grid((unsigned)prop.multiProcessorCount * 4);
  double *us = (double *)malloc((size_t)repeats * sizeof(double));
  for (int mode = 0; mode < 3; ++mode) {
    for (int r = -5; r < repeats; ++r) { /* five warm-ups */
      const int other = mode == 2 && (r & 1);
      if (mode == 1) {
        *flag = 0;
        gate<<<1, 1, 0, stream>>>(flag_device, 100000000ull);
      }
      TRY(cudaEventRecord(start, stream));
      if (other) spin<1><<<grid, dim3(8, 32), 0, stream>>>(p, ns, out);
      else spin<0><<<grid, dim3(16, 16), 0, stream>>>(p, ns, out);
      TRY(cudaEventRecord(stop, stream));
      if (mode == 1) *(volatile int *)flag = 1;
      TRY(cudaStreamSynchronize(stream));
      float ms = 0.0f;
      TRY(cudaEventElapsedTime(&ms, start, stop));
      if (r >= 0) us[r] = ms * 1e3;
    }
    report(mode == 0 ? "plain" : mode == 1 ? "gated" : "switch", us, repeats, target_us);
  }
  free(us);
  return 0;
}
