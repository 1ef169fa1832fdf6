// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
#define _DEFAULT_SOURCE /* madvise, posix_memalign */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#  include <sys/mman.h>
#endif

#include "parallel.h"
#include "volume_convert.h"

#ifdef __SSE2__
#  include <emmintrin.h>
#endif

cvr_scalar_type cvr_stored_type(cvr_scalar_type type) {
  switch (type) {
  case CVR_INT8: case CVR_UINT8: case CVR_INT16: case CVR_UINT16: return type;
  default: return CVR_FLOAT32;
  }
}

/* One pass over the scalars: min and max in the source type (NaN fails
 * both comparisons, so it is ignored), each value copied as stored type S
 * when dst is given. The compiler vectorizes the integer loops (AVX2 where
 * the machine has it); it keeps float comparisons scalar, as they differ
 * from min and max instructions on signed zeros, which a range does not
 * care about: on x86 the float loops are written with SSE2's (same NaN
 * rule: min(x, lo) is lo when x is NaN). */
#define CONVERT_RANGE(name, T, S, LO, HI)                                                          \
  CVR_TARGET_CLONES("avx2", "default")                                                             \
  static void name(const void *src, size_t count, void *dst, double range[2]) {                    \
    const T *restrict s = (const T *)src;                                                          \
    T lo = LO, hi = HI;                                                                            \
    if (dst) {                                                                                     \
      S *restrict d = (S *)dst;                                                                    \
      for (size_t i = 0; i < count; ++i) {                                                         \
        const T x = s[i];                                                                          \
        d[i] = (S)x;                                                                               \
        lo = x < lo ? x : lo;                                                                      \
        hi = x > hi ? x : hi;                                                                      \
      }                                                                                            \
    } else {                                                                                       \
      for (size_t i = 0; i < count; ++i) {                                                         \
        const T x = s[i];                                                                          \
        lo = x < lo ? x : lo;                                                                      \
        hi = x > hi ? x : hi;                                                                      \
      }                                                                                            \
    }                                                                                              \
    if (count && (double)lo < range[0]) range[0] = (double)lo;                                     \
    if (count && (double)hi > range[1]) range[1] = (double)hi;                                     \
  }
CONVERT_RANGE(convert_range_i8, int8_t, int8_t, INT8_MAX, INT8_MIN)
CONVERT_RANGE(convert_range_u8, uint8_t, uint8_t, UINT8_MAX, 0)
CONVERT_RANGE(convert_range_i16, int16_t, int16_t, INT16_MAX, INT16_MIN)
CONVERT_RANGE(convert_range_u16, uint16_t, uint16_t, UINT16_MAX, 0)
CONVERT_RANGE(convert_range_i32, int32_t, float, INT32_MAX, INT32_MIN)
CONVERT_RANGE(convert_range_u32, uint32_t, float, UINT32_MAX, 0)
#ifdef __SSE2__
static void convert_range_f32(const void *src, size_t count, void *dst, double range[2]) {
  const float *restrict s = (const float *)src;
  float *restrict d = (float *)dst;
  __m128 lo = _mm_set1_ps(INFINITY), hi = _mm_set1_ps(-INFINITY);
  size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    const __m128 x = _mm_loadu_ps(s + i);
    if (d) _mm_storeu_ps(d + i, x);
    lo = _mm_min_ps(x, lo);
    hi = _mm_max_ps(x, hi);
  }
  float l[4], h[4];
  _mm_storeu_ps(l, lo);
  _mm_storeu_ps(h, hi);
  for (int k = 1; k < 4; ++k) {
    l[0] = l[k] < l[0] ? l[k] : l[0];
    h[0] = h[k] > h[0] ? h[k] : h[0];
  }
  for (; i < count; ++i) {
    const float x = s[i];
    if (d) d[i] = x;
    l[0] = x < l[0] ? x : l[0];
    h[0] = x > h[0] ? x : h[0];
  }
  if ((double)l[0] < range[0]) range[0] = (double)l[0];
  if ((double)h[0] > range[1]) range[1] = (double)h[0];
}

