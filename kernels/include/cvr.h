// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/*
 * cvr: cache-aware volume ray casting, CUDA and CPU backends.
 *
 * The library's only public header. It knows nothing of VTK; the VTK mapper
 * is a thin shim that converts its state into these plain structs.
 *
 * Conventions
 *  - Every function returns a cvr_status; cvr_last_error() gives the English
 *    message of the last failure (per context, or per thread without one).
 *  - Inputs are borrowed for the duration of the call; whatever the library
 *    keeps, it copies. Whoever allocates frees. Every destroy(NULL) is a no-op.
 *  - Matrices are 4x4, row-major, acting on column vectors (p' = M p), as in
 *    vtkMatrix4x4. Clip space follows OpenGL: NDC z in [-1, 1].
 *  - Images are stored bottom row first (OpenGL/VTK order), RGBA with
 *    premultiplied alpha.
 *  - Voxel (i,j,k) sits at index position (i,j,k). Point data spans
 *    [0, dim-1] on each axis in index space, cell data [-0.5, dim-0.5].
 */
#ifndef CVR_H
#define CVR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(CVR_SHARED)
#  ifdef CVR_BUILDING
#    define CVR_API __declspec(dllexport)
#  else
#    define CVR_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__)
#  define CVR_API __attribute__((visibility("default")))
#else
#  define CVR_API
#endif

#define CVR_VERSION_MAJOR 0
#define CVR_VERSION_MINOR 1

typedef enum cvr_status {
  CVR_OK = 0,
  CVR_ERROR_INVALID_ARGUMENT, /* a parameter is out of its documented domain */
  CVR_ERROR_UNSUPPORTED,      /* valid request this build or device cannot do */
  CVR_ERROR_OUT_OF_MEMORY,    /* host or device allocation failed */
  CVR_ERROR_NO_DEVICE,        /* no usable CUDA driver or device */
  CVR_ERROR_DEVICE,           /* a CUDA call failed (message has details) */
  CVR_ERROR_INTERNAL,         /* a bug: please report the message */
  CVR_ERROR_DEVICE_LOST       /* the context's CUDA device is unusable (a
                                 sticky error: a kernel fault, an ECC error, a
                                 device gone or reset); every later call that
                                 needs the device fails with it. Destroy the
                                 context and its objects; a CPU context still
                                 renders (see cvr_context_lost) */
} cvr_status;

typedef enum cvr_backend {
  CVR_BACKEND_AUTO = 0, /* CUDA when a device is usable, else CPU */
  CVR_BACKEND_CUDA,
  CVR_BACKEND_CPU
} cvr_backend;

typedef enum cvr_scalar_type {
  CVR_INT8 = 0,
  CVR_UINT8,
  CVR_INT16,
  CVR_UINT16,
  CVR_INT32,
  CVR_UINT32,
  CVR_FLOAT32,
  CVR_FLOAT64
} cvr_scalar_type;

typedef enum cvr_projection {
  CVR_PROJECTION_PARALLEL = 0,
  CVR_PROJECTION_PERSPECTIVE
} cvr_projection;

typedef enum cvr_interpolation {
  CVR_INTERPOLATION_LINEAR = 0, /* trilinear */
  CVR_INTERPOLATION_NEAREST
} cvr_interpolation;

/* How the samples along a ray make its pixel, as vtkVolumeMapper's blend
 * modes. s is a sample's value normalized to the transfer function's range
 * ([0, 1], clamped), opacity(s) the opacity function's value at it:
 *   COMPOSITE  front-to-back "over" of classified (and shaded) samples, the
 *              opacity corrected for the sample distance;
 *   MAXIMUM    the largest value along the ray, classified once: colour
 *              times opacity, as premultiplied RGBA;
 *   MINIMUM    the smallest value, likewise;
 *   AVERAGE    the mean of opacity(s) * s over the samples whose value lies
 *              in average_range (data units), as opaque grey; a ray with no
 *              such sample stays transparent;
 *   ADDITIVE   the sum of opacity(s) * s, the opacity scaled by
 *              sample_distance / unit_distance, clamped to 1, as opaque grey;
 *   ISOSURFACE "over" of the iso values the ray crosses (iso_values), each
 *              classified at the iso value itself (opacity as given, not
 *              corrected) and shaded with the gradient at the sample past
 *              the crossing, VTK's rule: the ray keeps which interval
 *              between iso values its last sample lay in, and a sample
 *              beyond either end of it crosses that end (a jump over several
 *              values crosses one per sample);
 *   SLICE      the single sample where the ray meets the slice plane (as
 *              VTK's SliceFunction), classified (opacity as given) and shaded,
 *              or nothing where the plane is outside the volume, clipped,
 *              cropped or behind opaque geometry.
 * Shading and gradient opacity apply to COMPOSITE, ISOSURFACE and SLICE (VTK's
 * OpenGL mapper also scales the projections' pixel by the gradient opacity
 * at the ray's last sample, which has no meaning; here they ignore it). Warp marching and the slab strategy composite
 * only: with another mode they render as the standard strategy, and
 * cvr_render_stats.strategy says so. */
typedef enum cvr_blend_mode {
  CVR_BLEND_COMPOSITE = 0,
  CVR_BLEND_MAXIMUM,
  CVR_BLEND_MINIMUM,
  CVR_BLEND_AVERAGE,
  CVR_BLEND_ADDITIVE,
  CVR_BLEND_ISOSURFACE,
  CVR_BLEND_SLICE
} cvr_blend_mode;

/* What the volume's mask (cvr_volume_set_mask) does, as VTK's mask types:
 *   BINARY     samples whose voxel has label 0 are removed (transparent,
 *              taken by no projection), in every blend mode and strategy,
 *              as cropping removes samples;
 *   LABEL_MAP  COMPOSITE: the samples of label l > 0 are classified by the
 *              label's function (cvr_transfer_function_desc.label_rgba),
 *              mixed with the volume's by mask_blend (0: the volume's only,
 *              1: the label's), then shaded; label 0 takes the volume's. The
 *              other blend modes ignore it, as VTK's mapper does. */
typedef enum cvr_mask_type { CVR_MASK_BINARY = 0, CVR_MASK_LABEL_MAP } cvr_mask_type;

/* Ray-casting strategies. A strategy is data: this enum plus the parameters
 * in cvr_render_settings, never a separate copy of the renderer. */
typedef enum cvr_strategy {
  CVR_STRATEGY_STANDARD = 0, /* one thread per ray, 2D thread block w x h */
  CVR_STRATEGY_BLOCK_SHAPE,  /* Sugimoto et al.: the standard kernel, with the thread
                                block shape chosen per view so that warps run along
                                the volume axis of smallest memory stride on screen */
  CVR_STRATEGY_WARP_MARCHING, /* Wang et al.: warp_width lanes march one ray together
                                 (1D with 32 lanes, 3D with several rays per warp) */
  CVR_STRATEGY_SLAB, /* Mensmann et al.: a block of rays steps through slabs of
                        slab_depth samples cached in shared memory; shading takes
                        its gradients from the cache (the neighbouring rays and
                        samples) instead of six more volume fetches */
  CVR_STRATEGY_AUTO /* the auto-tuner (Bethel and Howison): per class of view
                       direction, the fastest configuration measured so far
                       (strategy and its parameters, memory layout; on the CPU
                       tile size and schedule), measuring at most one candidate
                       per frame until the class has converged; see "auto-tuning"
                       below. The VTK mapper and ParaView default to it. */
} cvr_strategy;

/* How the lanes of a warp-marching group combine their samples (Wang et al.
 * section 4): single buffer (a reduction tree per cycle) or double buffer (a
 * pipelined reduction that keeps every lane busy, with the opacity blended
 * every cycle for early ray termination), through shared memory or through
 * warp shuffles. */
typedef enum cvr_warp_variant {
  CVR_WARP_SB_SHARED = 0,
  CVR_WARP_DB_SHARED,
  CVR_WARP_SB_SHUFFLE,
  CVR_WARP_DB_SHUFFLE
} cvr_warp_variant;

/* Who casts the slab strategy's border rays (the ring of rays around a
 * block's tile whose samples only fill the cache, so gradients at the tile's
 * edge see real neighbours). RING: the block's outer ring of threads, as
 * Mensmann et al. build it; a block of w x h threads renders a tile of
 * (w - 2) x (h - 2) pixels, and those threads idle while the others shade.
 * GATHERED: every thread renders a pixel of a w x h tile, and the block's
 * threads also fetch the 2 (w + 2) + 2 h border rays, one each besides
 * their own, so no thread idles (the block needs at least as many threads as
 * border rays). Both take the same samples and render the same image. */
typedef enum cvr_slab_border {
  CVR_SLAB_BORDER_RING = 0,
  CVR_SLAB_BORDER_GATHERED
} cvr_slab_border;

/* Where the CUDA backend keeps the volume (Bethel and Howison section 3.3).
 * TEXTURE: a 3D CUDA array read through the texture unit, which filters in
 * hardware. ARRAY_ORDER and Z_ORDER: plain global memory, x fastest or along
 * a Z-order (Morton) curve, the index of voxel (i, j, k) taken from three
 * lookup tables, Lx[i] + Ly[j] + Lz[k]; the kernel filters trilinearly
 * itself, with the texture unit's 8-bit weights, so every layout renders the
 * same image. Z-order addresses a box of power-of-two sides (an axis's bits
 * stop where its extent ends, so 512 x 512 x 64 needs no padding, 300^3
 * takes 512^3). The CPU backend always renders from array order. */
typedef enum cvr_memory_layout {
  CVR_LAYOUT_TEXTURE = 0,
  CVR_LAYOUT_ARRAY_ORDER,
  CVR_LAYOUT_Z_ORDER
} cvr_memory_layout;

/* In-place rotation of the volume's voxel order (Misaki, Ino and Hagihara):
 * memory strides are smallest along the stored x axis, so when the view
 * looks along it (warps then sample the yz plane, whose strides are large),
 * the volume is turned by 90 degrees in place about the axis that makes x
 * run across the screen again, and rendered with the turned transform; the
 * image does not change. The volume is padded once (edge voxels repeated,
 * never sampled) so that x and the axis it trades places with have the same
 * length; where y and z are both as long, x trades with the one the view
 * looks along least. A view's angle toward stored x is
 * atan(|d_x| / max(|d_y|, |d_z|)). NEVER: no padding, no rotation.
 * ON_REGION_CHANGE: turn whenever a turn lowers that angle (the view crossed
 * the border where both orders are equal: 45 degrees in the paper's orbit
 * about y, where x trades with z). HYSTERESIS: only when it lowers it by
 * more than twice rotation_hysteresis (the view that far past the border),
 * so a view wobbling on it does not turn the volume every frame.
 * Warp marching wants the opposite: its lanes march along the rays, which
 * read neighbouring voxels when they run along stored x (Wang et al.'s
 * favourable view faces the ZY plane), so its frames turn x toward the
 * rays, trading it with the axis the view looks along most, by the same
 * policy and margin (AUTO's frames keep the first rule for every
 * candidate: its tables are kept in those voxel orders). */
typedef enum cvr_rotation_policy {
  CVR_ROTATION_NEVER = 0,
  CVR_ROTATION_ON_REGION_CHANGE,
  CVR_ROTATION_HYSTERESIS
} cvr_rotation_policy;

/* How the CPU backend hands image tiles to its threads (Bethel/Howison). */
typedef enum cvr_cpu_schedule {
  CVR_CPU_SCHEDULE_DYNAMIC = 0, /* threads take the next tile from a shared queue */
  CVR_CPU_SCHEDULE_STATIC       /* tile i goes to thread i mod thread_count */
} cvr_cpu_schedule;

typedef struct cvr_context cvr_context;
typedef struct cvr_volume cvr_volume;
typedef struct cvr_transfer_function cvr_transfer_function;

/* ---- context ------------------------------------------------------------ */

typedef struct cvr_context_options {
  cvr_backend backend; /* default AUTO */
  int device_index;    /* CUDA device ordinal; default 0 */
  int cpu_threads;     /* CPU backend worker threads; 0 = one per core */
  /* Volumes larger than memory: a volume whose stored voxels take more than
   * memory_budget bytes is rendered from bricks of brick_size^3 voxels
   * (a power of two, 16..256; 0: 128), each with an apron of a few voxels
   * (so filtering and gradients are seamless), from a cache of brick copies
   * that the budget holds, refilled front to back as a frame needs them:
   * the image is the unbricked one, bit for bit. 0: no budget (the CPU
   * renders in place; the CPU backend with a budget renders through the
   * same brick cache, in host memory). Frames of several components, with
   * a mask or with volumetric scattering are not rendered from bricks
   * (cvr_render says so). Bricked frames render with the standard strategy
   * (cvr_render_stats.strategy says so). */
  size_t memory_budget;
  int brick_size;
} cvr_context_options;

CVR_API void cvr_context_options_init(cvr_context_options *options);

/* options may be NULL (defaults). On failure *out is NULL. */
CVR_API cvr_status cvr_context_create(const cvr_context_options *options,
                                      cvr_context **out);
CVR_API void cvr_context_destroy(cvr_context *ctx);

/* The backend in use (never AUTO after a successful create). */
CVR_API cvr_backend cvr_context_backend(const cvr_context *ctx);

/* Whether the context's CUDA device was lost (CVR_ERROR_DEVICE_LOST): then
 * it renders no more, and cvr_last_error says what happened. */
CVR_API int cvr_context_lost(const cvr_context *ctx);

/* One line describing the backend and device, e.g. why AUTO chose the CPU.
 * Valid until the context is destroyed. */
CVR_API const char *cvr_context_description(const cvr_context *ctx);

/* Message of the last failure on ctx; with ctx == NULL, of the last failure
 * on this thread that had no context (e.g. cvr_context_create). Never NULL. */
CVR_API const char *cvr_last_error(const cvr_context *ctx);

CVR_API const char *cvr_status_string(cvr_status status);
CVR_API const char *cvr_backend_name(cvr_backend backend);
CVR_API const char *cvr_strategy_name(cvr_strategy strategy);
CVR_API const char *cvr_warp_variant_name(cvr_warp_variant variant);
CVR_API const char *cvr_slab_border_name(cvr_slab_border border);
CVR_API const char *cvr_blend_mode_name(cvr_blend_mode mode);
CVR_API const char *cvr_memory_layout_name(cvr_memory_layout layout);
CVR_API const char *cvr_rotation_policy_name(cvr_rotation_policy policy);
CVR_API size_t cvr_scalar_type_size(cvr_scalar_type type);

/* Number of usable CUDA devices (0 without a driver or in a CPU-only build). */
CVR_API int cvr_cuda_device_count(void);

/* ---- volume --------------------------------------------------------------- */

#define CVR_MAX_COMPONENTS 4

/* How the components of a multi-component volume make a sample, as VTK's
 * vtkVolumeProperty::IndependentComponents (the transfer function's
 * component_mode; every component is filtered on its own first):
 *   INDEPENDENT  each component c has its own function (colour, opacity,
 *                gradient opacity, its own gradient for shading) and a weight
 *                w_c in [0, 1]. COMPOSITE (and SLICE) mixes the classified
 *                components as VTK's mapper: with a_c their opacities and
 *                A = sum w_c a_c, the sample's premultiplied colour is
 *                sum w_c a_c rgb_c and its opacity sum w_c a_c^2 / A (VTK
 *                leaves w_c out of this numerator, which lets the opacity
 *                pass 1 under weights below 1). MAXIMUM and MINIMUM take each
 *                component's extreme and add their classified colours the
 *                same way (opacity sum w_c a_c, clamped); AVERAGE and ADDITIVE
 *                add each component's grey, times w_c. ISOSURFACE follows the
 *                component of largest weight (the first of equals), classified
 *                and shaded by its function alone, as VTK does.
 *   DEPENDENT    2 components: luminance and alpha, the colour from function
 *                0 at component 0 and the opacity from function 1 at
 *                component 1; 4 components: RGBA direct, the colour the first
 *                three components mapped linearly from their functions' ranges
 *                onto [0, 1], the opacity from function 3 at component 3.
 *                Gradient opacity (function 0's) and shading take component
 *                0's gradient, as VTK's mapper. MAXIMUM and MINIMUM keep the
 *                sample of the extreme opacity component and classify it;
 *                AVERAGE and ADDITIVE work on the opacity component as on
 *                one-component data; ISOSURFACE finds where the opacity
 *                component crosses the iso values and classifies the sample
 *                past each crossing with the iso value as its opacity
 *                component.
 *   TRANSFER_2D  2 components: the x and y axes of a 2D transfer function
 *                (rgba_2d), as VTK's Transfer2DYAxisArray: x spans `range`
 *                of component 0, y spans range_2d_y of component 1, each as a
 *                texture spans it; no component functions or weights. A
 *                sample is the 2D function's entry at its two values, opacity
 *                per sample as given; shading takes component 0's gradient.
 *                MAXIMUM and MINIMUM keep the sample of component 0's
 *                extreme and classify it; AVERAGE and ADDITIVE add component
 *                0's grey (its place in `range`) times the sample's opacity;
 *                ISOSURFACE finds where component 0 crosses the iso values.
 * On CUDA, multi-component volumes are kept as textures of 2 or 4 channels
 * (3 components take 4) and rendered by the standard strategy, unturned and
 * without empty-space skipping; cvr_render_stats says so. */
typedef enum cvr_component_mode {
  CVR_COMPONENTS_INDEPENDENT = 0,
  CVR_COMPONENTS_DEPENDENT,
  CVR_COMPONENTS_TRANSFER_2D
} cvr_component_mode;

/* Called during long operations with the fraction done: cvr_tune_now (a
 * nonzero return stops the sweep, what was measured is kept) and volume
 * uploads (the return is ignored: a volume is uploaded whole or not at all). */
typedef int (*cvr_progress_callback)(double fraction, void *user);

typedef struct cvr_volume_desc {
  cvr_scalar_type type;
  const void *data;     /* dims[0]*dims[1]*dims[2] scalars, x fastest */
  int dims[3];          /* each >= 2 */
  double spacing[3];    /* > 0 */
  double origin[3];
  double direction[9];  /* row-major 3x3 index-to-physical rotation, as
                           vtkImageData::GetDirectionMatrix; invertible */
  int cell_data;        /* scalars are cell values: the volume spans
                           [-0.5, dims - 0.5] in index space (VTK's cell
                           bounds), not [0, dims - 1] */
  int components;       /* values per voxel, interleaved (a voxel's
                           components together): 1 (0 counts as 1) ..
                           CVR_MAX_COMPONENTS; see cvr_component_mode */
  cvr_progress_callback progress; /* the upload's progress, or NULL */
  void *progress_user;
  /* Nonzero: the caller lends `data` to the volume until it is destroyed or
   * given new scalars (cvr_volume_update), and neither frees nor changes it
   * meanwhile. Where the library keeps the scalars in host memory (the CPU
   * backend; a volume rendered from bricks, cvr_context_options) in the type
   * given (8- and 16-bit integers, float32), it then reads them there
   * instead of copying them (CUDA pins them while it does), so that the
   * process holds one copy; elsewhere it has no effect. */
  int borrow_data;
} cvr_volume_desc;

/* Identity direction, unit spacing, zero origin, everything else zero. */
CVR_API void cvr_volume_desc_init(cvr_volume_desc *desc);

/* Copies (and where the device needs it, converts) the scalars: 8- and
 * 16-bit integers stay as they are, 32-bit integers and doubles become
 * float32. The scalars are read once, on the context's CPU threads, which
 * also find their range; the CUDA backend copies them through a bounded
 * pinned staging area (kept by the context for later uploads) in chunks
 * that overlap the copy to the device, and keeps no host copy. The volume
 * belongs to ctx and must be destroyed before it. */
CVR_API cvr_status cvr_volume_create(cvr_context *ctx,
                                     const cvr_volume_desc *desc,
                                     cvr_volume **out);

/* New scalars for the volume (a time step, an edited field), of the type,
 * dimensions and components it was created with; the geometry (spacing,
 * origin, direction, cell_data) is taken from desc too. They are written
 * over the copy the volume has, which keeps its memory layout (CUDA: the
 * device memory is reused, the voxels are back in their original order),
 * or, lent (borrow_data), read where they are; the range is found again.
 * A failure part way leaves the voxels undefined until an update succeeds. */
CVR_API cvr_status cvr_volume_update(cvr_volume *volume, const cvr_volume_desc *desc);
CVR_API void cvr_volume_destroy(cvr_volume *volume);

/* Bytes of host memory the volume keeps of its own for its scalars: the CPU
 * backend's copy or a bricked volume's; 0 where it keeps none (CUDA's device
 * copy) or reads the caller's (borrow_data). */
CVR_API size_t cvr_volume_host_bytes(const cvr_volume *volume);

/* Scalar range of the data as given, over every component (NaN ignored). */
CVR_API cvr_status cvr_volume_get_range(const cvr_volume *volume,
                                        double range[2]);
/* The range of one component's values (0 .. components - 1; NaN ignored),
 * found in the same pass as the whole range. */
CVR_API cvr_status cvr_volume_get_component_range(const cvr_volume *volume, int component,
                                                  double range[2]);

/* A mask (VTK's SetMaskInput): one label per voxel, 0..CVR_MAX_LABEL, the
 * volume's dims, x fastest, as the volume's scalars. A sample takes the label
 * of the voxel nearest it (as VTK's mask texture, nearest filtering);
 * cvr_render_settings.mask_type says what the label does. Copied (the CUDA
 * backend keeps the copy in device memory, beside the volume's, whatever its
 * layout and orientation); NULL removes the mask. A mask that does not fit
 * leaves the volume without one. */
#define CVR_MAX_LABEL 255
CVR_API cvr_status cvr_volume_set_mask(cvr_volume *volume, const unsigned char *labels);

/* ---- transfer function ---------------------------------------------------- */

#define CVR_TRANSFER_FUNCTION_MAX_SIZE 65536
/* Tables larger than this are resampled to it: the size VTK's GPU mapper
 * uses, and small enough for the CUDA kernels' shared memory. */
#define CVR_TRANSFER_FUNCTION_TABLE_SIZE 1024

/* The largest 2D transfer function, each side (VTK resizes its own to the
 * texture it can hold; the VTK mapper resizes larger ones to this). */
#define CVR_TRANSFER_FUNCTION_2D_MAX_SIZE 1024

typedef struct cvr_transfer_function_desc {
  const float *rgba;     /* size entries of straight (not premultiplied)
                            r, g, b in [0,1] and opacity in [0,1]; unused
                            (may be NULL) with rgba_2d */
  int size;              /* 2 .. CVR_TRANSFER_FUNCTION_MAX_SIZE */
  double range[2];       /* scalar values of the first and last entry (with
                            rgba_2d: of the 2D function's x extent);
                            range[0] < range[1]; values outside clamp */
  double unit_distance;  /* world distance over which an entry's opacity
                            applies (VTK's ScalarOpacityUnitDistance); > 0 */
  /* Optional gradient opacity (VTK's GradientOpacity; COMPOSITE, ISOSURFACE
   * and SLICE, see cvr_blend_mode): a sample's opacity (after the distance correction) is multiplied by this
   * table's value at the gradient magnitude |grad f| * mean spacing (data
   * units per mean voxel edge, central differences one voxel apart, as VTK
   * measures it), the table spanning magnitudes [0, gradient_opacity_max]
   * and clamping beyond. NULL: none. */
  const float *gradient_opacity;  /* gradient_opacity_size values in [0, 1] */
  int gradient_opacity_size;      /* 2 .. CVR_TRANSFER_FUNCTION_MAX_SIZE */
  double gradient_opacity_max;    /* > 0; VTK: a quarter of the data's range */
  /* Optional 2D transfer function (VTK's TransferFunction2D, TF_2D mode):
   * size_2d[0] x size_2d[1] straight RGBA entries, x fastest. x spans the
   * values of `range`, y the gradient magnitudes [0, gradient_max_2d]
   * (measured as for gradient opacity), both as a texture spans them: entry
   * centres at (i + 0.5) / n of the extent, linear between entries, clamped
   * to the edge ones. Given, it classifies the samples of COMPOSITE,
   * ISOSURFACE and SLICE by value and gradient, opacity per sample as given
   * (not corrected for the sample distance, as VTK's), and replaces rgba and
   * gradient_opacity; the projections, which take no gradients, classify a
   * value by the most opaque entry of its column. With two components in
   * CVR_COMPONENTS_TRANSFER_2D mode, y spans component 1's values instead
   * (cvr_component_mode). NULL: none. */
  const float *rgba_2d;           /* 4 * size_2d[0] * size_2d[1] values in [0, 1] */
  int size_2d[2];                 /* 2 .. CVR_TRANSFER_FUNCTION_2D_MAX_SIZE each */
  double gradient_max_2d;         /* > 0; VTK: a quarter of the data's range
                                     (unused with CVR_COMPONENTS_TRANSFER_2D) */
  double range_2d_y[2];           /* CVR_COMPONENTS_TRANSFER_2D: component 1's
                                     values of the y extent; [0] < [1] */
  /* Optional label functions, for label-map masks (cvr_volume_set_mask,
   * CVR_MASK_LABEL_MAP): row l - 1 classifies the samples of label l as rgba
   * does (size entries over range), opacity per sample as given (not
   * corrected for the sample distance, as VTK's label tables); labels above
   * label_count, and 0, take rgba. With label_gradient_opacity, row l - 1
   * (gradient_opacity_size values over [0, gradient_opacity_max]) scales the
   * opacity of label l's samples as gradient_opacity scales the others'.
   * Not with rgba_2d. */
  int label_count;                /* 0 .. CVR_MAX_LABEL; 0: none */
  const float *label_rgba;        /* 4 * size * label_count values in [0, 1] */
  const float *label_gradient_opacity; /* gradient_opacity_size * label_count, or NULL */
  /* Multi-component volumes (cvr_component_mode): this desc is component 0's
   * function; component_functions[c - 1] is component c's (rgba, size,
   * range, unit_distance, gradient opacity; no 2D or label functions, no
   * components of its own). DEPENDENT takes 2 or 4 components and no
   * weights; TRANSFER_2D takes 2 components, rgba_2d and range_2d_y, and no
   * component functions. A volume renders only with a function of as many
   * components. No label functions with several components, and no 2D
   * function but TRANSFER_2D's. */
  int component_count;            /* 0 or 1: one component; 2 .. CVR_MAX_COMPONENTS */
  cvr_component_mode component_mode;
  const struct cvr_transfer_function_desc *component_functions; /* component_count - 1 */
  double component_weights[CVR_MAX_COMPONENTS]; /* INDEPENDENT: each in [0, 1] */
} cvr_transfer_function_desc;

/* Gradient-opacity tables larger than this are resampled to it. */
#define CVR_GRADIENT_OPACITY_TABLE_SIZE 256

CVR_API cvr_status cvr_transfer_function_create(
    cvr_context *ctx, const cvr_transfer_function_desc *desc,
    cvr_transfer_function **out);
/* Replaces the table; the device copy is refreshed at the next render. */
CVR_API cvr_status cvr_transfer_function_update(
    cvr_transfer_function *tf, const cvr_transfer_function_desc *desc);
CVR_API void cvr_transfer_function_destroy(cvr_transfer_function *tf);

/* ---- OpenGL interop (CUDA backend) ---------------------------------------- */

/* An OpenGL buffer object that cvr_render reads the opaque depth from
 * (cvr_view.gl_opaque_depth) or writes the image into (cvr_image.gl_rgba32f)
 * on the GPU, so that a frame's image never goes through host memory. The
 * OpenGL context that owns the buffer must be current on the calling thread,
 * at registration and at every render that uses it, and must run on the
 * context's CUDA device: otherwise registration fails with
 * CVR_ERROR_UNSUPPORTED and says why (as it does on the CPU backend), and the
 * caller keeps to host memory. The buffer must hold the frame's pixels (16
 * bytes each for the image, 4 for depth) and must not be reallocated or
 * deleted while registered: unregister first. */
typedef struct cvr_gl_buffer cvr_gl_buffer;
CVR_API cvr_status cvr_gl_buffer_register(cvr_context *ctx, unsigned int gl_buffer,
                                          cvr_gl_buffer **out);
CVR_API void cvr_gl_buffer_unregister(cvr_gl_buffer *buffer);

/* ---- view ----------------------------------------------------------------- */

typedef struct cvr_view {
  double world_to_clip[16];   /* projection * view (camera) */
  double volume_to_world[16]; /* the prop's matrix (vtkProp3D::GetMatrix) */
  int width, height;          /* viewport in pixels, 1 .. 32768 each */
  cvr_projection projection;  /* must agree with world_to_clip */
  const float *opaque_depth;  /* optional: width*height window depths in [0, 1]
                                 of opaque geometry already drawn (bottom row
                                 first); rays stop there. NULL: none */
  const struct cvr_gl_buffer *gl_opaque_depth; /* instead of opaque_depth: the same
                                 depths, as floats, in an OpenGL buffer (CUDA
                                 backend; see cvr_gl_buffer_register) */
  /* Optional: the box of the whole data of which the volume is a piece, as
   * x0, x1, y0, y1, z0, z1 in the volume's index coordinates (its own box
   * is 0 .. dims - 1 a side, -0.5 .. dims - 0.5 for cell data). Each ray
   * takes its first sample one sample distance (with jittering: the pixel's
   * fraction of one) behind its entry into that box, past the clipping
   * planes and the near plane, as VTK's GPU mapper does, so that pieces
   * rendered apart sample where the whole would. All zero (cvr_view_init):
   * the volume's own box. */
  double lattice_box[6];
} cvr_view;

/* Identity matrices, parallel projection, no opaque depth, size 0. */
CVR_API void cvr_view_init(cvr_view *view);

/* ---- lighting ------------------------------------------------------------- */

#define CVR_MAX_LIGHTS 8

/* Clipping planes a frame takes (VTK's OpenGL mapper takes 8). */
#define CVR_MAX_CLIP_PLANES 32
/* Iso values an ISOSURFACE frame takes. */
#define CVR_MAX_ISO_VALUES 32
/* Cropping flags: the centre region only (VTK_CROP_SUBVOLUME) */
#define CVR_CROP_SUBVOLUME 0x2000u

typedef enum cvr_light_type {
  CVR_LIGHT_HEADLIGHT = 0, /* at the eye: lights every sample along its ray */
  CVR_LIGHT_DIRECTIONAL,   /* from `position` towards `focal_point`, at infinity */
  CVR_LIGHT_POSITIONAL     /* at `position`; a spot towards `focal_point` when
                              cone_angle < 90 */
} cvr_light_type;

/* A light, in world coordinates (VTK's transformed position and focal point).
 * Colours already include the light's intensity. */
typedef struct cvr_light {
  cvr_light_type type;
  double ambient[3], diffuse[3], specular[3]; /* each in [0, 1e6] */
  double position[3], focal_point[3];          /* within 1e18 of the origin */
  double attenuation[3]; /* constant, linear, quadratic (positional), each in
                            [0, 1e6]; all 0: none */
  double cone_angle;     /* degrees, 0..180; >= 90 is a point light */
  double exponent;       /* spot falloff, 0..128 (vtkLight's range) */
} cvr_light;

/* Phong shading of the classified samples with gradients from central
 * differences: colour = sum over lights of
 *   ambient_k * light.ambient * c
 *   + diffuse_k * |N.L| * light.diffuse * c * attenuation
 *   + specular_k * |N.H|^power * light.specular * attenuation,
 * with N the normalized negative gradient in world space, L towards the light
 * and H between L and the view direction (one-sided: max(0, .) instead of
 * |.|). Samples whose gradient vanishes get the ambient term alone. */
typedef struct cvr_shading {
  int enabled;
  double ambient, diffuse, specular, specular_power; /* each in [0, 1e6] */
  int two_sided;
  int light_count; /* 0 .. CVR_MAX_LIGHTS */
  cvr_light lights[CVR_MAX_LIGHTS];
  /* Volumetric scattering, VTK's model (vtkGPUVolumeRayCastMapper's
   * VolumetricScatteringBlending and GlobalIlluminationReach,
   * vtkVolumeProperty's ScatteringAnisotropy; COMPOSITE, ISOSURFACE and
   * SLICE, shading on, at least one light). Each shaded sample also casts a
   * shadow ray towards every light, in the volume's texture space (the
   * volume is the unit cube) with the primary ray's step, from one step
   * away up to the volume's edge, the light or the reach, whichever is
   * nearest; the light it lets through (the product of 1 - opacity of its
   * samples) is scattered towards the eye by a Henyey-Greenstein phase
   * function of the anisotropy g, normalized to 1 for g = 0:
   *   scattered = sum over lights of
   *     through * phase * attenuation * diffuse_k * light.diffuse * c
   *     + ambient_k * light.ambient        (a headlight adds no ambient)
   * and mixed with the Phong colour by w:
   *   colour = (1 - w) phong + w scattered,  b = scattering_blend / 2,
   *   w = 2 b exp(-2 b |G| a)                         (blend < 1),
   *   w = 2 (1 - b) exp(-2 b |G| a) + 2 b - 1         (blend >= 1),
   * with a the sample's classified opacity and |G| the gradient of the
   * value scaled to the volume's range (0..1), per unit of its spacing,
   * taken over two voxels (1 where gradient opacity is on: VTK normalizes
   * it then). blend 0: off (the Phong model alone); 2: the
   * scattered light alone. The reach r maps to a shadow-ray length of
   * (m - sqrt 3) (1 - r)^0.33 + sqrt 3 texture units, with m one sample
   * distance over the volume's longest world extent (first to last voxel
   * centre, as VTK's bounds): 0, about the next sample only; 1, across the
   * whole volume. The shadow samples take the volume's
   * transfer function (its gradient opacity or 2D function too; a
   * multi-component volume: its mixed components, without gradients; not a
   * label map's), no jitter, and a ray stops once it lets through less than
   * 1/4096 of the light over the phase function. Such a frame renders with
   * the standard strategy from a texture, unturned, in blocks of at most
   * 256 threads (cvr_render_stats says so); each shadow ray costs up to
   * reach / step samples a shaded sample (doc/performance.md). Defaults 0,
   * 0, 0. */
  double scattering_blend;      /* [0, 2] */
  double scattering_reach;      /* [0, 1] */
  double scattering_anisotropy; /* [-1, 1]; |g| < 0.01 is isotropic, as VTK */
} cvr_shading;

/* ---- render settings ------------------------------------------------------ */

typedef struct cvr_render_settings {
  double sample_distance;      /* world units between samples; > 0 */
  int early_termination;       /* stop a ray once its opacity reaches ... */
  double termination_opacity;  /* ... this, in (0, 1] */
  /* Empty-space skipping (COMPOSITE): the volume is divided into macro-cells
   * of empty_space_cell^3 voxels whose value ranges are kept (per volume,
   * built when first needed); a cell in which the transfer function gives
   * every value zero opacity is transparent, and rays step over its samples
   * without fetching them. Exact: the image is the one without skipping,
   * only cvr_render_stats says which samples were skipped. Each strategy
   * skips at its own granularity (one ray, a warp's ray, a slab block).
   * Defaults: on, 8 (a power of two, 4..64). */
  int empty_space_skipping;
  int empty_space_cell;
  int max_samples_per_ray;     /* 0 = unlimited; > 0 caps every ray (benchmarks) */
  /* Jittering (VTK's UseJittering): each ray takes its first sample a
   * fraction of the sample distance fixed per pixel (a hash of its
   * coordinates, the same on every backend) behind its entry instead of one
   * sample distance, which turns the wood-grain pattern of a regular lattice
   * into fine noise. With jittering the slab strategy's frames render as the
   * standard strategy's, and cvr_render_stats.strategy says so. */
  int jittering;               /* 0 */
  cvr_interpolation interpolation;
  cvr_blend_mode blend_mode;     /* COMPOSITE */
  double average_range[2];       /* AVERAGE: values taken, data units (all) */
  /* ISOSURFACE: the iso values, data units, any order, at least one (VTK's
   * vtkVolumeProperty::GetIsoSurfaceValues) */
  int iso_value_count;           /* 0 .. CVR_MAX_ISO_VALUES; 0 */
  double iso_values[CVR_MAX_ISO_VALUES];
  /* SLICE: the plane through slice_origin normal to slice_normal (any
   * nonzero length), world coordinates (VTK's SliceFunction, a vtkPlane) */
  double slice_origin[3], slice_normal[3]; /* 0 0 0, 0 0 1 */
  /* Clipping planes, as VTK's mapper takes them (vtkAbstractMapper::
   * ClippingPlanes): plane i keeps the half space of world points x with
   * n . x + d >= 0, where (n, d) = clip_planes[i] and n != 0 (any length).
   * Each narrows every ray's sample range, so every strategy and blend mode
   * honours them at no per-sample cost; the gradients of samples next to a
   * plane still see the data beyond it, as in VTK. */
  int clip_plane_count;          /* 0 .. CVR_MAX_CLIP_PLANES; 0 */
  double clip_planes[CVR_MAX_CLIP_PLANES][4];
  /* Cropping, as vtkVolumeMapper's: two planes per axis cut the volume into
   * 3 x 3 x 3 regions; a sample counts only inside a region whose bit
   * (x + 3 y + 9 z, each coordinate 0 below the axis's first plane, 1 from it
   * to the second, 2 from the second on) is set in cropping_flags, which
   * takes VTK's values (VTK_CROP_SUBVOLUME = 0x2000, ...). The planes are
   * voxel index positions (x min, x max, y min, y max, z min, z max; min <=
   * max), so the mapper converts VTK's data coordinates per block. Samples
   * outside are transparent (not classified; still counted in the
   * statistics), the gradients of those inside still see them, as in VTK. */
  int cropping;                  /* 0 */
  double cropping_planes[6];
  unsigned cropping_flags;       /* 27 bits; CVR_CROP_SUBVOLUME */
  /* The volume's mask, where it has one (VTK's MaskType and
   * MaskBlendFactor): BINARY, 1 */
  cvr_mask_type mask_type;
  double mask_blend;             /* LABEL_MAP: [0, 1] */
  cvr_strategy strategy;
  int block_width, block_height; /* CUDA thread block of the standard strategy */
  /* STANDARD, COMPOSITE: each ray's samples in this many consecutive parts,
   * each marched by its own thread of a block_width x block_height x
   * ray_segments block and the parts composited in order: the same image
   * (with early termination too), in more and shorter pieces of work, which
   * pays where an image has too few rays to fill the GPU many times over.
   * 1, 2, 4 or 8; 1 (one thread a ray). Unshaded frames of one component
   * from the texture layout only: with shading, gradient opacity, a 2D
   * transfer function, cropping, masks, other blend modes or layouts a ray
   * is marched by one thread (cvr_render_stats.ray_segments says what ran);
   * the CPU backend ignores it, as it does the block. */
  int ray_segments;
  /* BLOCK_SHAPE: the block for horizontal warps (default 32 x 4) and for
   * vertical warps (1 x 128), the paper's shapes */
  int horizontal_block[2], vertical_block[2];
  /* WARP_MARCHING: warp_width lanes per ray (2..32, a power of two; 32 =
   * 1D), the warp's 32 / warp_width rays laid out warp_rays[0] x
   * warp_rays[1] on screen (0 x 0: the squarest layout, wider than tall),
   * a thread block of block_warps[0] x block_warps[1] warps (at most 16).
   * Defaults: SB_SHUFFLE, 32, 0 x 0, 1 x 8. The paper's 3D shape 2 x 2 x 8
   * is warp_width 8 with warp_rays 2 x 2 (or 0 x 0). */
  cvr_warp_variant warp_variant;
  int warp_width;
  int warp_rays[2];
  int block_warps[2];
  /* SLAB: a thread block of slab_block[0] x slab_block[1] threads (at most
   * 1024) and who casts its border rays (slab_border): with RING the outer
   * ring of threads, so a block renders a tile of (slab_block[0] - 2) x
   * (slab_block[1] - 2) pixels (each side at least 3); with GATHERED the
   * block's own threads besides their pixels, so the tile is the block
   * (2 (w + 2) + 2 h border rays, at most one per thread). Slabs of
   * slab_depth samples per ray (4, 8, 16 or 32: each is a compiled kernel
   * whose slab fetches are all in flight). The cache holds (slab_depth + 2)
   * float samples per ray, border rays included, and must fit the device's
   * shared memory beside the transfer function: cvr_render says so when it
   * does not. Defaults: 16 x 8, RING, 8 (the fastest shaded in most cases
   * measured: doc/performance.md). */
  int slab_block[2];
  cvr_slab_border slab_border;
  int slab_depth;
  /* CUDA: where the volume lives (changing it rebuilds the device copy once,
   * through host memory, so device memory never holds two copies) */
  cvr_memory_layout memory_layout;
  /* CUDA: in-place rotation. rotation_tile = t x k: the rotation kernel
   * moves t x t x k tiles (t across the rotated plane, 1..32; k along the
   * rotation axis, >= 1, or 0 = 4, the fastest measured, or less
   * where two tiles do not fit the device's shared memory for the volume's
   * type). Hysteresis in
   * degrees, [0, 45] (45: the volume is kept padded, never turned). Defaults:
   * NEVER, 32 x 0, 5. */
  cvr_rotation_policy rotation_policy;
  int rotation_tile[2];
  double rotation_hysteresis;
  int cpu_tile_width, cpu_tile_height;
  cvr_cpu_schedule cpu_schedule;
  cvr_shading shading;           /* off by default */
  /* AUTO: each candidate is measured once, and those within 10% of the best
   * up to tuning_repeats times (1..16, default 6: a frame's kernel time
   * varies by some 3% at a fixed view) before the class counts as
   * tuned; one measured more than tuning_prune times (> 1, default 1.5) the
   * cost of the best so far is dropped at once. A frame measures only
   * while what measuring has cost so far (the measured frames' kernel time
   * over their best's) is within tuning_budget (0 < x <= 1, default 0.01)
   * of the kernel time of all frames of the table (half that over a
   * table's first 360 frames), plus a frame's to start with: the search
   * converges over more frames, never costing more (1: no bound, every
   * other frame may measure). */
  int tuning_repeats;
  double tuning_prune;
  double tuning_budget;
} cvr_render_settings;

/* Defaults: sample distance 1, ERT on at 254/255 (so it changes no pixel by
 * more than one 8-bit level), linear, standard 16x16, CPU tiles 32x32
 * dynamic, shading off (when turned on: ambient 0.1, diffuse 0.7, specular
 * 0.2, power 10, two-sided, one white headlight, as VTK's defaults). */
CVR_API void cvr_render_settings_init(cvr_render_settings *settings);

/* ---- output --------------------------------------------------------------- */

/* Caller-owned output buffers of width*height pixels (the view's size); any
 * may be NULL. Pixels no ray reaches are (0,0,0,0) with depth 1. */
typedef struct cvr_image {
  uint8_t *rgba8;  /* 4 bytes per pixel, premultiplied */
  float *rgba32f;  /* 4 floats per pixel, premultiplied */
  float *depth;    /* window depth in [0,1] (glDepthRange 0..1) of the first
                      sample with non-zero opacity; 1 where there is none */
  struct cvr_gl_buffer *gl_rgba32f; /* instead of rgba32f: the same image written
                      into an OpenGL buffer on the GPU, never through host
                      memory (CUDA backend; see cvr_gl_buffer_register) */
} cvr_image;

typedef struct cvr_render_stats {
  cvr_backend backend;
  cvr_strategy strategy;
  int block_width, block_height;  /* thread block launched, in threads (CUDA: for
                                     warp marching, 32 x warps), or tile (CPU) */
  int ray_segments;               /* standard: threads a ray (1 elsewhere) */
  int warp_rays[2], warp_width;   /* warp marching: the warp's shape as launched */
  cvr_warp_variant warp_variant;  /* warp marching: the reduction as launched */
  int slab_depth;                 /* slab: samples per slab */
  cvr_slab_border slab_border;    /* slab: who cast the border rays */
  double kernel_ms;  /* ray casting alone: CUDA events, or CPU wall time */
  double total_ms;   /* the whole cvr_render call */
  double transfer_ms; /* CUDA: this frame's copies between host and device around the kernel
                         (opaque depth in, image out), GPU time; CPU: 0 */
  uint64_t rays;     /* rays that intersected the volume */
  uint64_t samples;  /* volume samples taken */
  /* lattice samples of those rays not taken: inside macro-cells that were
   * empty (empty-space skipping), and behind the point where early ray
   * termination stopped a ray; samples + both = the rays' lattice samples,
   * the same for every strategy and backend */
  uint64_t samples_skipped_empty;
  uint64_t samples_skipped_terminated;
  cvr_memory_layout memory_layout; /* the layout rendered from (CPU: ARRAY_ORDER) */
  /* in-place rotation: quarter turns made before this frame's ray casting,
   * their kernel time, and the voxel order now: stored axis s holds the
   * volume's axis volume_axes[s] - 1, reversed where it is negative (+1, +2,
   * +3 unturned) */
  int rotations;
  double rotation_ms;
  int volume_axes[3];
  size_t volume_bytes; /* device memory holding the volume (CPU: host) */
  /* AUTO: the view's class (see cvr_tuning_info) and whether this frame
   * measured a candidate; strategy and the block fields above say what ran */
  int view_class;
  int tuning;
  /* bricked volumes (cvr_context_options.memory_budget): the volume's
   * bricks (0: not bricked), those this frame drew, those it loaded into
   * the cache (their bytes and the time the copies took), and the copies
   * the cache holds after it */
  int brick_count;
  int bricks_drawn;
  int bricks_loaded;
  int bricks_cached;
  uint64_t brick_bytes_loaded;
  double brick_load_ms;
} cvr_render_stats;

/* The block-shape strategy's choice for a view (Sugimoto et al.): the
 * volume axis (0 = x, 1 = y, 2 = z, index space) normal to the plane most
 * parallel to the screen, the plane's axis of smaller texture stride, and
 * whether that axis runs horizontally on screen (then horizontal_block is
 * launched, else vertical_block). */
typedef struct cvr_block_shape_choice {
  int plane_normal_axis;
  int primary_axis;
  int horizontal;
} cvr_block_shape_choice;

CVR_API cvr_status cvr_choose_block_shape(cvr_context *ctx, const cvr_volume *volume,
                                          const cvr_view *view, cvr_block_shape_choice *out);

/* Renders volume with tf for view into image. stats may be NULL. */
CVR_API cvr_status cvr_render(cvr_context *ctx, const cvr_volume *volume,
                              const cvr_transfer_function *tf,
                              const cvr_view *view,
                              const cvr_render_settings *settings,
                              const cvr_image *image, cvr_render_stats *stats);

/* ---- auto-tuning ---------------------------------------------------------- */

/* Strategy AUTO learns per table: the backend and device (GPU model and
 * driver, or CPU threads), the volume's size and type class, the image size
 * class (each side rounded to a power of two), projection and shading. A
 * table holds CVR_TUNING_CLASSES view classes: the volume axis the view
 * looks along most (the plane most parallel to the screen), whether that
 * plane's axis of smaller memory stride runs across the screen (Sugimoto et
 * al.), and how the view leans: square (within 25 degrees of the axis),
 * oblique toward that stride axis or toward the plane's other axis, or
 * aligned (within 5 degrees: rays then step along one volume axis, and
 * every block shape keeps its samples in cache, unlike a few degrees off).
 * Each class has its own candidates, pruned by what the papers predict (block
 * shapes along the stride axis, warp marching, slabs only when shaded).
 * Tables are kept in the context across frames and, once a class converges,
 * in a small file per table in the cache directory; files that are corrupt,
 * stale or from another version are ignored with a warning. The memory
 * layout is a table's, not a class's (changing it rebuilds the device copy):
 * only cvr_tune_now measures layouts. */
#define CVR_TUNING_CLASSES 24

typedef struct cvr_tuning_info {
  int view_class;                  /* 0 .. CVR_TUNING_CLASSES - 1 */
  char view_class_name[64];        /* e.g. "along z, stride axis across, oblique toward y" */
  int tuning;                      /* 1 while this class, or then the view's cell, has candidates to measure */
  int candidates, measured, dropped; /* of this class: measured at least once, dropped */
  char configuration[160];         /* what AUTO renders this view with (the class's best, or its cell's choice), in words */
  cvr_render_settings settings;    /* ... and as settings (strategy never AUTO) */
  char warning[512];               /* the last cache-file problem, or "" */
} cvr_tuning_info;

/* What AUTO uses for this view now, and whether it is still tuning. */
CVR_API cvr_status cvr_tuning_info_for(cvr_context *ctx, const cvr_volume *volume,
                                       const cvr_view *view, const cvr_render_settings *settings,
                                       cvr_tuning_info *out);

/* A full sweep now, at this view: every candidate of the view's class
 * (repeats + 1 frames each, the first a warm-up), then the memory layouts
 * for the winner; the class converges, the table is saved. image receives
 * the last frame (it may be all NULL). For benchmarks and the ParaView
 * "tune now" button. */
CVR_API cvr_status cvr_tune_now(cvr_context *ctx, const cvr_volume *volume,
                                const cvr_transfer_function *tf, const cvr_view *view,
                                const cvr_render_settings *settings, const cvr_image *image,
                                cvr_progress_callback progress, void *user,
                                cvr_tuning_info *out);

/* Forgets every table of ctx and deletes the cache files in its directory. */
CVR_API cvr_status cvr_tuning_reset(cvr_context *ctx);

/* Where tables are kept: NULL restores the default ($CVR_TUNING_CACHE_DIR,
 * else $XDG_CACHE_HOME/cvr, else $HOME/.cache/cvr); "" keeps them in memory
 * only. Created when first written. */
CVR_API cvr_status cvr_tuning_set_cache_dir(cvr_context *ctx, const char *dir);
/* The directory in use ("" for none). */
CVR_API const char *cvr_tuning_cache_dir(const cvr_context *ctx);

#ifdef __cplusplus
}
#endif

#endif /* CVR_H */
