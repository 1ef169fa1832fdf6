// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The auto-tuner's model, free of rendering so that tests can drive it with
 * a synthetic cost: candidate configurations per view class, the measured
 * search over them, and the tables that remember the result.
 *
 * A class's costs are in the unit of its first record, nanoseconds per
 * volume sample of its first best frame; later ones are kernel-time ratios to
 * the best at a neighbouring view, scaled to that unit
 * (cvr_tuning_record_relative): frames of one class see different views, and
 * strategies count samples differently. */
#ifndef CVR_TUNER_H
#define CVR_TUNER_H

#include "cvr_internal.h"

#define CVR_TUNING_MAX_CANDIDATES 16
/* Candidates measured within this factor of the best are measured again
 * (frames of a class see different views: one measurement may mislead);
 * the rest are measured once. */
#define CVR_TUNING_CONTENDER 1.10
/* Near ties are measured again first: once a class has measured its first
 * CVR_TUNING_CORE candidates, those within CVR_TUNING_NEAR of its best are
 * measured up to CVR_TUNING_NEAR_REPEATS times (fewer than `repeats`) before
 * any further candidate, from the further candidates' account: a frame's
 * time varies about as much as a class's first candidates differ, so one
 * measurement each may keep the wrong one (doc/tuning.md, near ties). */
#define CVR_TUNING_NEAR 1.05
#define CVR_TUNING_NEAR_REPEATS 3
/* A candidate whose first measurement is more than CVR_TUNING_CONTENDER
 * faster than the best is measured once more before it counts, and counts
 * as the slower of the two; one faster by less is measured once more too,
 * and both count. Records are ratios to the best at the time, so one lucky
 * ratio would rescale every later measurement (doc/tuning.md, first wins). */
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
  int ray_segments;            /* standard: threads a ray */
} cvr_candidate;

typedef struct cvr_tuning_class {
  int view_class;
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
  int seeded; /* 0 no, 1 by other axes, 2 by its own */
  /* candidates[0] is the papers' prediction for this class's views, which
   * other classes say nothing of: rendered and measured first whatever
   * they found (cvr_tuning_seed); not kept in files (set by init) */
  int predicted;
  /* a first measurement waiting for its confirmation (0: none), and whether
   * the slower of the two counts (a big win) or both; not kept in files */
  double pending[CVR_TUNING_MAX_CANDIDATES];
  unsigned char pending_slower[CVR_TUNING_MAX_CANDIDATES];
} cvr_tuning_class;

/* What measuring costs, bounded: a frame may measure a candidate only while
 * the time measurements have cost so far (each measured frame's kernel time
 * over the estimate of its class's best there) is within `share` of the
 * kernel time of every frame of the table, plus an allowance of
 * CVR_TUNING_BUDGET_ALLOWANCE mean frames to start with (share: the
 * settings' tuning_budget). A search that would cost more waits for frames
 * to pay for it: it converges later, never at a larger share of the time.
 * Two accounts of half the share each: a class's first CVR_TUNING_CORE
 * candidates and its contenders' repeats (what the papers and the other
 * classes expect to win), and its further candidates (mostly losers, some
 * 2-4x slower) with the cells' measurements: a long sweep in one class does
 * not hold up the first measurements of the next. share >= 1: no bound.
 * A table's first CVR_TUNING_BUDGET_EARLY_FRAMES frames (an orbit at a
 * frame per degree) measure at half the share: first orbits cost less, and
 * tables end as good (doc/tuning.md, the budget's first frames). */
#define CVR_TUNING_BUDGET_ALLOWANCE 1.0
#define CVR_TUNING_BUDGET_EARLY_FRAMES 360
#define CVR_TUNING_CORE 3
typedef struct cvr_tuning_budget {
  double frames_ms; /* kernel time of every frame */
  long long frames;
  double spent_ms[2]; /* core, further: measured frames' time over their best's estimate */
  double cells_ms;    /* the cells' measurements, net (CVR_TUNING_CELL_CREDIT) */
} cvr_tuning_budget;

