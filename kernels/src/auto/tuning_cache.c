// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The auto-tuner's tables on disk: one small text file per table, named by
 * a hash of its key, ending in a checksum of everything before it. A file
 * is taken only whole: right version, right key, checksum intact, values in
 * range; a class whose candidates are not the ones this build measures
 * (another version of the library) is left out. Anything else is ignored
 * with a warning, never trusted. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tuner.h"

#define MAGIC "cvr-tuning 7" /* 3: 24 view classes (aligned views apart), the block-shape
                                * candidate measured like any other; 4: cells; 5: rotation
                                * measured by several trials, with its gain; 6: the voxel
                                * order; 7: warp marching's turn by view */
#define MAX_FILE_BYTES 262144
#define MAX_MEASUREMENTS 1000
#define TOWARD_CHARS (CVR_TUNING_CLASSES * CVR_TUNING_ROLL_BINS)

static uint64_t fnv1a(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) {
    h ^= (unsigned char)s[i];
    h *= 1099511628211ull;
  }
  return h;
}

void cvr_tuning_file_name(const char *dir, const char *key, char *out, size_t size) {
  snprintf(out, size, "%s/cvr-tuning-%016llx.txt", dir,
           (unsigned long long)fnv1a(key, strlen(key)));
}

/* Appends to a bounded buffer; 0 once it is full. */
static int add(char *buf, size_t size, size_t *len, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int n = vsnprintf(buf + *len, size - *len, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= size - *len) return 0;
  *len += (size_t)n;
  return 1;
}

static int make_directories(const char *dir) {
  char path[1024];
  if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) return 0;
  for (char *p = path + 1;; ++p)
    if (*p == '/' || *p == '\0') {
      const char c = *p;
      *p = '\0';
      if (mkdir(path, 0755) != 0 && errno != EEXIST) return 0;
      if (!c) return 1;
      *p = c;
    }
}

int cvr_tuning_save(const cvr_tuning_table *t, const char *dir, char *warning, size_t size) {
  if (!dir || !dir[0]) return 1;
  char *buf = malloc(MAX_FILE_BYTES); /* not static: contexts may live on several threads */
  if (!buf) {
    snprintf(warning, size, "tuning cache: no host memory to write the table");
    return 0;
  }
  size_t len = 0;
  int ok = add(buf, MAX_FILE_BYTES, &len, "%s\nkey %s\nlayout %d %d rotation %d %.6f order %d %d %d\n",
               MAGIC, t->key, (int)t->layout, t->layout_tuned, t->rotation.decision,
               t->rotation.decision == 1 ? t->rotation.gain : 0.0, t->order[0], t->order[1],
               t->order[2]);
  /* warp marching's turn: one character a view class and roll band, its
   * decision + 1 */
  char toward[TOWARD_CHARS + 1];
  for (int k = 0; k < CVR_TUNING_CLASSES; ++k)
    for (int r = 0; r < CVR_TUNING_ROLL_BINS; ++r)
      toward[k * CVR_TUNING_ROLL_BINS + r] = (char)('1' + t->toward[k][r].decision);
  toward[TOWARD_CHARS] = '\0';
  if (ok) ok = add(buf, MAX_FILE_BYTES, &len, "toward %s\n", toward);
  /* and the turned frames' ratio of each slot decided toward */
  for (int k = 0; k < CVR_TUNING_CLASSES && ok; ++k)
    for (int r = 0; r < CVR_TUNING_ROLL_BINS && ok; ++r)
      if (t->toward[k][r].decision == 1)
        ok = add(buf, MAX_FILE_BYTES, &len, "toward %d %d %.6f\n", k, r,
                 (double)t->toward[k][r].ratio);
  for (int k = 0; k < CVR_TUNING_CLASSES && ok; ++k) {
    const cvr_tuning_class *c = &t->classes[k];
    ok = add(buf, MAX_FILE_BYTES, &len, "class %d %d\n", k, c->count);
    for (int i = 0; i < c->count && ok; ++i)
      ok = add(buf, MAX_FILE_BYTES, &len, "%d %.17g %d %s\n", c->measured[i], c->cost_sum[i],
               (int)c->dropped[i], c->names[i]);
  }
  /* the cells that measured something: "cell CLASS BIN" and, per finalist
   * measured, " CANDIDATE:COUNT:RATIO_SUM" */
  int cells = 0;
  for (int j = 0; j < CVR_TUNING_CELLS; ++j) cells += t->cells[j].used;
  if (ok) ok = add(buf, MAX_FILE_BYTES, &len, "cells %d\n", cells);
  for (int j = 0; j < CVR_TUNING_CELLS && ok; ++j) {
    const cvr_tuning_cell *cell = &t->cells[j];
    if (!cell->used) continue;
    ok = add(buf, MAX_FILE_BYTES, &len, "cell %d %d", cell->view_class, cell->bin);
    for (int i = 0; i < CVR_TUNING_MAX_CANDIDATES && ok; ++i)
      if (cell->measured[i])
        ok = add(buf, MAX_FILE_BYTES, &len, " %d:%d:%.9g", i, (int)cell->measured[i],
                 (double)cell->ratio_sum[i]);
    if (ok) ok = add(buf, MAX_FILE_BYTES, &len, "\n");
  }
  if (ok) ok = add(buf, MAX_FILE_BYTES, &len, "checksum %016llx\n", (unsigned long long)fnv1a(buf, len));
  if (!ok) {
    snprintf(warning, size, "tuning cache: the table for %s does not fit a file", t->key);
    free(buf);
    return 0;
  }
  char path[1100], tmp[1200];
  cvr_tuning_file_name(dir, t->key, path, sizeof path);
  snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
  FILE *f = make_directories(dir) ? fopen(tmp, "wb") : NULL;
  int written = f && fwrite(buf, 1, len, f) == len;
  if (f && fclose(f) != 0) written = 0;
  free(buf);
  if (!written || rename(tmp, path) != 0) {
    snprintf(warning, size, "tuning cache: cannot write %s (%s)", path, strerror(errno));
    remove(tmp);
    return 0;
  }
  return 1;
}

