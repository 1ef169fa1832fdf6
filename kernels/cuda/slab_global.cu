/* The slab strategy with the global-memory layouts' samplers, one per
 * stored type (slab_kernel.cuh: why a module of their own). */
#include "slab_kernel.cuh"

cudaError_t cvr_cuda_launch_slab_global(const cvr_cuda_launch *l, cvr_scalar_type stored_type,
                                        const cvr_render_settings *s, int one_sided,
                                        cudaStream_t stream) {
  return cvr_with_stored_type(stored_type, [&](auto tag) -> cudaError_t {
    typedef cvr_global_sampler<typename decltype(tag)::type> S;
    return cvr_slab_launch<S>(l, s, one_sided, stream);
  });
}

int cvr_cuda_slab_global_instances_max_threads(void) {
  return cvr_slab_instances_max_threads<cvr_global_sampler<float>>();
}