/* Cells: within a converged class the fastest candidate still moves from
 * view to view by more than 5%. A cell is the views of one class whose
 * direction, in the class's own axes (the lean toward its plane's two axes,
 * and which way along the normal), falls in one CVR_TUNING_CELL_DEGREES
 * square; it measures the class's finalists again at its own views, each
 * against the class's best at the frame before, up to `repeats` times (one
 * that measures CVR_TUNING_CELL_LEAVE slower at once, CVR_TUNING_CELL_DROP
 * slower after two, or not faster than the best after three, is left), and
 * renders the fastest. The finalists: up to CVR_TUNING_FINALISTS candidates
 * beside the best whose class mean is within CVR_TUNING_FINALIST of it (a
 * class's means mix views where a candidate is fast with views where it is
 * slow). A table keeps CVR_TUNING_CELLS cells, the least recently used
 * giving way (doc/tuning.md, cells). */
#ifndef CVR_TUNING_CELL_DEGREES /* (a build may try others: a divisor of 90) */
#define CVR_TUNING_CELL_DEGREES 10
#endif
/* A cell is also one CVR_TUNING_ROLL_DEGREES band of the image's roll about
 * the view direction (cvr_tuning_view_roll): turning the image about the
 * rays changes which rays miss the volume and how a block's rays lie across
 * the stored rows, but not the direction (doc/tuning.md, roll). */
#define CVR_TUNING_ROLL_DEGREES 15
#define CVR_TUNING_ROLL_BINS (45 / CVR_TUNING_ROLL_DEGREES)
#define CVR_TUNING_CELL_BINS                                                                    \
  (2 * (180 / CVR_TUNING_CELL_DEGREES) * (180 / CVR_TUNING_CELL_DEGREES) * CVR_TUNING_ROLL_BINS)
#define CVR_TUNING_CELLS 256
#define CVR_TUNING_FINALISTS 8
#define CVR_TUNING_FINALIST 1.3
#define CVR_TUNING_CELL_LEAVE 1.10
#define CVR_TUNING_CELL_DROP 1.05
/* A cell's measurements are charged to the budget net: its finalists are
 * within a few percent of the class's best, about as much as a frame's time
 * varies, so a frame faster than its reference is credited, at most
 * CVR_TUNING_CELL_CREDIT of it (a wild fast frame is no saving;
 * doc/tuning.md, the cells' account). */
#define CVR_TUNING_CELL_CREDIT 0.10
/* They count against the further candidates' half of the share, a class's
 * own repeats coming first (on the core half, eight finalists a cell, an
 * axis-aligned class of the micro-benchmark settled with its best measured
 * once, 1.07x the oracle at two views), and only what they cost net: a
 * credit of theirs pays for cells only (spent on further candidates, it
 * paid for two 4x slower warp-marching frames in one first orbit of the
 * cranium, 2.6% of it measuring). */
#define CVR_TUNING_CELL_ACCOUNT 1
typedef struct cvr_tuning_cell {
  int used;
  int view_class, bin;
  unsigned char measured[CVR_TUNING_MAX_CANDIDATES];
  float ratio_sum[CVR_TUNING_MAX_CANDIDATES]; /* kernel time over the class best's before */
  unsigned long long last_used;
} cvr_tuning_cell;