static void convert_range_f64(const void *src, size_t count, void *dst, double range[2]) {
  const double *restrict s = (const double *)src;
  float *restrict d = (float *)dst;
  __m128d lo = _mm_set1_pd(INFINITY), hi = _mm_set1_pd(-INFINITY);
  size_t i = 0;
  for (; i + 2 <= count; i += 2) {
    const __m128d x = _mm_loadu_pd(s + i);
    if (d) _mm_storel_pi((__m64 *)(d + i), _mm_cvtpd_ps(x));
    lo = _mm_min_pd(x, lo);
    hi = _mm_max_pd(x, hi);
  }
  double l[2], h[2];
  _mm_storeu_pd(l, lo);
  _mm_storeu_pd(h, hi);
  l[0] = l[1] < l[0] ? l[1] : l[0];
  h[0] = h[1] > h[0] ? h[1] : h[0];
  for (; i < count; ++i) {
    const double x = s[i];
    if (d) d[i] = (float)x;
    l[0] = x < l[0] ? x : l[0];
    h[0] = x > h[0] ? x : h[0];
  }
  if (l[0] < range[0]) range[0] = l[0];
  if (h[0] > range[1]) range[1] = h[0];
}
#else
CONVERT_RANGE(convert_range_f32, float, float, INFINITY, -INFINITY)
CONVERT_RANGE(convert_range_f64, double, float, INFINITY, -INFINITY)
#endif

typedef void (*convert_range_fn)(const void *src, size_t count, void *dst, double range[2]);

static convert_range_fn convert_range_for(cvr_scalar_type type) {
  switch (type) {
  case CVR_INT8: return convert_range_i8;
  case CVR_UINT8: return convert_range_u8;
  case CVR_INT16: return convert_range_i16;
  case CVR_UINT16: return convert_range_u16;
  case CVR_INT32: return convert_range_i32;
  case CVR_UINT32: return convert_range_u32;
  case CVR_FLOAT32: return convert_range_f32;
  case CVR_FLOAT64: return convert_range_f64;
  }
  return NULL;
}

/* Widens ranges[c] by the values of component c of count values from src,
 * the first of component `first` (NaN ignored): a second pass over a part
 * the conversion has just read, so from the cache. */
#define COMPONENT_RANGES(name, T)                                                                  \
  static void name(const void *src, size_t count, int first, int components,                       \
                   double ranges[][2]) {                                                           \
    const T *s = (const T *)src;                                                                   \
    for (int k = 0; k < components && (size_t)k < count; ++k) {                                    \
      const int c = (first + k) % components;                                                      \
      double lo = ranges[c][0], hi = ranges[c][1];                                                 \
      for (size_t i = (size_t)k; i < count; i += (size_t)components) {                             \
        const double x = (double)s[i];                                                             \
        lo = x < lo ? x : lo;                                                                      \
        hi = x > hi ? x : hi;                                                                      \
      }                                                                                            \
      ranges[c][0] = lo;                                                                           \
      ranges[c][1] = hi;                                                                           \
    }                                                                                              \
  }
COMPONENT_RANGES(component_ranges_i8, int8_t)
COMPONENT_RANGES(component_ranges_u8, uint8_t)
COMPONENT_RANGES(component_ranges_i16, int16_t)
COMPONENT_RANGES(component_ranges_u16, uint16_t)
COMPONENT_RANGES(component_ranges_i32, int32_t)
COMPONENT_RANGES(component_ranges_u32, uint32_t)
COMPONENT_RANGES(component_ranges_f32, float)
COMPONENT_RANGES(component_ranges_f64, double)

typedef void (*component_ranges_fn)(const void *src, size_t count, int first, int components,
                                    double ranges[][2]);

static component_ranges_fn component_ranges_for(cvr_scalar_type type) {
  switch (type) {
  case CVR_INT8: return component_ranges_i8;
  case CVR_UINT8: return component_ranges_u8;
  case CVR_INT16: return component_ranges_i16;
  case CVR_UINT16: return component_ranges_u16;
  case CVR_INT32: return component_ranges_i32;
  case CVR_UINT32: return component_ranges_u32;
  case CVR_FLOAT32: return component_ranges_f32;
  case CVR_FLOAT64: return component_ranges_f64;
  }
  return NULL;
}

typedef struct convert_job {
  convert_range_fn fn;
  component_ranges_fn component_fn; /* NULL: one range */
  int components;
  const char *src;
  char *dst;
  size_t in_size, out_size;
  double range[CVR_PARALLEL_MAX_PARTS][2];
  double component_range[CVR_PARALLEL_MAX_PARTS][CVR_MAX_COMPONENTS][2];
} convert_job;