/* The next line of text (without its newline), or NULL at the end. */
static char *next_line(char **cursor) {
  char *s = *cursor;
  if (!s || !*s) return NULL;
  char *e = strchr(s, '\n');
  if (e) {
    *e = '\0';
    *cursor = e + 1;
  } else {
    *cursor = s + strlen(s);
  }
  return s;
}

/* The parts of a table file, each parsed from *cursor into `in` (and the
 * caller's bookkeeping). Each returns 1, or 0 with why it is ignored. */
#define REFUSE(...) (snprintf(why, CVR_MESSAGE_SIZE, __VA_ARGS__), 0)

/* The file's text, its checksum line checked and cut off: NULL and why
 * where it cannot be used (the caller frees what is returned). */
static char *read_checked(const char *path, char *why) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = malloc(MAX_FILE_BYTES + 1);
  const size_t len = buf ? fread(buf, 1, MAX_FILE_BYTES + 1, f) : 0;
  fclose(f);
  int ok = 1;
  if (!buf) ok = REFUSE("no host memory to read it");
  else if (len > MAX_FILE_BYTES) ok = REFUSE("larger than %d bytes", MAX_FILE_BYTES);
  else {
    buf[len] = '\0';
    /* the checksum line ends the file and covers everything before it */
    char *sum = len >= 2 ? buf + len - 2 : buf;
    while (sum > buf && sum[-1] != '\n') --sum;
    unsigned long long stored = 0;
    if (strlen(buf) != len) ok = REFUSE("not text");
    else if (len < 2 || buf[len - 1] != '\n' || sscanf(sum, "checksum %16llx", &stored) != 1)
      ok = REFUSE("no checksum (truncated?)");
    else if (stored != (unsigned long long)fnv1a(buf, (size_t)(sum - buf)))
      ok = REFUSE("checksum mismatch");
    else
      *sum = '\0';
  }
  if (ok) return buf;
  free(buf);
  return NULL;
}

