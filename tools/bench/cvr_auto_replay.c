// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* cvr-auto-replay: AUTO's search (the library's tuner.c, unchanged) replayed
 * on the costs a GPU measured, without a GPU. Input: a cvr-auto-bench file
 * (tools/bench/results/.../auto-*.jsonl), whose oracle lines hold every
 * candidate's kernel time at every --oracle-step degrees of the orbit (10
 * unless the run said otherwise; at 1, the views' own jitter is in them)
 * and whose orbit lines hold each view's class. The replay orbits a frame per degree, each
 * frame costing what its configuration measured at the oracle views around
 * it, interpolated, times 1 +- 2% of deterministic noise (--noise: frames of
 * 0.15-0.6 ms on an H100 vary by 7% from min to max at a fixed view, about
 * +-5%), orbit after orbit until every class of the orbit has converged
 * (--orbits at most; an orbit may measure nothing while the budget waits).
 * It reports what cvr-auto-bench reports for AUTO's search: frames spent
 * measuring in the first orbit, the tuning share (the first orbit over the
 * last, minus one), of it what measuring cost (the budget's account), the
 * first orbit over the oracle's (each frame at its fastest candidate: a
 * reference no search moves, where the last orbit, without cells, does), the
 * orbits that measured, per view the converged choice over the best
 * candidate there, and how many views one candidate per class could have
 * within 5% at best. In-place rotation and kernel loading are not replayed
 * (the oracle without rotation is the reference), so a change to the search
 * can be judged before it takes GPU time; over several noise sequences
 * (--seeds), since one replay's choices hang on a few measurements.
 * --relative 0 replays plain costs (the search before
 * cvr_tuning_record_relative); --views 1 prints each oracle view, 2 every
 * measurement, 3 the classes at the end, 4 every frame. The view classes
 * are the file's own; those of files with 18 classes are renumbered, the
 * micro-benchmark's axis-aligned views (within 4 degrees) taken apart as
 * today. --first "NAME,NAME" replays another order of the candidates: those
 * named come right after the block-shape strategy, in that order (a shaded
 * class's 3D warp marching loses its place first near stored x), to judge
 * an order before a build of it takes GPU time. The candidates' order is
 * the one AUTO takes for the file's rays and GPU (cvr_tuning_many_waves);
 * --many-waves 0|1 replays the other.
 *
 *   cvr-auto-replay [--repeats N] [--prune X] [--budget SHARE] [--orbits N]
 *                   [--noise X] [--relative 0|1] [--seeds N] [--first-seed N]
 *                   [--first NAMES] [--many-waves 0|1] [--views 0..4] FILE.jsonl... */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tuner.h"

#define VIEWS_MAX 360 /* oracle views: every step degrees (cvr-auto-bench --oracle-step) */

typedef struct replay {
  char volume[160];
  int shaded;
  int rays[2], multiprocessors; /* the image's rays, the GPU's SMs (0: not in the file) */
  int view_class[360];
  int configs;
  char names[32][CVR_TUNING_NAME_SIZE];
  int step, views;            /* the oracle's step in degrees, its views (360 / step) */
  double ms[VIEWS_MAX][32];   /* by azimuth; 0: not measured */
} replay;

/* The text of "key":"..." or the number of "key":N in a line. */
static int json_string(const char *line, const char *key, char *out, size_t size) {
  char pattern[64];
  snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
  const char *p = strstr(line, pattern);
  if (!p) return 0;
  p += strlen(pattern);
  const char *end = strchr(p, '"');
  if (!end) return 0;
  snprintf(out, size, "%.*s", (int)(end - p), p);
  return 1;
}

static int json_number(const char *line, const char *key, double *out) {
  char pattern[64];
  snprintf(pattern, sizeof pattern, "\"%s\":", key);
  const char *p = strstr(line, pattern);
  return p && sscanf(p + strlen(pattern), "%lf", out) == 1;
}

static int load(const char *path, replay *r) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "cvr-auto-replay: cannot open %s\n", path);
    return 0;
  }
  memset(r, 0, sizeof *r);
  for (int a = 0; a < 360; ++a) r->view_class[a] = -1;
  static char line[8192];
  char bench[32], pass[16], config[CVR_TUNING_NAME_SIZE];
  int classes = 18; /* files without a count are from the 18 classes */
  while (fgets(line, sizeof line, f)) {
    double az = 0, k = 0, rotation = 0, ms = 0, shaded = 0, rays = 0;
    const char *sms = strstr(line, " SMs,");
    if (strstr(line, "\"meta\"") && sms) { /* "(device 0, sm_90, 132 SMs, ...)" */
      while (sms > line && sms[-1] >= '0' && sms[-1] <= '9') --sms;
      r->multiprocessors = atoi(sms);
    }
    if (!json_string(line, "bench", bench, sizeof bench)) continue;
    if (json_number(line, "R", &rays)) r->rays[0] = r->rays[1] = (int)rays;
    json_string(line, "volume", r->volume, sizeof r->volume);
    if (!strcmp(bench, "auto_orbit") && json_string(line, "pass", pass, sizeof pass) &&
        !strcmp(pass, "cold") && json_number(line, "azimuth", &az) &&
        json_number(line, "view_class", &k) && az >= 0 && az < 360) {
      r->view_class[(int)az] = (int)k;
    } else if (!strcmp(bench, "auto_oracle") && json_number(line, "rotation", &rotation) &&
               rotation == 0 && json_number(line, "azimuth", &az) &&
               json_number(line, "ms", &ms) && json_string(line, "config", config, sizeof config)) {
      int c = 0;
      while (c < r->configs && strcmp(r->names[c], config)) ++c;
      if (c == r->configs && r->configs < 32) snprintf(r->names[r->configs++], CVR_TUNING_NAME_SIZE, "%s", config);
      if (c < 32 && az >= 0 && az < 360) r->ms[(int)az][c] = ms;
    } else if (!strcmp(bench, "auto_summary") && json_number(line, "shaded", &shaded)) {
      r->shaded = shaded != 0;
      double n = 18;
      if (json_number(line, "classes", &n)) classes = (int)n;
    }
  }
  fclose(f);
  if (classes != CVR_TUNING_CLASSES) /* an 18-class file: its classes in today's numbering */
    for (int a = 0; a < 360; ++a) {
      const int k = r->view_class[a];
      if (k < 0 || k >= 18) continue;
      int lean = k % 3;
      /* the micro-benchmark orbits about y from a view along z: axis-aligned
       * every 90 degrees (the other orbits look 20 degrees down: never) */
      const int off = a % 90 < 45 ? a % 90 : 90 - a % 90;
      if (!strncmp(r->volume, "micro", 5) && off <= 4) lean = CVR_TUNING_LEAN_ALIGNED;
      r->view_class[a] = k / 6 * 8 + k / 3 % 2 * 4 + lean;
    }
  for (int a = 0; a < 360; ++a)
    if (r->view_class[a] < 0 || r->view_class[a] >= CVR_TUNING_CLASSES) {
      fprintf(stderr, "cvr-auto-replay: %s: no cold orbit frame at %d degrees\n", path, a);
      return 0;
    }
  r->step = 0; /* the least gap between the oracle's views */
  for (int a = 1, last = -1; a < 360; ++a) {
    int seen = 0;
    for (int k = 0; k < r->configs && !seen; ++k) seen = r->ms[a][k] > 0.0;
    if (!seen) continue;
    const int gap = a - (last < 0 ? 0 : last);
    if (!r->step || gap < r->step) r->step = gap;
    last = a;
  }
  if (!r->step || 360 % r->step) r->step = 360;
  r->views = 360 / r->step;
  if (!r->configs) fprintf(stderr, "cvr-auto-replay: %s: no oracle lines\n", path);
  return r->configs > 0;
}