/* In-place rotation (Misaki et al.) is the table's (turning pads the
 * volume, and a volume padded or not is rebuilt in between) and measured,
 * not predicted: whether a turn pays depends on the strategy and the
 * volume's shape. A trial turns the volume at a view at least
 * CVR_TUNING_ROTATION_LEAN degrees toward stored x (at the border the two
 * orders cost about the same), once the view's class has converged,
 * renders that frame twice and measures the second against the class's best
 * unturned at the frame before (right after a turn a volume that fits the
 * L2 renders fast); a slower turn is turned back where that pays (auto.c).
 * After CVR_TUNING_ROTATION_TRIALS trials (fewer if they were not faster:
 * two, neither; three, by their median) rotation is on if the median turned
 * frame was CVR_TUNING_ROTATION_GAIN faster: a trial's ratio varies by
 * about 4%. While on, at each turn the time turns took before it is weighed
 * against what the gain saved on the frames that looked as far toward x as
 * trials do; once they cost more, after CVR_TUNING_ROTATION_WATCH frames,
 * rotation is off (doc/tuning.md, rotation trials). */
#define CVR_TUNING_ROTATION_LEAN 60.0
#define CVR_TUNING_ROTATION_TRIALS 7
#define CVR_TUNING_ROTATION_GAIN 0.04
#define CVR_TUNING_ROTATION_WATCH 180
typedef struct cvr_tuning_rotation {
  int decision; /* 0 not decided, 1 on (the view kept favourable), -1 off */
  double gain;  /* once decided: 1 - the turned frames' typical ratio */
  /* the trials (not kept in files) */
  int trials;
  double ratios[CVR_TUNING_ROTATION_TRIALS]; /* turned frame's kernel time over the reference's */
  /* while on (not kept in files): frames, what the gain saved on them, and
   * what turns took */
  long long frames;
  double saved_ms, turns_ms;
} cvr_tuning_rotation;

/* Warp marching's turn (cvr_rotation_turn's along_rays) in AUTO: stored x
 * toward the rays, which makes the views where rays run along another
 * stored axis (rays along z, the image rolled) Wang et al.'s favourable
 * ones for warp marching and the unfavourable ones for one thread a ray. A
 * table's classes and its std-rule rotation stay as they are; this decides,
 * per view class and roll band in the volume's own voxel order, whether
 * frames there turn the copy toward the rays and render the turned view's
 * class (in the copy's order, measured like any other). A trial (auto.c)
 * turns the copy at such a view, once the turned view's class has converged
 * elsewhere, renders twice and measures the second frame against the
 * unturned best at the frame before. Decided as rotation trials are, over
 * at most CVR_TUNING_TOWARD_TRIALS trials: toward when the turned frames
 * were CVR_TUNING_ROTATION_GAIN faster (cvr_tune_now decides from one
 * measured view). Turning in and out costs what a rotation's turns cost:
 * a watch as rotation's (cvr_tuning_toward_watch) weighs the turns against
 * what the turned frames saved, and ends every turn toward the rays of the
 * table once they cost more. */
#define CVR_TUNING_TOWARD_TRIALS 3
typedef struct cvr_tuning_toward {
  signed char decision; /* 0 not decided, 1 turn toward the rays, -1 not */
  unsigned char trials;  /* (not kept in files) */
  float ratios[CVR_TUNING_TOWARD_TRIALS]; /* turned frame's kernel time over the reference's */
  float ratio; /* once decided: the turned frames' typical ratio (kept in files: 1 - gain) */
} cvr_tuning_toward;
typedef struct cvr_tuning_toward_account {
  long long frames;
  double saved_ms, turns_ms;
} cvr_tuning_toward_account;

typedef struct cvr_tuning_table {
  char key[256];
  cvr_memory_layout layout; /* the table's: only cvr_tune_now changes it */
  int layout_tuned;
  cvr_tuning_rotation rotation;
  /* by view class and roll band in the volume's own voxel order */
  cvr_tuning_toward toward[CVR_TUNING_CLASSES][CVR_TUNING_ROLL_BINS];
  cvr_tuning_toward_account toward_watch; /* (not kept in files) */
  /* the device copy's voxel order the table last rendered in, as
   * cvr_render_stats.volume_axes (zeros: none yet): the order its classes
   * and cells measured in, which a copy it renders is turned to first (a
   * rotation trial leaves the copy turned, and a new copy starts in the
   * volume's own order) */
  int order[3];
  int many_waves; /* from the key (cvr_tuning_many_waves): the classes' candidate order */
  cvr_tuning_class classes[CVR_TUNING_CLASSES];
  cvr_tuning_budget budget; /* not kept in files: a run pays for its own search */
  cvr_tuning_cell cells[CVR_TUNING_CELLS];
  unsigned long long cell_clock;
  unsigned long long last_used;
} cvr_tuning_table;

