/* The auto-tuner's model, free of rendering so that tests can drive it with
 * a synthetic cost: candidate configurations per view class, the measured
 * search over them, and the tables that remember the result.
 *
 * Costs are nanoseconds per volume sample (frame time / samples taken):
 * frames of one class see different views, and the sample count carries most
 * of the difference between them. */
#ifndef CVR_TUNER_H
#define CVR_TUNER_H

#include "cvr_internal.h"

#define CVR_TUNING_MAX_CANDIDATES 16
/* Candidates measured within this factor of the best are measured again
 * (frames of a class see different views: one measurement may mislead);
 * the rest are measured once. */
#define CVR_TUNING_CONTENDER 1.10
#define CVR_TUNING_NAME_SIZE 48

/* The tuned fields of the settings; the rest stay the caller's. */
typedef struct cvr_candidate {
  cvr_strategy strategy;
  int block[2];   /* standard: block; warp marching: block_warps; slab: slab_block */
  int warp_width; /* warp marching */
  int slab_depth; /* slab */
  int cpu_tile[2];
  cvr_cpu_schedule cpu_schedule;
  cvr_slab_border slab_border; /* slab */
} cvr_candidate;

typedef struct cvr_tuning_class {
  int count;
  cvr_candidate candidates[CVR_TUNING_MAX_CANDIDATES];
  char names[CVR_TUNING_MAX_CANDIDATES][CVR_TUNING_NAME_SIZE];
  int measured[CVR_TUNING_MAX_CANDIDATES];
  double cost_sum[CVR_TUNING_MAX_CANDIDATES];
  unsigned char dropped[CVR_TUNING_MAX_CANDIDATES];
  int best; /* lowest mean cost among the measured and not dropped; before
             * any measurement, the lowest prior */
  /* expected cost relative to the best, from the classes already tuned
   * (list order until then); not kept in files */
  double prior[CVR_TUNING_MAX_CANDIDATES];
  int seeded;
} cvr_tuning_class;

typedef struct cvr_tuning_table {
  char key[256];
  cvr_memory_layout layout; /* the table's: only cvr_tune_now changes it */
  int layout_tuned;
  /* in-place rotation, the table's too (turning pads the volume, and a
   * volume padded or not is rebuilt in between): 0 not tried, 1 on (the view
   * is kept favourable, Misaki's policy), -1 measured slower */
  int rotation;
  cvr_tuning_class classes[CVR_TUNING_CLASSES];
  unsigned long long last_used;
} cvr_tuning_table;

/* The view class of ray parameters (in the volume's own index space). */
CVR_API int cvr_tuning_view_class(const cvr_ray_params *p);
CVR_API void cvr_tuning_view_class_name(int view_class, char *out, size_t size);

/* Fills a class with the candidates of a backend for that class, in the
 * order they are measured (the papers' prediction first, so it is the
 * configuration used until something measures faster). blend: the frames'
 * blend mode (the strategies that composite only are no candidates for the
 * others). */
CVR_API void cvr_tuning_class_init(cvr_tuning_class *c, cvr_backend backend, int view_class,
                                   int shaded, cvr_blend_mode blend);

CVR_API void cvr_candidate_apply(const cvr_candidate *c, cvr_render_settings *s);
CVR_API void cvr_candidate_name(const cvr_candidate *c, char *out, size_t size);

/* Before a class's first measurement: what the table's converged classes
 * measured (candidates matched by name) orders its candidates, and those that were on
 * average prune times slower than the best there (or dropped) are dropped
 * unmeasured, keeping at least CVR_TUNING_SEED_KEEP. Views of neighbouring
 * classes favour mostly the same configurations, so a class visited later
 * in an orbit tunes in a few frames. Nothing happens without a converged
 * class, or once the class was measured. */
#define CVR_TUNING_SEED_KEEP 4
CVR_API void cvr_tuning_seed(cvr_tuning_class *c, const cvr_tuning_class *classes, int count,
                             int repeats, double prune);
/* The candidate to measure in this frame, or -1 when the class has converged:
 * each candidate once (lowest prior first), then contenders up to `repeats`
 * times. */
CVR_API int cvr_tuning_next(const cvr_tuning_class *c, int repeats);
/* The same among the candidates that are not waiting (waiting[i] != 0: not
 * measurable yet, its kernel still loading); -1 also when every candidate
 * left to measure waits. waiting may be NULL. */
CVR_API int cvr_tuning_next_ready(const cvr_tuning_class *c, int repeats,
                                  const unsigned char *waiting);
/* Adds one measurement (cost <= 0 or not finite: the candidate failed, drop
 * it), updates best and drops what the prune factor rules out. */
CVR_API void cvr_tuning_record(cvr_tuning_class *c, int candidate, double cost, double prune);
/* best from the measurements as they are (after a load). */
CVR_API void cvr_tuning_update_best(cvr_tuning_class *c);
CVR_API double cvr_tuning_mean(const cvr_tuning_class *c, int candidate);

/* Cache files (tuning_cache.c). The table's file name under dir. */
CVR_API void cvr_tuning_file_name(const char *dir, const char *key, char *out, size_t size);
/* Writes the table (atomically: a temporary file renamed over the old). */
CVR_API int cvr_tuning_save(const cvr_tuning_table *t, const char *dir, char *warning,
                            size_t size);
/* Loads what the file holds into t (whose key and classes' candidates are
 * set): 1 when something was taken. A corrupt, stale or foreign file is
 * ignored (0) with a warning; a missing file is not a problem (0, ""). */
CVR_API int cvr_tuning_load(cvr_tuning_table *t, const char *dir, char *warning, size_t size);

#endif
