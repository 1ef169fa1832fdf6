// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* Internal types shared by the host code and the backends. */
#ifndef CVR_INTERNAL_H
#define CVR_INTERNAL_H

#include "cvr.h"
#include "empty_space.h"
#include "raycast.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What tests, fuzzers and tools reach inside the library: exported by
 * libcvr-internal.so only (the public libcvr.so exports cvr.h's functions
 * alone, kernels/CMakeLists.txt). */
#if defined(__GNUC__) && !defined(_WIN32)
#  define CVR_INTERNAL __attribute__((visibility("default")))
#else
#  define CVR_INTERNAL
#endif

#define CVR_MESSAGE_SIZE 512

/* The rotation kernel's tile limits (t x t threads' worth of voxels per
 * plane, k planes); shared memory limits k further per device and type. */
#define CVR_TUNING_MAX_REPEATS 16 /* measurements per candidate (settings) */
#define CVR_MAX_ROTATION_TILE 32
#define CVR_MAX_ROTATION_DEPTH 64

/* Test hooks, never set through the public API. They perturb the CPU
 * renderer so that tests can prove their tolerances would catch such a bug,
 * and choose how it emulates the texture unit's filter weights
 * (CVR_WEIGHTS_* of raycast.h). */
typedef struct cvr_debug_options {
  float lattice_offset; /* in samples; 0 in normal use */
  int reverse_order;    /* composite the samples back first (a bug) */
  int filter_weights;   /* CVR_WEIGHTS_* */
  int normals_as_color; /* every backend: shaded colour = (N + 1) / 2 (gradient tests) */
  int slab_one_sided;   /* slab strategy: ignore the border rays, one-sided
                           differences at tile edges (the grid-pattern bug) */
  int lose_device_at_render; /* CUDA: the n-th cvr_render first loses the
                                device (cvr_debug_lose_device); 0: never. The
                                environment's CVR_DEBUG_LOSE_DEVICE_AT_RENDER
                                sets it on new contexts (for tests through
                                VTK, which cannot reach this struct) */
  int auto_toward; /* AUTO's decisions of warp marching's turn by view
                      (cvr_tuning_toward), measured as ever: 1 all toward,
                      -1 none; 0 in normal use */
} cvr_debug_options;
CVR_INTERNAL void cvr_debug_set(cvr_context *ctx, const cvr_debug_options *options);

/* debug.c, test and benchmark hooks of the device copy. Turns the stored
 * voxels by `turns` quarter turns now (the settings' layout, padding and
 * tile apply; the rotation policy must not be NEVER); ms: kernel time. */
CVR_INTERNAL cvr_status cvr_debug_rotate(cvr_volume *volume, const cvr_render_settings *settings,
                                    int turns, double *ms);
/* The same, turning the copy to voxel order `order` (as
 * cvr_render_stats.volume_axes) by the fewest quarter turns its axes allow
 * (cvr_rotation_path); *turns (may be NULL): how many it made. */
CVR_INTERNAL cvr_status cvr_debug_turn_to(cvr_volume *volume, const cvr_render_settings *settings,
                                     const int order[3], int *turns, double *ms);
/* The voxels in their original order as the volume's stored type (CUDA:
 * read back from wherever layout and rotation put them). */
CVR_INTERNAL cvr_status cvr_debug_read_volume(const cvr_volume *volume, void *out);
/* Whether a bricked CUDA volume's host scalars are pinned (registered with
 * the driver) now; 0 elsewhere. */
CVR_INTERNAL int cvr_debug_host_pinned(const cvr_volume *volume);
/* Free device memory (cudaMemGetInfo); 0 on the CPU backend. */
CVR_INTERNAL size_t cvr_debug_device_free_bytes(cvr_context *ctx);
/* The most threads a block of the standard, warp-marching and slab kernels
 * may have as the settings are checked (bound: their launch bounds), and as
 * the driver says of every instance (driver: loads each of them); zeros on
 * the CPU backend. */
CVR_INTERNAL void cvr_debug_thread_limits(cvr_context *ctx, int bound[3], int driver[3]);
/* Really loses the context's device, as a faulting kernel does: a kernel
 * writes to an invalid address (a sticky CUDA error, which no later call in
 * this process can clear on that device). Returns CVR_ERROR_DEVICE_LOST;
 * CVR_ERROR_UNSUPPORTED on the CPU backend. */
CVR_INTERNAL cvr_status cvr_debug_lose_device(cvr_context *ctx);

