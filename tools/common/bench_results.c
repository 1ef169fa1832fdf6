// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* What every benchmark writes besides its numbers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cvr_tools.h"

void cvr_tools_write_meta(FILE *out, const char *device, const char *commit, int argc,
                          char **argv) {
  char date[32];
  const time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  fprintf(out, "{\"meta\":{\"device\":\"%s\",\"date\":\"%s\",\"commit\":\"%s\",\"command\":\"", device,
          date, commit);
  /* file names without their folders: results must not carry machine paths */
  for (int i = 0; i < argc; ++i) {
    const char *a = strrchr(argv[i], '/');
    const int path = a && (i == 0 || !strcmp(argv[i - 1], "--out") ||
                           !strcmp(argv[i - 1], "--volume") || !strcmp(argv[i - 1], "--images") ||
                           !strcmp(argv[i - 1], "--tables"));
    fprintf(out, "%s%s", i ? " " : "", path ? a + 1 : argv[i]);
  }
  fprintf(out, "\"}}\n");
}

uint8_t *cvr_tools_random_voxels(const int dims[3]) {
  const size_t count = (size_t)dims[0] * dims[1] * dims[2];
  uint8_t *voxels = malloc(count);
  if (!voxels) return NULL;
  uint64_t state = 0x9E3779B97F4A7C15ULL ^ (uint64_t)count;
  for (size_t i = 0; i < count; i += 8) {
    const uint64_t r = cvr_tools_random(&state);
    memcpy(voxels + i, &r, count - i < 8 ? count - i : 8);
  }
  return voxels;
}