/* Kernel time of the file's configuration k at azimuth a: interpolated
 * between the two oracle views around it; the nearer one's where the other
 * has none, 0 where neither has (it cannot run there). */
static double config_at(const replay *r, int k, int a) {
  const int v0 = a - a % r->step, v1 = (v0 + r->step) % 360;
  const double t = (double)(a % r->step) / r->step;
  const double x = r->ms[v0][k], y = r->ms[v1][k];
  if (x > 0.0 && y > 0.0) return (1.0 - t) * x + t * y;
  return t < 0.5 ? x : y;
}

/* Kernel time of candidate i of class c at azimuth a (config_at); 0 when
 * the file has no such configuration. */
static double cost_at(const replay *r, const cvr_tuning_class *c, int i, int a) {
  for (int k = 0; k < r->configs; ++k)
    if (!strcmp(r->names[k], c->names[i])) return config_at(r, k, a);
  return 0.0;
}

/* The orbit at the fastest configuration of every frame: a reference that,
 * unlike the converged orbit, no search moves. */
static double oracle_orbit(const replay *r) {
  double sum = 0.0;
  for (int a = 0; a < 360; ++a) {
    double best = INFINITY;
    for (int k = 0; k < r->configs; ++k)
      if (config_at(r, k, a) > 0.0) best = fmin(best, config_at(r, k, a));
    sum += best;
  }
  return sum;
}