/* The failure of a call that needs the device of a lost context (`what`:
 * the call): CVR_ERROR_DEVICE_LOST, the loss's message kept. */
cvr_status cvr_lost_failure(cvr_context *ctx, const char *what);

struct cvr_context {
  cvr_backend backend;
  int device_index;
  int cpu_threads;
  int multiprocessors; /* the CUDA device's SMs; 0 on the CPU backend */
  size_t l2_bytes;     /* the CUDA device's L2 cache; 0 on the CPU backend */
  char description[2 * CVR_MESSAGE_SIZE]; /* may quote a last_error */
  char last_error[CVR_MESSAGE_SIZE];
  struct cvr_cuda_context *cuda; /* NULL unless backend == CUDA */
  struct cvr_debug_options debug;
  struct cvr_tuner *tuner;       /* strategy AUTO's tables (auto.c) */
  /* a sticky CUDA error made the device unusable (CVR_ERROR_DEVICE_LOST) */
  int lost;
  char lost_reason[CVR_MESSAGE_SIZE];
  unsigned long long renders; /* cvr_render calls (lose_device_at_render) */
  /* AUTO is rendering (auto.c): in-place rotation then turns by one rule
   * for every candidate, the one its tables' voxel orders follow */
  int auto_rendering;
  /* bricked volumes (cvr_context_options, bricks.h) */
  size_t memory_budget;
  int brick_shift;
};

struct cvr_volume {
  cvr_context *ctx;
  cvr_scalar_type type;        /* as given by the caller */
  cvr_scalar_type stored_type; /* as kept: 8/16-bit ints, or float32 */
  int dims[3];
  int components;              /* values per voxel, interleaved (cvr_volume_desc) */
  int cell_data;
  double spacing[3], origin[3], direction[9];
  double range[2];             /* over every component */
  double component_range[CVR_MAX_COMPONENTS][2]; /* each component's (several components) */
  /* stored_type scalars in host memory (the CPU backend's, a bricked
   * volume's): the volume's own, or the caller's where it lends them
   * (cvr_volume_desc.borrow_data; then host_borrowed) */
  void *host_data;
  int host_borrowed;
  cvr_skip_grid cpu_skip;      /* empty-space skipping over host_data */
  struct cvr_cuda_volume *cuda;
  /* the mask (cvr_volume_set_mask), in the volume's index order: host
   * memory for the CPU backend, device memory for CUDA; NULL: none */
  unsigned char *mask_host;
  void *mask_device;
  struct cvr_bricks *bricks; /* bricked (bricks.h), or NULL */
};

/* An OpenGL buffer registered with the CUDA backend (gl_interop.c). */
struct cvr_gl_buffer {
  cvr_context *ctx;
  unsigned int gl_buffer;
  void *resource; /* cudaGraphicsResource_t */
};

struct cvr_transfer_function {
  cvr_context *ctx;
  cvr_rgba table[CVR_TRANSFER_FUNCTION_TABLE_SIZE]; /* straight colour, opacity per unit distance */
  int size;
  double range[2];
  double unit_distance;
  float gradient_table[CVR_GRADIENT_OPACITY_TABLE_SIZE]; /* gradient opacity, */
  int gradient_size;            /* 0: none */
  double gradient_max;          /* the magnitude of its last entry */
  cvr_rgba *table_2d;           /* a 2D function (cvr.h), size_2d[0] x [1], or NULL; */
  int size_2d[2];               /* table then holds its columns' most opaque entries */
  double gradient_max_2d;       /* the magnitude of its top edge */
  cvr_rgba *label_table;        /* label functions (cvr.h): label_count rows of size */
  int label_count;              /* entries (opacity per sample), or NULL; */
  float *label_gradient;        /* their gradient opacity, rows of label_gradient_size */
  int label_gradient_size;      /* entries over [0, gradient_max], or NULL / 0 */
  /* multi-component volumes (cvr.h, cvr_component_mode): this is component
   * 0's function, component[c - 1] component c's (none with transfer_2d_y:
   * component 1 is the 2D function's y axis over range_2d_y) */
  int component_count;          /* 1: one component */
  int component_dependent;
  int transfer_2d_y;
  double range_2d_y[2];
  float component_weight[CVR_MAX_COMPONENTS];
  struct cvr_transfer_function *component[CVR_MAX_COMPONENTS - 1];
  unsigned long long version; /* unique per create/update; keys device copies */
};

