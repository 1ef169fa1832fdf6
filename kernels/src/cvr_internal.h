/* Internal types shared by the host code and the backends. */
#ifndef CVR_INTERNAL_H
#define CVR_INTERNAL_H

#include "cvr.h"
#include "raycast.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CVR_MESSAGE_SIZE 512

/* Test hooks, never set through the public API. They perturb the CPU
 * renderer so that tests can prove their tolerances would catch such a bug,
 * and choose how it emulates the texture unit's filter weights. */
enum { CVR_WEIGHTS_8BIT_ROUNDED = 0, CVR_WEIGHTS_EXACT, CVR_WEIGHTS_8BIT_TRUNCATED };
typedef struct cvr_debug_options {
  float lattice_offset; /* in samples; 0 in normal use */
  int reverse_order;    /* composite the samples back first (a bug) */
  int filter_weights;   /* CVR_WEIGHTS_* */
} cvr_debug_options;
CVR_API void cvr_debug_set(cvr_context *ctx, const cvr_debug_options *options);

struct cvr_context {
  cvr_backend backend;
  int device_index;
  int cpu_threads;
  char description[2 * CVR_MESSAGE_SIZE]; /* may quote a last_error */
  char last_error[CVR_MESSAGE_SIZE];
  struct cvr_cuda_context *cuda; /* NULL unless backend == CUDA */
  struct cvr_debug_options debug;
};

struct cvr_volume {
  cvr_context *ctx;
  cvr_scalar_type type;        /* as given by the caller */
  cvr_scalar_type stored_type; /* as kept: 8/16-bit ints, or float32 */
  int dims[3];
  int cell_data;
  double spacing[3], origin[3], direction[9];
  double range[2];
  void *host_data;             /* stored_type scalars (CPU backend only) */
  struct cvr_cuda_volume *cuda;
};

struct cvr_transfer_function {
  cvr_context *ctx;
  cvr_rgba table[CVR_TRANSFER_FUNCTION_TABLE_SIZE]; /* straight colour, opacity per unit distance */
  int size;
  double range[2];
  double unit_distance;
  unsigned long long version; /* unique per create/update; keys device copies */
};

/* Per-frame inputs of a backend, validated and converted by render.c. */
typedef struct cvr_frame {
  const cvr_volume *volume;
  const cvr_transfer_function *tf;
  cvr_ray_params ray;
  const cvr_rgba *sample_table; /* tf with opacity corrected for the sample distance */
  const float *opaque_depth;    /* per pixel window depth, or NULL */
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
cvr_status cvr_build_ray_params(cvr_context *ctx, const cvr_volume *volume,
                                const cvr_view *view, double sample_distance,
                                cvr_ray_params *out);

/* shading.c */
void cvr_build_shading_params(const cvr_shading *in, const float world_to_index[12],
                              cvr_shading_params *out);

/* transfer_function.c: opacity corrected for the sample distance. */
void cvr_transfer_function_sample_table(const cvr_transfer_function *tf,
                                        double sample_distance,
                                        cvr_rgba *out);
/* Maps what the sampler returns for volume onto table coordinates. */
void cvr_transfer_function_mapping(const cvr_transfer_function *tf,
                                   const cvr_volume *volume, float *scale,
                                   float *bias);

/* volume.c: the value a texture unit returns per unit of the stored type
 * (1/255 for uint8, 1/32767 for int16, 1 for float). */
double cvr_stored_type_normalization(cvr_scalar_type stored_type);

/* settings.c */
cvr_status cvr_validate_settings(cvr_context *ctx,
                                 const cvr_render_settings *settings);

/* cpu_renderer.c */
cvr_status cvr_cpu_render(cvr_context *ctx, const cvr_frame *frame,
                          const cvr_image *image, cvr_render_stats *stats);
int cvr_cpu_default_threads(void);

/* settings.c: warp marching's rays per warp, resolving 0 x 0 (automatic) */
void cvr_warp_rays_layout(const cvr_render_settings *s, int rays[2]);

/* block_shape.c */
void cvr_choose_block_shape_for(const cvr_ray_params *p, cvr_block_shape_choice *out);

/* time.c */
double cvr_now_ms(void);

#ifdef __cplusplus
}
#endif

#endif /* CVR_INTERNAL_H */
