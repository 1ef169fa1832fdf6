/* State and launch parameters of the CUDA backend (CUDA C, not public). */
#ifndef CVR_CUDA_INTERNAL_CUH
#define CVR_CUDA_INTERNAL_CUH

#include <cuda_runtime.h>

#include "cuda_backend.h"

struct cvr_cuda_context {
  int device;
  cudaDeviceProp props;
  cudaStream_t stream;
  cudaEvent_t kernel_start, kernel_stop;
  uint4 *table;                   /* CVR_TRANSFER_FUNCTION_TABLE_SIZE entry pairs */
  unsigned long long table_version; /* the transfer function the device table holds */
  uint4 packed[CVR_TRANSFER_FUNCTION_TABLE_SIZE]; /* host staging of the table */
  float table_sample_distance;
  unsigned long long *counters;   /* [0] rays, [1] samples of the last frame */
  void *output;                   /* rgba32f, rgba8 and depth planes */
  size_t output_bytes;
  float *opaque_depth;            /* the view's opaque-geometry depth, per frame */
  size_t opaque_depth_bytes;
};

struct cvr_cuda_volume {
  cudaArray_t array;
  cudaTextureObject_t linear, nearest;
};

/* Everything a ray-casting kernel reads, passed by value. */
typedef struct cvr_cuda_launch {
  cvr_ray_params ray;
  cudaTextureObject_t volume;
  const uint4 *table; /* pair i: entries i and i + 1 as eight halves */
  int table_copies;   /* replicas in shared memory (ray_march.cuh), set by the launcher */
  float4 *rgba32f; /* each output may be NULL */
  uchar4 *rgba8;
  float *depth;
  const float *opaque_depth; /* window depth of opaque geometry, or NULL */
  unsigned long long *counters;
} cvr_cuda_launch;

/* standard.cu */
cudaError_t cvr_cuda_launch_standard(const cvr_cuda_launch *launch, dim3 block, cudaStream_t stream);
int cvr_cuda_standard_max_threads(void); /* the kernel's launch bound */

/* warp_marching.cu */
cudaError_t cvr_cuda_launch_warp_marching(const cvr_cuda_launch *launch,
                                          const cvr_render_settings *settings, cudaStream_t stream);
int cvr_cuda_warp_marching_max_threads(void);

#endif