/* Per-frame inputs of a backend, validated and converted by frame.c. */
typedef struct cvr_frame {
  const cvr_volume *volume;
  const cvr_transfer_function *tf;
  cvr_ray_params ray;
  const cvr_rgba *sample_table; /* tf with opacity corrected for the sample distance */
  const cvr_rgba *visibility_table; /* what empty-space skipping sees (frame.c) */
  const float *opaque_depth;    /* per pixel window depth, or NULL */
  const cvr_gl_buffer *gl_opaque_depth; /* or the same in an OpenGL buffer */
  const cvr_render_settings *settings;
} cvr_frame;

/* errors.c */
cvr_status cvr_fail(cvr_context *ctx, cvr_status status, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* view.c: frame ray parameters from the public view; fails on singular
 * matrices or a projection that disagrees with the matrix. */
CVR_INTERNAL cvr_status cvr_build_ray_params(cvr_context *ctx, const cvr_volume *volume,
                                        const cvr_view *view, double sample_distance,
                                        cvr_ray_params *out);

/* shading.c */
void cvr_build_shading_params(const cvr_shading *in, const float world_to_index[12],
                              cvr_shading_params *out);
/* Whether a frame scatters light (cvr.h, cvr_shading: shaded, lit,
 * blend > 0, in a blend mode that shades). */
int cvr_shading_scatters(const cvr_shading *in, cvr_blend_mode mode);
/* Volumetric scattering's parameters (ray->shading.scattering; off unless
 * cvr_shading_scatters) from the frame's shading, index transform and
 * transfer-function mapping, in the volume's own axes. */
void cvr_build_scattering_params(const cvr_shading *in, const cvr_volume *volume,
                                 const cvr_transfer_function *tf, double sample_distance,
                                 cvr_blend_mode mode, cvr_ray_params *ray);

/* transfer_function.c: the table a frame classifies with, its opacity per
 * sample for the blend mode (cvr.h, cvr_blend_mode). */
void cvr_transfer_function_sample_table(const cvr_transfer_function *tf,
                                        double sample_distance, cvr_blend_mode blend,
                                        cvr_rgba *out);
/* Maps what the sampler returns for volume onto table coordinates. */
void cvr_transfer_function_mapping(const cvr_transfer_function *tf,
                                   const cvr_volume *volume, float *scale,
                                   float *bias);

/* Host functions built for several x86 instruction sets, the best picked
 * when the library loads (GCC's target_clones). GCC only, and not under a
 * sanitizer: the clones' resolver runs while the library is relocated,
 * before a sanitizer's runtime is up, and clang's sanitized builds crashed
 * there. */
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__) &&       \
    !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#  define CVR_TARGET_CLONES(...) __attribute__((target_clones(__VA_ARGS__)))
#else
#  define CVR_TARGET_CLONES(...)
#endif

/* What an upload reads and reports (volume.c to the backends). */
typedef struct cvr_upload {
  cvr_scalar_type type; /* of data */
  const void *data;     /* the volume's dims and components, x fastest */
  double *range;        /* widened by the values (cvr_range_init), or NULL */
  cvr_progress_callback progress; /* the fraction done, or NULL */
  void *progress_user;
  int threads; /* host threads for conversion and copies */
  /* with several components: widened by each component's values, or NULL */
  double (*component_ranges)[2];
} cvr_upload;

/* volume.c: the value a texture unit returns per unit of the stored type
 * (1/255 for uint8, 1/32767 for int16, 1 for float). */
double cvr_stored_type_normalization(cvr_scalar_type stored_type);

/* settings.c */
cvr_status cvr_validate_settings(cvr_context *ctx,
                                 const cvr_render_settings *settings);

/* frame.c: the frame layer under cvr_render (render.c), which checks the
 * arguments (present, objects of ctx) and the caller's settings, once, and
 * hands AUTO's frames to cvr_auto_render and the others here: the settings
 * made concrete (components, blend modes), the frame rendered by the
 * context's backend. AUTO and kernel preloading render their frames through
 * it, never through the API: their settings are the caller's with a
 * candidate's fields, which AUTO asks the device about before it measures
 * one (auto.c, runnable). */
const cvr_render_settings *cvr_frame_settings(const cvr_volume *volume,
                                              const cvr_render_settings *given,
                                              cvr_render_settings *storage);
cvr_status cvr_render_frame(cvr_context *ctx, const cvr_volume *volume,
                            const cvr_transfer_function *tf, const cvr_view *view,
                            const cvr_render_settings *settings, const cvr_image *image,
                            cvr_render_stats *stats);