/* Whether order is none (zeros) or a voxel order quarter turns reach: each
 * of the axes 1, 2, 3 once, signed, and no mirror image. */
CVR_INTERNAL int cvr_tuning_order_valid(const int order[3]);

/* The view class of ray parameters (in the volume's own index space):
 * 8 per axis the view looks along most, 4 per orientation of the stride
 * axis on screen, then the lean: square, oblique toward the stride axis,
 * oblique toward the other axis of the plane, or aligned with the axis. */
#define CVR_TUNING_CLASS_AXIS(k) ((k) / 8)
#define CVR_TUNING_CLASS_ACROSS(k) ((k) / 4 % 2)
#define CVR_TUNING_CLASS_LEAN(k) ((k) % 4)
#define CVR_TUNING_LEAN_SQUARE 0
#define CVR_TUNING_LEAN_ALIGNED 3
CVR_INTERNAL int cvr_tuning_view_class(const cvr_ray_params *p);
/* The image's roll band (0 .. CVR_TUNING_ROLL_BINS - 1): how far, in
 * CVR_TUNING_ROLL_DEGREES steps, the stride axis runs on screen from the
 * screen axis the view class puts it along (0 .. 45 degrees). */
CVR_INTERNAL int cvr_tuning_view_roll(const cvr_ray_params *p);
/* The same from the block-shape choice (plane normal axis, horizontal) and
 * the view direction d in index space. */
CVR_INTERNAL int cvr_tuning_view_class_of(int normal_axis, int horizontal, const float d[3]);
CVR_INTERNAL void cvr_tuning_view_class_name(int view_class, char *out, size_t size);

/* Whether an image of width x height rays fills a GPU of `multiprocessors`
 * SMs many times over: at least CVR_TUNING_MANY_WAVES_RAYS rays an SM (four
 * times the 1024 threads an SM holds of the standard kernel's 256-thread
 * blocks at 64 registers a thread). The blocks that win differ on either
 * side of it: with few waves a frame's time is how the few blocks with the
 * longest rays fall on the SMs, and tall blocks win; with many, square ones
 * (doc/tuning.md, waves). The table key holds the image size class and the
 * GPU model, so a table's candidate order follows from its key. */
#define CVR_TUNING_MANY_WAVES_RAYS 4096
CVR_INTERNAL int cvr_tuning_many_waves(int width, int height, int multiprocessors);

/* What a table's frames ask for that decides which candidates can render
 * them and in which order. */
typedef struct cvr_tuning_frames {
  int shaded;
  cvr_blend_mode blend; /* the strategies that composite only are no candidates for the others */
  int many_waves;       /* the image fills the GPU many times over (cvr_tuning_many_waves):
                           the blocks that win there come first, 3D warps after them */
  int jittered;         /* rays start at their pixel's jitter: no slab (its rays share one
                           lattice) */
} cvr_tuning_frames;

/* Fills a class with the candidates of a backend for that class, in the
 * order they are measured (the papers' prediction first, so it is the
 * configuration used until something measures faster). */
CVR_INTERNAL void cvr_tuning_class_init(cvr_tuning_class *c, cvr_backend backend, int view_class,
                                        const cvr_tuning_frames *frames);

CVR_INTERNAL void cvr_candidate_apply(const cvr_candidate *c, cvr_render_settings *s);
CVR_INTERNAL void cvr_candidate_name(const cvr_candidate *c, char *out, size_t size);