static unsigned rng = 12345u;
static double noise_amplitude = 0.02; /* --noise */
static double noise(void) { /* 1 +- noise_amplitude, uniform */
  rng = rng * 1664525u + 1013904223u;
  return 1.0 - noise_amplitude + 2.0 * noise_amplitude * (double)(rng >> 8) / (double)(1u << 24);
}

static int print_views = 0;
static int seeds = 1, first_seed = 0;
static const char *first_names = NULL; /* --first */
static int many_waves = -1; /* --many-waves; -1: the file's (its rays and SMs) */

static int relative = 1; /* candidates measured against the best at the frame before, as AUTO does */
static int max_orbits = 20;
typedef struct outcome {
  int tuning_frames, within5, orbits;
  double share, spent, mean, worst;
  double over_oracle; /* the first orbit over the per-frame oracle's, minus one */
} outcome;

/* The candidates named in `names` (comma-separated) moved to right after
 * the block-shape strategy, in that order; the rest keep theirs. */
static void reorder(cvr_tuning_class *c, const char *names) {
  int named[CVR_TUNING_MAX_CANDIDATES], n_named = 0;
  unsigned char moved[CVR_TUNING_MAX_CANDIDATES] = {0};
  for (const char *p = names; *p;) {
    const size_t n = strchr(p, ',') ? (size_t)(strchr(p, ',') - p) : strlen(p);
    for (int j = 0; j < c->count; ++j)
      if (!moved[j] && strlen(c->names[j]) == n && !strncmp(c->names[j], p, n)) {
        named[n_named++] = j;
        moved[j] = 1;
      }
    p += n + (p[n] == ',');
  }
  int head = 0; /* the candidates up to the block-shape strategy stay first */
  while (head < c->count && c->candidates[head].strategy != CVR_STRATEGY_BLOCK_SHAPE) ++head;
  head = head < c->count ? head + 1 : 0;
  int order[CVR_TUNING_MAX_CANDIDATES], n = 0;
  for (int j = 0; j < head; ++j)
    if (!moved[j]) order[n++] = j;
  for (int f = 0; f < n_named; ++f) order[n++] = named[f];
  for (int j = head; j < c->count; ++j)
    if (!moved[j]) order[n++] = j;
  const cvr_tuning_class was = *c;
  for (int i = 0; i < n; ++i) {
    c->candidates[i] = was.candidates[order[i]];
    memcpy(c->names[i], was.names[order[i]], sizeof c->names[i]);
    c->prior[i] = i;
  }
  c->predicted = 0;
}

