/* SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
 * SPDX-License-Identifier: BSD-3-Clause */
/* How long the driver takes to load a module image (a fat binary as nvcc
 * writes it, compressed or not): what a kernel's first launch in a process
 * pays for its module. For each file: the median and range of ROUNDS
 * load/unload pairs in a warm context.
 *
 *   cvr-module-load [--rounds N] FILE.fatbin ...
 */
#define _POSIX_C_SOURCE 200809L
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int by_value(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void *read_file(const char *path, long *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *size = ftell(f);
  fseek(f, 0, SEEK_SET);
  void *data = malloc((size_t)*size);
  if (data && fread(data, 1, (size_t)*size, f) != (size_t)*size) {
    free(data);
    data = NULL;
  }
  fclose(f);
  return data;
}

int main(int argc, char **argv) {
  int rounds = 9, first = 1;
  if (argc > 2 && strcmp(argv[1], "--rounds") == 0) {
    rounds = atoi(argv[2]);
    first = 3;
  }
  if (first >= argc || rounds < 1 || rounds > 1000) {
    fprintf(stderr, "usage: %s [--rounds N] FILE.fatbin ...\n", argv[0]);
    return 2;
  }
  CUdevice device;
  CUcontext context;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&device, 0) != CUDA_SUCCESS ||
      cuDevicePrimaryCtxRetain(&context, device) != CUDA_SUCCESS ||
      cuCtxSetCurrent(context) != CUDA_SUCCESS) {
    fprintf(stderr, "no CUDA device\n");
    return 125;
  }
  printf("file\tbytes\tmedian_ms\tmin_ms\tmax_ms\n");
  double *ms = malloc(sizeof(double) * (size_t)rounds);
  for (int i = first; i < argc; ++i) {
    long size = 0;
    void *image = read_file(argv[i], &size);
    if (!image) {
      fprintf(stderr, "%s: cannot read\n", argv[i]);
      return 1;
    }
    for (int r = 0; r < rounds; ++r) {
      CUmodule module;
      const double t0 = now_ms();
      const CUresult e = cuModuleLoadData(&module, image);
      ms[r] = now_ms() - t0;
      if (e != CUDA_SUCCESS) {
        fprintf(stderr, "%s: cuModuleLoadData failed (%d)\n", argv[i], (int)e);
        return 1;
      }
      cuModuleUnload(module);
    }
    qsort(ms, (size_t)rounds, sizeof(double), by_value);
    printf("%s\t%ld\t%.3f\t%.3f\t%.3f\n", argv[i], size, ms[rounds / 2], ms[0], ms[rounds - 1]);
    free(image);
  }
  free(ms);
  return 0;
}