/* Once other classes of the table have measured enough (their best as
 * often as contenders are, and SEED_KEEP candidates; aligned classes and
 * the others only among themselves) and one of them looks along the same
 * axis: what they measured (candidates matched by name) orders this
 * class's candidates not measured yet, and those that were on average
 * SEED_PRUNE (or prune, if lower) times slower than the best there are
 * dropped unmeasured, worst first, while more than SEED_KEEP of those
 * measured somewhere stand (one measured nowhere is tried early, right
 * after the best elsewhere; the block-shape candidate is always measured).
 * Views of neighbouring classes favour mostly the same configurations, so
 * a class visited later in an orbit tunes in a few frames, and a class
 * left half measured (its kernels were loading) skips what the others
 * found slow. Until a class along the same axis has measured enough,
 * those along the others order the candidates and drop only what was
 * prune times slower there (what the prune would drop after one
 * measurement); the class is seeded again once one along its own axis
 * has. Before any of that, a class with nothing measured renders first
 * what is best so far in classes with SEED_KEEP measured. Along another
 * axis rays walk memory differently, so classes along other axes only
 * order the candidates, and a candidate dropped unmeasured tells nothing
 * (doc/tuning.md, seeding). */
#define CVR_TUNING_SEED_KEEP 3
#define CVR_TUNING_SEED_PRUNE 1.2
CVR_INTERNAL void cvr_tuning_seed(cvr_tuning_class *c, const cvr_tuning_class *classes, int count,
                             int repeats, double prune);
/* The candidate to measure in this frame, or -1 when the class has converged:
 * a first measurement to confirm, each candidate once (lowest prior first;
 * once the first CVR_TUNING_CORE are, near ties again first), then
 * contenders up to `repeats` times. */
CVR_INTERNAL int cvr_tuning_next(const cvr_tuning_class *c, int repeats);
/* The same among the candidates that are not waiting (waiting[i] != 0: not
 * measurable yet, its kernel still loading); -1 also when every candidate
 * left to measure waits. waiting may be NULL. */
CVR_INTERNAL int cvr_tuning_next_ready(const cvr_tuning_class *c, int repeats,
                                  const unsigned char *waiting);
/* Adds one measurement (cost <= 0 or not finite: the candidate failed, drop
 * it), updates best and drops what the prune factor rules out; a first
 * one faster than the best waits for a second (more than
 * CVR_TUNING_CONTENDER faster: the slower of the two counts, else both). */
CVR_INTERNAL void cvr_tuning_record(cvr_tuning_class *c, int candidate, double cost, double prune);
/* The same for a measurement taken right after the class's best rendered a
 * neighbouring view at cost `reference`: recorded as cost x (the best's
 * mean / reference), so every record of the class is a ratio to the first
 * one's cost, chained through the bests measured against. Views of one
 * class differ in cost (samples per ray, the texture's hit rate) by more
 * than candidates often do; a ratio between neighbouring views hardly moves
 * with them, so candidates measured at different views compare fairly. The
 * frames of the best themselves are not recorded, but the class's first
 * (nothing measured yet: reference <= 0 or not, a plain record). */
CVR_INTERNAL void cvr_tuning_record_relative(cvr_tuning_class *c, int candidate, double cost,
                                        double reference, double prune);
/* A frame of the class's best is the next frame's reference only when it
 * is steady: within CVR_TUNING_STEADY of the best's time at a frame at most
 * CVR_TUNING_STEADY_FRAMES before it (a frame of another candidate of known
 * ratio to the best counts as that ratio says). Now and then a frame runs
 * far slower than its neighbours, and a candidate measured against it would
 * look that much faster (doc/tuning.md, steady references). A view that
 * moves faster than that from frame to frame is measured once it slows. */
#define CVR_TUNING_STEADY 1.15
#define CVR_TUNING_STEADY_FRAMES 2
/* previous_ms: the best's time at a frame `frames_before` frames earlier
 * (<= 0: none); ms: this frame's. */
