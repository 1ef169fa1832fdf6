// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* libFuzzer target over AUTO's cache files (tuning_cache.c): the input is a
 * file's text, to which a valid checksum line is appended (so that the
 * parser behind the checksum is reached) unless the input's first byte is
 * '!' (then the bytes as they are, the checksum's own line fuzzed too). It is
 * written where a table keyed "fuzz" looks for its file and loaded. Whatever
 * the input: no crash, no sanitizer report; a file taken leaves every value
 * in range (counts, costs, flags, the best, cells' classes, bins and
 * candidates), one ignored leaves the table as it was, with a warning. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tuner.h"

static char dir[256];

static uint64_t fnv1a(const uint8_t *s, size_t n) { /* the files' checksum */
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) {
    h ^= s[i];
    h *= 1099511628211ull;
  }
  return h;
}

static void make_table(cvr_tuning_table *t) {
  memset(t, 0, sizeof *t);
  snprintf(t->key, sizeof t->key, "fuzz");
  t->layout = CVR_LAYOUT_TEXTURE;
  for (int k = 0; k < CVR_TUNING_CLASSES; ++k)
    cvr_tuning_class_init(&t->classes[k], CVR_BACKEND_CUDA, k, &(cvr_tuning_frames){1, CVR_BLEND_COMPOSITE, 0, 0});
}

static void check(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "fuzz_tuning_cache: %s\n", what);
    abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!dir[0]) {
    snprintf(dir, sizeof dir, "%s/fuzz-tuning-cache-%ld", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (long)getpid());
  }
  static cvr_tuning_table t, fresh;
  make_table(&t);
  make_table(&fresh);
  char path[1100], warning[512] = "";
  /* an empty table saved first makes the directory */
  cvr_tuning_save(&fresh, dir, warning, sizeof warning);
  cvr_tuning_file_name(dir, t.key, path, sizeof path);
  FILE *f = fopen(path, "wb");
  if (!f) return 0;
  const int raw = size > 0 && data[0] == '!';
  fwrite(data, 1, size, f);
  if (!raw) fprintf(f, "checksum %016llx\n", (unsigned long long)fnv1a(data, size));
  fclose(f);
  const int taken = cvr_tuning_load(&t, dir, warning, sizeof warning);
  check(taken == 0 || taken == 1, "load returned neither 0 nor 1");
  if (!taken) {
    check(!memcmp(&t, &fresh, sizeof t), "an ignored file changed the table");
    return 0;
  }
  check(t.layout >= 0 && t.layout <= CVR_LAYOUT_Z_ORDER && t.rotation.decision >= -1 &&
            t.rotation.decision <= 1 && t.rotation.gain > -1.0 && t.rotation.gain < 1.0 &&
            (t.rotation.decision != 1 || t.rotation.gain > 0.0) && cvr_tuning_order_valid(t.order),
        "layout, rotation or voxel order out of range");
  for (int k = 0; k < CVR_TUNING_CLASSES; ++k) {
    const cvr_tuning_class *c = &t.classes[k];
    check(c->count == fresh.classes[k].count && c->best >= 0 && c->best < c->count,
          "a class's candidates or best changed");
    for (int i = 0; i < c->count; ++i)
      check(c->measured[i] >= 0 && c->measured[i] <= 1000 && isfinite(c->cost_sum[i]) &&
                c->cost_sum[i] >= 0.0 && c->dropped[i] <= 1,
            "a measurement out of range");
  }
  for (int j = 0; j < CVR_TUNING_CELLS; ++j) {
    const cvr_tuning_cell *cell = &t.cells[j];
    if (!cell->used) continue;
    check(cell->view_class >= 0 && cell->view_class < CVR_TUNING_CLASSES && cell->bin >= 0 &&
              cell->bin < CVR_TUNING_CELL_BINS,
          "a cell's class or bin out of range");
    const cvr_tuning_class *c = &t.classes[cell->view_class];
    for (int i = 0; i < CVR_TUNING_MAX_CANDIDATES; ++i) {
      const double sum = cell->ratio_sum[i], n = cell->measured[i];
      check(i < c->count || !n, "a cell measured a candidate its class lacks");
      check(!n ? sum == 0.0 : (isfinite(sum) && sum >= 0.25 * n - 1e-3 && sum <= 4.0 * n + 1e-3),
            "a cell's ratios out of range");
    }
    /* what AUTO asks of a loaded cell */
    const int next = cvr_tuning_cell_next(cell, c, 6), choice = cvr_tuning_cell_choice(cell, c, 6);
    check(next >= -1 && next < c->count && choice >= 0 && choice < c->count,
          "a cell's next or choice out of range");
  }
  return 0;
}
