/* The standard strategy: one thread per ray, a 2D thread block of w x h
 * rays, the volume read through a 3D texture (Wang et al. section 3.2; the
 * CUDA sample volumeRender). */
#include "ray_march.cuh"

__global__ void cvr_standard_kernel(const cvr_cuda_launch l) {
  extern __shared__ uint4 shared_table[];
  cvr_load_table(shared_table, l.table, l.ray.tf_size, l.table_copies);
  const uint4 *table = cvr_table_copy(shared_table, l.table_copies);

  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned hit = 0, samples = 0;
  if (px < l.ray.width && py < l.ray.height) {
    cvr_rgba acc = {0.0f, 0.0f, 0.0f, 0.0f};
    int first = -1;
    cvr_ray ray;
    if (cvr_ray_setup(&l.ray, px, py, &ray)) {
      hit = 1;
      float t = cvr_ray_t_first(&ray, l.ray.lattice_offset);
      for (int k = ray.k_first; k <= ray.k_last; ++k, t += 1.0f) {
        ++samples;
        if (cvr_march_step(l.ray, ray, l.volume, table, l.table_copies, t, k, acc, first)) break;
      }
    }
    cvr_write_pixel(l, px, py, acc, first >= 0 ? cvr_ray_depth(&l.ray, &ray, first) : 1.0f);
  }
  cvr_count(l.counters, hit, samples);
}

cudaError_t cvr_cuda_launch_standard(const cvr_cuda_launch *l, dim3 block, cudaStream_t stream) {
  const dim3 grid((l->ray.width + block.x - 1) / block.x, (l->ray.height + block.y - 1) / block.y);
  const size_t shared = (size_t)l->ray.tf_size * l->table_copies * sizeof(uint4);
  cvr_standard_kernel<<<grid, block, shared, stream>>>(*l);
  return cudaGetLastError();
}