CVR_INTERNAL int cvr_tuning_steady(double previous_ms, long long frames_before, double ms);
/* best from the measurements as they are (after a load). */
CVR_INTERNAL void cvr_tuning_update_best(cvr_tuning_class *c);
CVR_INTERNAL double cvr_tuning_mean(const cvr_tuning_class *c, int candidate);

/* The account candidate i of class c is measured from: 1 for a first
 * measurement once the class has measured CVR_TUNING_CORE, and for a near
 * tie's repeat while further candidates wait (it takes their turn), else 0. */
CVR_INTERNAL int cvr_tuning_account(const cvr_tuning_class *c, int i);
CVR_INTERNAL int cvr_tuning_budget_allows(const cvr_tuning_budget *b, int account, double share);
/* A frame took ms; of it, excess_ms is what measuring from `account` cost
 * (0 for a frame that rendered the best). */
CVR_INTERNAL void cvr_tuning_budget_frame(cvr_tuning_budget *b, double ms, int account,
                                     double excess_ms);
CVR_INTERNAL double cvr_tuning_budget_spent(const cvr_tuning_budget *b);

/* The cell of view direction d (index space, as the class) and roll band
 * roll (cvr_tuning_view_roll) in class k. */
CVR_INTERNAL int cvr_tuning_cell_bin(int view_class, const float d[3], int roll);
/* Class k's cell `bin` in table t; create: make it (a free one, or the
 * least recently used emptied) if there is none; NULL if none and not
 * create. */
CVR_INTERNAL cvr_tuning_cell *cvr_tuning_cell_for(cvr_tuning_table *t, int view_class, int bin,
                                             int create);
/* Empties the cells of class k (its measurements were taken again). */
CVR_INTERNAL void cvr_tuning_cells_clear(cvr_tuning_table *t, int view_class);
/* The finalists of a converged class, by class mean; returns their count. */
CVR_INTERNAL int cvr_tuning_finalists(const cvr_tuning_class *c, int out[CVR_TUNING_FINALISTS]);
/* The finalist the cell measures next, or -1 when it has decided (cell may
 * be NULL: one with nothing measured). */
CVR_INTERNAL int cvr_tuning_cell_next(const cvr_tuning_cell *cell, const cvr_tuning_class *c,
                                 int repeats);
/* What the cell renders: the finalist of least mean ratio below 1 among
 * those measured at least twice (or `repeats` times, if fewer), else the
 * class's best. cell may be NULL. */
CVR_INTERNAL int cvr_tuning_cell_choice(const cvr_tuning_cell *cell, const cvr_tuning_class *c,
                                   int repeats);
/* A view among its class's cells. Its own cell measures; what it renders
 * weighs the own cell's means with those of the neighbouring cells of the
 * class toward which the view lies off its cell's centre, bilinearly in the
 * two leans: a cell's means are over its views, CVR_TUNING_CELL_DEGREES
 * wide, and at an edge they are centred half a cell away from the view. A
 * view at an edge weighs both cells alike, one at the centre its own alone
 * (doc/tuning.md, a view among its cells). */
typedef struct cvr_tuning_view_cells {
  cvr_tuning_cell *own;             /* NULL: none (then count is 0) */
  const cvr_tuning_cell *cells[4]; /* own first, then the neighbours there are */
  double weights[4];
  int count;
} cvr_tuning_view_cells;
/* The cells around view direction d (index space, as the class) in class
 * k, of roll band roll (the neighbours are those of the same band); create:
 * make the own cell if there is none (cvr_tuning_cell_for). */
CVR_INTERNAL void cvr_tuning_cells_at(cvr_tuning_table *t, int view_class, const float d[3], int roll,
                                 int create, cvr_tuning_view_cells *out);
/* What the view renders: as cvr_tuning_cell_choice, each finalist's mean
 * the weighted mean over the view's cells that measured it as often (the
 * own cell must have). v may be NULL: the class's best. */