/* auto.c: strategy AUTO (cvr_render hands it frames whose inputs it checked) */
cvr_status cvr_tuner_create(cvr_context *ctx);
void cvr_tuner_destroy(cvr_context *ctx);
cvr_status cvr_auto_render(cvr_context *ctx, const cvr_volume *volume,
                           const cvr_transfer_function *tf, const cvr_view *view,
                           const cvr_render_settings *settings, const cvr_image *image,
                           cvr_render_stats *stats);

/* empty_space.c: the CPU backend's grid of cells of 2^shift texels,
 * built on first use, and the frame's empty cells (*empty) */
cvr_status cvr_cpu_skip_prepare(cvr_context *ctx, cvr_volume *volume, const cvr_frame *frame,
                                int shift, const unsigned char **empty);
void cvr_cpu_skip_release(cvr_volume *volume);

/* cpu_renderer.c */
cvr_status cvr_cpu_render(cvr_context *ctx, const cvr_frame *frame,
                          const cvr_image *image, cvr_render_stats *stats);
int cvr_cpu_default_threads(void);
/* cpu_bricks.c: a frame of a bricked volume (bricks.h) */
cvr_status cvr_cpu_render_bricked(cvr_context *ctx, const cvr_frame *frame,
                                  const cvr_image *image, cvr_render_stats *stats);

/* settings.c: warp marching's rays per warp, resolving 0 x 0 (automatic) */
void cvr_warp_rays_layout(const cvr_render_settings *s, int rays[2]);

/* block_shape.c */
void cvr_choose_block_shape_for(const cvr_ray_params *p, cvr_block_shape_choice *out);
/* The viewing direction in index space: eye to the volume's centre
 * (perspective) or along the rays (parallel). */
void cvr_view_direction_index(const cvr_ray_params *p, float dir[3]);
/* One pixel to the right and one up, at mid depth, in index space. */
void cvr_screen_steps_index(const cvr_ray_params *p, float right[3], float up[3]);

/* rotation_policy.c: the axis (1: y, 2: z) stored x trades places with in
 * the quarter turn a view along dir (stored index space) calls for under
 * the policy, or 0 when it calls for none; partners and fallback as
 * cvr_rotation_partner's. along_rays: warp marching's turn, which brings
 * stored x toward the rays (trading it with the partner the view runs
 * along most) where one thread a ray takes it away from them. */
CVR_INTERNAL int cvr_rotation_turn(const float dir[3], int partners, int fallback,
                              cvr_rotation_policy policy, double hysteresis, int along_rays);
/* The axis (1: y, 2: z) that stored x trades places with in a turn for a
 * view along dir (stored index space), of those in `partners` (bit a: axis
 * a is as long as x): the one the view looks along least, so that the view
 * and its neighbours about the same axis stay favourable (an orbit about
 * the volume's y axis of a cube, turned about y as the paper turns, looks
 * along stored x again a quarter orbit on; turned about z, never). */
CVR_INTERNAL int cvr_rotation_partner(const float dir[3], int partners, int fallback);
/* A quarter turn trading x with `partner`, on a voxel order as
 * cvr_render_stats.volume_axes: stored x becomes the old partner, negated,
 * and the partner the old x (rotation.cu turns the voxels so). */
CVR_INTERNAL void cvr_rotation_turn_order(int order[3], int partner);
/* The fewest quarter turns, each about one of `partners`, that take voxel
 * order `from` to `to`: their partners in path (at most max); the count, or
 * -1 if none within max. */
CVR_INTERNAL int cvr_rotation_path(const int from[3], const int to[3], int partners, int path[],
                              int max);
/* The ray parameters of a copy whose voxel s sits at sign[s] * i[axis[s]] +
 * offset[s] of the volume's index i: index transform and box (the rays'
 * geometry) and the sample parameters below, in the copy's axes. */
void cvr_reorient_ray_params(const cvr_ray_params *in, const int axis[3], const int sign[3],
                             const int offset[3], cvr_ray_params *out);
/* Only what samples read in the copy's axes once a ray has moved there
 * (cvr_ray_to_storage): gradient transform and gradient-opacity scale,
 * cropping planes and flags. The kernels' parameters, whose rays are set up
 * in the volume's own index space, take these and nothing else. */
void cvr_reorient_sample_params(const cvr_ray_params *in, const int axis[3], const int sign[3],
                                const int offset[3], cvr_ray_params *out);

/* time.c */
double cvr_now_ms(void);

#ifdef __cplusplus
}
#endif

#endif /* CVR_INTERNAL_H */
