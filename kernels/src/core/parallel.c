// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
#include "parallel.h"

#include <pthread.h>

typedef struct part_job {
  cvr_part_fn fn;
  void *arg;
  int part;
  size_t begin, end;
} part_job;

static void *run_part(void *p) {
  const part_job *j = (const part_job *)p;
  j->fn(j->arg, j->part, j->begin, j->end);
  return NULL;
}

int cvr_parallel_for(int threads, size_t count, size_t grain, size_t min_part, cvr_part_fn fn,
                     void *arg) {
  if (grain < 1) grain = 1;
  if (min_part < grain) min_part = grain;
  const size_t grains = (count + grain - 1) / grain;
  size_t parts = threads < 1 ? 1 : (size_t)threads;
  if (parts > CVR_PARALLEL_MAX_PARTS) parts = CVR_PARALLEL_MAX_PARTS;
  if (parts > count / min_part) parts = count / min_part;
  if (parts < 1) parts = 1;
  part_job jobs[CVR_PARALLEL_MAX_PARTS];
  pthread_t ids[CVR_PARALLEL_MAX_PARTS];
  int started[CVR_PARALLEL_MAX_PARTS] = {0};
  for (size_t p = 0; p < parts; ++p) {
    const size_t b = grains * p / parts * grain, e = grains * (p + 1) / parts * grain;
    jobs[p] = (part_job){fn, arg, (int)p, b < count ? b : count, e < count ? e : count};
  }
  for (size_t p = 1; p < parts; ++p)
    started[p] = pthread_create(&ids[p], NULL, run_part, &jobs[p]) == 0;
  run_part(&jobs[0]);
  for (size_t p = 1; p < parts; ++p) {
    if (started[p])
      pthread_join(ids[p], NULL);
    else
      run_part(&jobs[p]);
  }
  return (int)parts;
}
