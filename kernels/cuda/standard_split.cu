// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* The standard strategy with ray segments: a block of w x h x S threads
 * renders w x h pixels, thread z marching part z of its ray's samples (cvr_ray_segment)
 * from a transparent start. Where a frame has few rays for the GPU (a 512^2
 * image fills a GPU of 132 SMs about twice), the work then comes in S times as many,
 * S times shorter pieces, and the rays that miss the volume leave less of the
 * last wave idle. The parts meet in shared memory, where thread z = 0 puts
 * them behind each other in order ("over" is associative). With early ray
 * termination the pixel stays exactly the one-thread ray's: where a part
 * would carry the opacity past the stop, that thread marches the part again
 * behind what lies in front of it and stops at the same sample.
 *
 * Only unshaded compositing from the texture, with or without empty-space
 * skipping, has the instances (cvr_cuda_splits): with gradients, cropping,
 * masks, label maps or another layout a frame renders one thread a ray, and
 * its statistics say so. Each instance is about 0.2 MB of sm_90 code; the
 * six of every feature set took libcvr.so from 7.5 to 8.4 MB. */
#include "standard_kernel.cuh"

struct cvr_segment_slot {
  float4 color; /* premultiplied */
  float t_hit;
  unsigned samples, skipped; /* taken, and stepped over as empty */
};
/* A 1024-thread block's slots and one copy of the largest table fill the
 * 48 KB of shared memory a block has without opting in to more. */
static_assert(1024 * sizeof(cvr_segment_slot) + CVR_TRANSFER_FUNCTION_TABLE_SIZE * sizeof(uint4) <=
                  48 * 1024,
              "ray segments' shared memory");

/* Thread z = 0 of a pixel: puts the parts from `next` on behind `acc` (the
 * parts in front, composited), adding their counts to the pixel's, up to the
 * part where the opacity would pass the stop: returns that part, to be
 * marched again behind `acc`, or -1 once every part is in or the ray stopped.
 * The pixel's counts are then the one-thread ray's: the samples past its
 * stop are work done, not samples of the pixel. */
__device__ __forceinline__ int cvr_join_segments(const cvr_segment_slot *slots, int stride,
                                                 int segments, float stop, int &next,
                                                 cvr_rgba &acc, float &t_hit, unsigned &samples,
                                                 unsigned &skipped) {
  for (; next < segments; ++next) {
    if (acc.a >= stop) return -1;
    const cvr_segment_slot &part = slots[next * stride];
    const float4 c = cvr_over(make_float4(acc.r, acc.g, acc.b, acc.a), part.color);
    if (c.w >= stop) return next++;
    acc = cvr_rgba{c.x, c.y, c.z, c.w};
    if (t_hit < 0.0f) t_hit = part.t_hit;
    samples += part.samples;
    skipped += part.skipped;
  }
  return -1;
}

/* Puts this thread's part in the block's slots (shared memory after the
 * table) and waits for the block; returns its pixel's first slot. */
__device__ __forceinline__ const cvr_segment_slot *cvr_share_segment(const cvr_cuda_launch &l,
                                                                     int segment, cvr_rgba acc,
                                                                     float t_hit, unsigned samples,
                                                                     unsigned skipped) {
  extern __shared__ uint4 shared[];
  cvr_segment_slot *slots = (cvr_segment_slot *)(shared + l.ray.tf_size * l.table_copies) +
                            threadIdx.x + blockDim.x * threadIdx.y;
  slots[segment * blockDim.x * blockDim.y] = {make_float4(acc.r, acc.g, acc.b, acc.a), t_hit,
                                              samples, skipped};
  __syncthreads();
  return slots;
}