static void convert_part(void *arg, int part, size_t begin, size_t end) {
  convert_job *j = (convert_job *)arg;
  j->range[part][0] = INFINITY;
  j->range[part][1] = -INFINITY;
  j->fn(j->src + begin * j->in_size, end - begin, j->dst ? j->dst + begin * j->out_size : NULL,
        j->range[part]);
  if (!j->component_fn) return;
  for (int c = 0; c < j->components; ++c) {
    j->component_range[part][c][0] = INFINITY;
    j->component_range[part][c][1] = -INFINITY;
  }
  j->component_fn(j->src + begin * j->in_size, end - begin, (int)(begin % (size_t)j->components),
                  j->components, j->component_range[part]);
}

void cvr_range_init(double range[2]) {
  range[0] = INFINITY;
  range[1] = -INFINITY;
}

void cvr_range_finish(double range[2]) {
  if (range[0] > range[1]) range[0] = range[1] = 0.0;
}

void cvr_convert_range(cvr_scalar_type type, const void *src, size_t count, void *dst,
                       double range[2], int components, double (*component_ranges)[2],
                       int threads) {
  convert_job job;
  job.fn = convert_range_for(type);
  job.components = components;
  job.component_fn = components > 1 && component_ranges ? component_ranges_for(type) : NULL;
  job.src = (const char *)src;
  job.dst = (char *)dst;
  job.in_size = cvr_scalar_type_size(type);
  job.out_size = cvr_scalar_type_size(cvr_stored_type(type));
  /* parts of at least 1 MiB: a thread's start costs about as much as
   * copying 100 KiB */
  const int parts = cvr_parallel_for(threads, count, 64, ((size_t)1 << 20) / job.in_size,
                                     convert_part, &job);
  for (int p = 0; range && p < parts; ++p) {
    if (job.range[p][0] < range[0]) range[0] = job.range[p][0];
    if (job.range[p][1] > range[1]) range[1] = job.range[p][1];
  }
  for (int p = 0; job.component_fn && p < parts; ++p)
    for (int c = 0; c < components; ++c) {
      const double *r = job.component_range[p][c];
      if (r[0] < component_ranges[c][0]) component_ranges[c][0] = r[0];
      if (r[1] > component_ranges[c][1]) component_ranges[c][1] = r[1];
    }
}

typedef struct widen_job {
  const char *src;
  char *dst;
  int n, c;
  size_t elem;
} widen_job;

static void widen_part(void *arg, int part, size_t begin, size_t end) {
  (void)part;
  const widen_job *j = (const widen_job *)arg;
  const size_t in = (size_t)j->n * j->elem, out = (size_t)j->c * j->elem;
  memset(j->dst + begin * out, 0, (end - begin) * out);
  for (size_t i = begin; i < end; ++i) memcpy(j->dst + i * out, j->src + i * in, in);
}

void cvr_widen_channels(const void *src, size_t voxels, int n, int c, size_t elem, void *dst,
                        int threads) {
  const widen_job job = {(const char *)src, (char *)dst, n, c, elem};
  cvr_parallel_for(threads, voxels, 64, ((size_t)1 << 20) / ((size_t)c * elem), widen_part,
                   (void *)&job);
}

typedef struct copy_job {
  char *dst;
  const char *src;
} copy_job;

static void copy_part(void *arg, int part, size_t begin, size_t end) {
  const copy_job *j = (const copy_job *)arg;
  memcpy(j->dst + begin, j->src + begin, end - begin);
}

void cvr_copy_parallel(void *dst, const void *src, size_t bytes, int threads) {
  copy_job job = {(char *)dst, (const char *)src};
  cvr_parallel_for(threads, bytes, 64, (size_t)1 << 20, copy_part, &job);
}

void *cvr_alloc_volume_copy(size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const size_t huge = (size_t)2 << 20;
  if (bytes >= 2 * huge) {
    void *p = NULL;
    if (posix_memalign(&p, huge, bytes) != 0) return NULL;
    madvise(p, bytes, MADV_HUGEPAGE); /* (advice: without it, 4 KiB pages) */
    return p;
  }
#endif
  return malloc(bytes);
}