static outcome run(const replay *r, int repeats, double prune, double budget_share) {
  static cvr_tuning_class classes[CVR_TUNING_CLASSES];
  for (int k = 0; k < CVR_TUNING_CLASSES; ++k) {
    const cvr_tuning_frames frames = {
        r->shaded, CVR_BLEND_COMPOSITE,
        many_waves >= 0 ? many_waves
                        : cvr_tuning_many_waves(r->rays[0], r->rays[1], r->multiprocessors),
        0};
    cvr_tuning_class_init(&classes[k], CVR_BACKEND_CUDA, k, &frames);
    if (first_names) reorder(&classes[k], first_names);
  }
  cvr_tuning_budget budget;
  memset(&budget, 0, sizeof budget);
  double cold = 0.0, warm = 0.0, cold_spent = 0.0;
  int tuning_frames = 0, last_class = -1, last_was_best = 0, orbits = 0;
  int rendered[360]; /* the last orbit's configuration per frame (class candidate index) */
  double last_cost = 0.0;
  /* orbits until every class of the orbit has converged and one more (at
   * most max_orbits): the first is the cold one, the last the converged one */
  for (int pass = 0; pass < max_orbits; ++pass) {
    double orbit = 0.0;
    int measured = 0;
    for (int a = 0; a < 360; ++a) {
      const int k = r->view_class[a];
      cvr_tuning_class *c = &classes[k];
      cvr_tuning_seed(c, classes, CVR_TUNING_CLASSES, repeats, prune);
      int i = cvr_tuning_next(c, repeats);
      double ms = 0.0;
      while (i >= 0 && !((ms = cost_at(r, c, i, a)) > 0.0)) { /* cannot run here */
        cvr_tuning_record(c, i, 0.0, prune);
        i = cvr_tuning_next(c, repeats);
      }
      const int account = cvr_tuning_account(c, i);
      if (i >= 0 && !cvr_tuning_budget_allows(&budget, account, budget_share)) i = -1;
      /* relative: a candidate only right after a frame of the class's best */
      const int follows = last_class == k && last_was_best;
      double excess = 0.0;
      if (i >= 0 && follows) {
        ms = cost_at(r, c, i, a);
        const double measured_ms = ms * noise();
        if (print_views > 1)
          printf("  orbit %d frame %d class %d: %s %.4f (best %s mean %.4f, reference %.4f)\n",
                 pass, a, k, c->names[i], ms,
                 c->names[c->best], cvr_tuning_mean(c, c->best), last_cost);
        excess = measured_ms - last_cost;
        if (relative) cvr_tuning_record_relative(c, i, measured_ms, last_cost, prune);
        else cvr_tuning_record(c, i, measured_ms, prune);
        ++measured;
        last_was_best = 0;
        rendered[a] = c->best;
      } else {
        const int best = c->best;
        ms = cost_at(r, c, best, a) * noise();
        if (i >= 0 && c->measured[best] == 0) cvr_tuning_record(c, best, ms, prune);
        last_was_best = 1;
        last_cost = ms;
        rendered[a] = best;
      }
      cvr_tuning_budget_frame(&budget, ms, account, excess);
      if (print_views > 3) printf("  F %d %d %d %s %.4f\n", pass, a, k, c->names[rendered[a]], ms);
      last_class = k;
      orbit += ms;
    }
    if (pass == 0) {
      cold = orbit;
      cold_spent = cvr_tuning_budget_spent(&budget);
      tuning_frames = measured;
    }
    warm = orbit;
    if (print_views > 1) printf("  orbit %d: %.2f ms, %d measured\n", pass, orbit, measured);
    /* (an orbit may measure nothing while the budget waits) */
    int tuning = 0;
    for (int a = 0; a < 360 && !tuning; ++a) tuning = cvr_tuning_next(&classes[r->view_class[a]], repeats) >= 0;
    if (!measured && !tuning) break;
    orbits += measured > 0;
  }
  if (print_views > 2)
    for (int k = 0; k < CVR_TUNING_CLASSES; ++k)
      for (int i = 0; i < classes[k].count; ++i)
        if (classes[k].measured[i] || classes[k].dropped[i])
          printf("  class %2d %-32s measured %d mean %.4f%s%s\n", k, classes[k].names[i],
                 classes[k].measured[i], cvr_tuning_mean(&classes[k], i),
                 classes[k].dropped[i] ? " dropped" : "", i == classes[k].best ? " best" : "");
  int within5 = 0;
  double worst = 0.0, sum = 0.0;
  for (int az = 0; az < 360; az += r->step) {
    const cvr_tuning_class *c = &classes[r->view_class[az]];
    double oracle = INFINITY;
    for (int k = 0; k < r->configs; ++k)
      if (r->ms[az][k] > 0.0) oracle = fmin(oracle, r->ms[az][k]);
    const int used = rendered[az];
    const double ratio = cost_at(r, c, used, az) / oracle;
    if (print_views) {
      int o = 0;
      for (int k = 1; k < r->configs; ++k)
        if (r->ms[az][k] > 0.0 && (r->ms[az][o] <= 0.0 || r->ms[az][k] < r->ms[az][o])) o = k;
      printf("  %3d deg class %2d: %-32s over %-32s %.3f\n", az, r->view_class[az],
             c->names[used], r->names[o], ratio);
    }
    within5 += ratio <= 1.05;
    worst = fmax(worst, ratio);
    sum += ratio;
  }
  const outcome o = {tuning_frames, within5, orbits, cold / warm - 1.0, cold_spent / cold,
                     sum / r->views, worst, cold / oracle_orbit(r) - 1.0};
  return o;
}

/* The most views within 5% of the oracle that any choice of one candidate
 * per class reaches (each class's candidate within 5% at the most of its
 * oracle views): what a search that converges per class can do at best. */