/* The magic, the key, the layout and rotation line. */
static int parse_header(char **cursor, const char *key, cvr_tuning_table *in, char *why) {
  char *line = next_line(cursor);
  if (!line || strcmp(line, MAGIC) != 0)
    return REFUSE("not a tuning table of this version (%s)", MAGIC);
  line = next_line(cursor);
  if (!line || strncmp(line, "key ", 4) != 0 || strcmp(line + 4, key) != 0)
    return REFUSE("written for another key (stale)");
  int layout = -1, layout_tuned = -1, rotation = -2, order[3] = {-9, -9, -9};
  double gain = NAN;
  line = next_line(cursor);
  if (!line ||
      sscanf(line, "layout %d %d rotation %d %lf order %d %d %d", &layout, &layout_tuned,
             &rotation, &gain, &order[0], &order[1], &order[2]) != 7 ||
      layout < 0 || layout > CVR_LAYOUT_Z_ORDER || (layout_tuned != 0 && layout_tuned != 1) ||
      rotation < -1 || rotation > 1 || !(gain > -1.0 && gain < 1.0) ||
      (rotation == 1 && !(gain > 0.0)) || !cvr_tuning_order_valid(order))
    return REFUSE("bad layout line");
  memcpy(in->order, order, sizeof order);
  in->layout = (cvr_memory_layout)layout;
  in->layout_tuned = layout_tuned;
  memset(&in->rotation, 0, sizeof in->rotation);
  in->rotation.decision = rotation;
  in->rotation.gain = rotation == 1 ? gain : 0.0;
  return 1;
}

/* Warp marching's turns by class and roll band, and the ratio of each one on. */
static int parse_toward(char **cursor, cvr_tuning_table *in, char *why) {
  char *line = next_line(cursor);
  if (!line || strncmp(line, "toward ", 7) != 0 || strlen(line + 7) != TOWARD_CHARS ||
      strspn(line + 7, "012") != TOWARD_CHARS)
    return REFUSE("bad toward line");
  memset(in->toward, 0, sizeof in->toward);
  for (int k = 0; k < CVR_TUNING_CLASSES; ++k)
    for (int r = 0; r < CVR_TUNING_ROLL_BINS; ++r)
      in->toward[k][r].decision = (signed char)(line[7 + k * CVR_TUNING_ROLL_BINS + r] - '1');
  for (int k = 0; k < CVR_TUNING_CLASSES; ++k)
    for (int r = 0; r < CVR_TUNING_ROLL_BINS; ++r) {
      if (in->toward[k][r].decision != 1) continue;
      int kk = -1, rr = -1;
      double ratio = NAN;
      line = next_line(cursor);
      if (!line || sscanf(line, "toward %d %d %lf", &kk, &rr, &ratio) != 3 || kk != k || rr != r ||
          !(ratio > 0.0 && ratio < 1.0))
        return REFUSE("bad toward ratio line");
      in->toward[k][r].ratio = (float)ratio;
    }
  return 1;
}

/* The classes' measurements; a class whose candidates are not this build's
 * (by count and name) is not taken: taken[k], *skipped. */
static int parse_classes(char **cursor, const cvr_tuning_table *t, cvr_tuning_table *in,
                         int taken[CVR_TUNING_CLASSES], int *skipped, char *why) {
  for (int k = 0; k < CVR_TUNING_CLASSES; ++k) {
    int index = -1, count = -1;
    char *line = next_line(cursor);
    if (!line || sscanf(line, "class %d %d", &index, &count) != 2 || index != k || count < 0 ||
        count > CVR_TUNING_MAX_CANDIDATES)
      return REFUSE("bad class line %d", k);
    cvr_tuning_class c = t->classes[k]; /* this build's candidates, nothing measured */
    int same = count == c.count;
    for (int i = 0; i < count; ++i) {
      int measured = -1, dropped = -1, name_at = 0;
      double cost = -1.0;
      line = next_line(cursor);
      if (!line || sscanf(line, "%d %lf %d %n", &measured, &cost, &dropped, &name_at) != 3 ||
          measured < 0 || measured > MAX_MEASUREMENTS || !isfinite(cost) || cost < 0.0 ||
          (measured == 0 && cost != 0.0) || (dropped != 0 && dropped != 1))
        return REFUSE("bad measurement in class %d", k);
      if (same && i < c.count && strcmp(line + name_at, c.names[i]) == 0) {
        c.measured[i] = measured;
        c.cost_sum[i] = cost;
        c.dropped[i] = (unsigned char)dropped;
      } else {
        same = 0;
      }
    }
    taken[k] = same;
    if (same) {
      cvr_tuning_update_best(&c);
      in->classes[k] = c;
    } else {
      ++*skipped;
    }
  }
  return 1;
}