/* One pixel per (x, y) thread column of the block, its parts along z. */
template <unsigned FEATURES>
__global__ void __launch_bounds__(CVR_STANDARD_MAX_THREADS, CVR_STANDARD_MIN_BLOCKS)
    cvr_standard_split_kernel(const cvr_cuda_launch l) {
  typedef cvr_texture_sampler Sampler;
  constexpr int fetches = Sampler::fetch_ahead < CVR_STANDARD_FETCH_AHEAD ? Sampler::fetch_ahead
                                                                          : CVR_STANDARD_FETCH_AHEAD;
  extern __shared__ uint4 shared_table[];
  cvr_load_table(shared_table, l.table, l.ray.tf_size, l.table_copies);
  const uint4 *table = cvr_table_copy(shared_table, l.table_copies);

  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  const bool inside = px < l.ray.width && py < l.ray.height;
  const int segments = (int)blockDim.z, segment = (int)threadIdx.z;
  unsigned hit = 0, samples = 0, lattice = 0, skipped = 0;
  cvr_rgba acc = {0.0f, 0.0f, 0.0f, 0.0f};
  float t_hit = -1.0f; /* lattice parameter of the first visible sample */
  cvr_ray ray;
  ray.k_first = ray.k_last = 0;
  const bool marching = inside && cvr_setup_ray(l, px, py, &ray);
  if (marching && segment == 0) {
    hit = 1;
    lattice = cvr_lattice_samples(ray);
  }
  const int k_first = ray.k_first, k_last = ray.k_last;
  const cvr_segment_slot *slots = nullptr; /* this pixel's parts, once they met */
  /* each thread marches its own part; then thread z = 0 marches again the
   * part where early termination stops the ray, if any */
  for (int part = segment, next = 1;;) {
    unsigned taken = 0, stepped_over = 0;
    if (marching) {
      ray.k_first = k_first;
      ray.k_last = k_last;
      cvr_ray_segment(&ray, part, segments);
      taken = cvr_march<fetches, false, false, FEATURES>(l.ray, ray, Sampler(l.volume), table,
                                                         l.table_copies, acc, t_hit, stepped_over);
    }
    if (!slots) { /* every thread of the block */
      slots = cvr_share_segment(l, segment, acc, t_hit, taken, stepped_over);
      if (segment != 0 || !marching) break;
    }
    samples += taken;
    skipped += stepped_over;
    part = cvr_join_segments(slots, blockDim.x * blockDim.y, segments, cvr_stop_opacity(l.ray),
                             next, acc, t_hit, samples, skipped);
    if (part < 0) break;
  }
  if (inside && segment == 0)
    cvr_finish_pixel<CVR_COMPOSITE>(l, px, py, (size_t)py * l.ray.width + px, acc, t_hit, &ray);
  cvr_count(l.counters, hit, samples, lattice, skipped);
}

template <unsigned FEATURES>
static cudaError_t launch(cvr_cuda_launch l, dim3 block, cudaStream_t stream) {
  const auto kernel = cvr_standard_split_kernel<FEATURES>;
  const int threads = (int)(block.x * block.y * block.z);
  const size_t slots = (size_t)threads * sizeof(cvr_segment_slot);
  l.table_copies = cvr_table_copies(kernel, threads, l.ray.tf_size, slots);
  const dim3 grid((l.ray.width + block.x - 1) / block.x, (l.ray.height + block.y - 1) / block.y);
  const size_t shared = (size_t)l.ray.tf_size * l.table_copies * sizeof(uint4) + slots;
  kernel<<<grid, block, shared, stream>>>(l);
  return cudaGetLastError();
}

int cvr_cuda_splits(const cvr_ray_params *ray) {
  return ray->blend == CVR_BLEND_COMPOSITE && !cvr_needs_gradient(ray) &&
         (cvr_sample_features(ray) & ~(unsigned)CVR_SAMPLE_SKIP) == 0;
}

cudaError_t cvr_cuda_launch_standard_split(const cvr_cuda_launch *l, dim3 block,
                                           cudaStream_t stream) {
  if (!cvr_cuda_splits(&l->ray)) return cudaErrorInvalidValue; /* (the backend asks first) */
  return cvr_sample_features(&l->ray) ? launch<CVR_SAMPLE_SKIP>(*l, block, stream)
                                      : launch<0>(*l, block, stream);
}

cudaError_t cvr_cuda_load_standard_split(void) {
  return cvr_cuda_load({(const void *)cvr_standard_split_kernel<0>,
                        (const void *)cvr_standard_split_kernel<CVR_SAMPLE_SKIP>});
}

int cvr_cuda_standard_split_instances_max_threads(void) {
  int limit = 1024;
  const auto bound = [&](auto kernel) { return cvr_lower_thread_limit((const void *)kernel, &limit); };
  return bound(cvr_standard_split_kernel<0>) && bound(cvr_standard_split_kernel<CVR_SAMPLE_SKIP>)
             ? limit
             : 0;
}