static int class_oracle(const replay *r) {
  int total = 0;
  for (int k = 0; k < CVR_TUNING_CLASSES; ++k) {
    int most = 0;
    for (int c = 0; c < r->configs; ++c) {
      int within = 0;
      for (int az = 0; az < 360; az += r->step) {
        if (r->view_class[az] != k) continue;
        double oracle = INFINITY;
        for (int o = 0; o < r->configs; ++o)
          if (r->ms[az][o] > 0.0) oracle = fmin(oracle, r->ms[az][o]);
        within += r->ms[az][c] > 0.0 && r->ms[az][c] <= 1.05 * oracle;
      }
      most = within > most ? within : most;
    }
    total += most;
  }
  return total;
}

int main(int argc, char **argv) {
  int repeats = 6;
  double prune = 1.5, budget = 0.01; /* the settings' defaults */
  int first = 1;
  for (; first < argc && !strncmp(argv[first], "--", 2); first += 2) {
    if (first + 1 >= argc) break;
    if (!strcmp(argv[first], "--repeats")) repeats = atoi(argv[first + 1]);
    else if (!strcmp(argv[first], "--prune")) prune = atof(argv[first + 1]);
    else if (!strcmp(argv[first], "--views")) print_views = atoi(argv[first + 1]);
    else if (!strcmp(argv[first], "--relative")) relative = atoi(argv[first + 1]);
    else if (!strcmp(argv[first], "--seeds")) seeds = atoi(argv[first + 1]);
    else if (!strcmp(argv[first], "--first-seed")) first_seed = atoi(argv[first + 1]);
    else if (!strcmp(argv[first], "--budget")) budget = atof(argv[first + 1]);
    else if (!strcmp(argv[first], "--orbits")) max_orbits = atoi(argv[first + 1]);
    else if (!strcmp(argv[first], "--noise")) noise_amplitude = atof(argv[first + 1]);
    else if (!strcmp(argv[first], "--first")) first_names = argv[first + 1];
    else if (!strcmp(argv[first], "--many-waves")) many_waves = atoi(argv[first + 1]);
    else break;
  }
  if (first >= argc || repeats < 1 || !(prune > 1.0) || seeds < 1 || !(budget > 0.0) ||
      max_orbits < 2 || many_waves > 1) {
    fprintf(stderr, "usage: cvr-auto-replay [--repeats N] [--prune X] [--budget SHARE] "
                    "[--orbits N] [--noise X] [--relative 0|1] [--seeds N] [--first-seed N] [--first NAMES] "
                    "[--many-waves 0|1] [--views 0..4] "
                    "FILE.jsonl...\n");
    return 2;
  }
  static replay r;
  int rc = 0;
  for (int a = first; a < argc; ++a) {
    if (!load(argv[a], &r)) {
      rc = 1;
      continue;
    }
    if (many_waves < 0 && !r.multiprocessors)
      fprintf(stderr, "cvr-auto-replay: %s: no SM count in its meta line: the order of few "
                      "waves (--many-waves 1 for the other)\n", argv[a]);
    /* over `seeds` noise sequences: one replay's choices hang on a few
     * measurements, so a change is judged on the mean and the worst */
    outcome sum = {0, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.0};
    int fewest = r.views;
    double worst = 0.0;
    for (int seed = 0; seed < seeds; ++seed) {
      rng = 12345u + 7919u * (unsigned)(first_seed + seed);
      const outcome o = run(&r, repeats, prune, budget);
      sum.tuning_frames += o.tuning_frames;
      sum.within5 += o.within5;
      sum.orbits += o.orbits;
      sum.share += o.share;
      sum.spent += o.spent;
      sum.mean += o.mean;
      sum.over_oracle += o.over_oracle;
      worst = fmax(worst, o.worst);
      fewest = o.within5 < fewest ? o.within5 : fewest;
    }
    printf("%-40.40s%s  frames %5.1f  share %5.2f%% (measuring %4.2f%%)  over the oracle "
           "%5.2f%%  orbits %4.1f  "
           "mean %.3f worst %.3f  within 5%% %4.1f/%d (fewest %d; one per class at best %d)\n",
           r.volume, r.shaded ? " shaded" : "", (double)sum.tuning_frames / seeds,
           100.0 * sum.share / seeds, 100.0 * sum.spent / seeds,
           100.0 * sum.over_oracle / seeds, (double)sum.orbits / seeds,
           sum.mean / seeds, worst, (double)sum.within5 / seeds, r.views, fewest, class_oracle(&r));
  }
  return rc;
}