/* The cells, kept for the classes taken only (their candidates are this
 * build's). */
static int parse_cells(char **cursor, cvr_tuning_table *in, const int taken[CVR_TUNING_CLASSES],
                       char *why) {
  int cells = -1;
  char *line = next_line(cursor);
  if (!line || sscanf(line, "cells %d", &cells) != 1 || cells < 0 || cells > CVR_TUNING_CELLS)
    return REFUSE("bad cells line");
  memset(in->cells, 0, sizeof in->cells);
  for (int j = 0; j < cells; ++j) {
    cvr_tuning_cell cell;
    memset(&cell, 0, sizeof cell);
    int at = 0;
    line = next_line(cursor);
    if (!line || sscanf(line, "cell %d %d %n", &cell.view_class, &cell.bin, &at) != 2 ||
        cell.view_class < 0 || cell.view_class >= CVR_TUNING_CLASSES || cell.bin < 0 ||
        cell.bin >= CVR_TUNING_CELL_BINS)
      return REFUSE("bad cell line %d", j);
    const cvr_tuning_class *c = &in->classes[cell.view_class];
    for (const char *p = line + at; *p;) {
      int i = -1, measured = -1, used = 0;
      double sum = -1.0;
      if (sscanf(p, "%d:%d:%lf%n", &i, &measured, &sum, &used) != 3 || i < 0 || i >= c->count ||
          measured < 1 || measured > 255 || !isfinite(sum) || sum < 0.25 * measured ||
          sum > 4.0 * measured)
        return REFUSE("bad measurement in cell %d", j);
      cell.measured[i] = (unsigned char)measured;
      cell.ratio_sum[i] = (float)sum;
      for (p += used; *p == ' '; ++p) {
      }
    }
    cell.used = 1;
    if (taken[cell.view_class]) in->cells[j] = cell;
  }
  if (next_line(cursor)) return REFUSE("unexpected text after the cells");
  return 1;
}
#undef REFUSE

int cvr_tuning_load(cvr_tuning_table *t, const char *dir, char *warning, size_t size) {
  if (!dir || !dir[0]) return 0;
  char path[1100], why[CVR_MESSAGE_SIZE] = "";
  cvr_tuning_file_name(dir, t->key, path, sizeof path);
  char *buf = read_checked(path, why);
  if (!buf) {
    if (why[0]) snprintf(warning, size, "tuning cache: ignored %s: %s", path, why);
    return 0; /* (no file: nothing learnt yet) */
  }
  cvr_tuning_table in = *t;
  char *cursor = buf;
  int taken[CVR_TUNING_CLASSES] = {0}, skipped = 0;
  const int ok = parse_header(&cursor, t->key, &in, why) && parse_toward(&cursor, &in, why) &&
                 parse_classes(&cursor, t, &in, taken, &skipped, why) &&
                 parse_cells(&cursor, &in, taken, why);
  free(buf);
  if (!ok) {
    snprintf(warning, size, "tuning cache: ignored %s: %s", path, why);
    return 0;
  }
  *t = in;
  if (skipped)
    snprintf(warning, size,
             "tuning cache: %s: %d view class(es) measured other candidates (another version), "
             "tuned again", path, skipped);
  return 1;
}