CVR_INTERNAL int cvr_tuning_view_choice(const cvr_tuning_view_cells *v, const cvr_tuning_class *c,
                                   int repeats);
/* Candidate i's ratio to the class's best at the view, the same way (1 for
 * the best; infinite unless the own cell measured it). */
CVR_INTERNAL double cvr_tuning_view_ratio(const cvr_tuning_view_cells *v, const cvr_tuning_class *c,
                                     int i);
/* A cell's measured frame in the budget: its kernel time ms against its
 * reference's, net (CVR_TUNING_CELL_CREDIT). */
CVR_INTERNAL void cvr_tuning_budget_cell_frame(cvr_tuning_budget *b, double ms, double reference_ms);
/* One measurement of candidate i in the cell: its kernel time over the
 * class best's at the frame before. */
CVR_INTERNAL void cvr_tuning_cell_record(cvr_tuning_cell *cell, int i, double ratio);

/* Whether a view (direction d in the device copy's index space) is a
 * rotation trial's: a turn takes it twice CVR_TUNING_ROTATION_LEAN - 45
 * degrees less toward stored x (the paper's orbit: CVR_TUNING_ROTATION_LEAN
 * degrees toward x); partners and fallback as cvr_rotation_turn's. */
CVR_INTERNAL int cvr_tuning_rotation_trial_view(const float d[3], int partners, int fallback);
/* One trial: the turned frame's kernel time over the reference's. Decides
 * once the trials are enough; returns 1 when it decided. */
CVR_INTERNAL int cvr_tuning_rotation_record(cvr_tuning_rotation *r, double ratio);
/* Decides from a turned frame's typical ratio to the unturned (the trials'
 * median, or cvr_tune_now's measurement): on if it is
 * CVR_TUNING_ROTATION_GAIN faster. */
CVR_INTERNAL void cvr_tuning_rotation_decide(cvr_tuning_rotation *r, double ratio);
/* While on, one frame: its kernel time, whether it is a trial view in the
 * volume's own order (turning saves there), and what a turn made
 * before it took beyond the frame (0: none). Returns 1 when it turned
 * rotation off (at a turn). */
CVR_INTERNAL int cvr_tuning_rotation_watch(cvr_tuning_rotation *r, double frame_ms, int favoured,
                                      double turn_ms);

/* One trial of warp marching's turn: the turned frame's kernel time over
 * the reference's. Returns 1 when it decided: two trials that agree (both
 * CVR_TUNING_ROTATION_GAIN faster, or neither faster), else three by their
 * median. */
CVR_INTERNAL int cvr_tuning_toward_record(cvr_tuning_toward *w, double ratio);
/* One frame of a table with a view turned toward the rays: its kernel
 * time, its slot's ratio if it rendered turned (0: it did not), and what a
 * turn into or out of the turned order took before it (0: none). Returns 1
 * when, CVR_TUNING_ROTATION_WATCH frames on, the turns before this one
 * cost more than the turned frames saved: the table's turns end. */
CVR_INTERNAL int cvr_tuning_toward_watch(cvr_tuning_toward_account *w, double frame_ms, double ratio,
                                    double turn_ms);

/* Cache files (tuning_cache.c). The table's file name under dir. */
CVR_INTERNAL void cvr_tuning_file_name(const char *dir, const char *key, char *out, size_t size);
/* Writes the table (atomically: a temporary file renamed over the old). */
CVR_INTERNAL int cvr_tuning_save(const cvr_tuning_table *t, const char *dir, char *warning,
                            size_t size);
/* Loads what the file holds into t (whose key and classes' candidates are
 * set): 1 when something was taken. A corrupt, stale or foreign file is
 * ignored (0) with a warning; a missing file is not a problem (0, ""). */
CVR_INTERNAL int cvr_tuning_load(cvr_tuning_table *t, const char *dir, char *warning, size_t size);

#endif
