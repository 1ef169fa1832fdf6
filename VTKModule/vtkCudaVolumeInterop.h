// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// CUDA-OpenGL interop for vtkCudaVolumeMapper: two OpenGL pixel buffers
// registered with the library, one that the opaque geometry's depth is read
// into and one the library writes the image into, so that a frame's pixels
// never leave the GPU (when OpenGL runs on the CUDA device).
#ifndef vtkCudaVolumeInterop_h
#define vtkCudaVolumeInterop_h

#include <string>

struct cvr_context;
struct cvr_gl_buffer;

class vtkCudaVolumeInterop
{
public:
  vtkCudaVolumeInterop() = default;
  ~vtkCudaVolumeInterop();
  vtkCudaVolumeInterop(const vtkCudaVolumeInterop&) = delete;
  vtkCudaVolumeInterop& operator=(const vtkCudaVolumeInterop&) = delete;

  /// Buffers for a width x height frame in the current OpenGL context,
  /// registered with ctx (again when the size or the context changed). False,
  /// with the library's reason in error, where interop is not possible.
  bool Prepare(cvr_context* ctx, int width, int height, std::string& error);

  unsigned int DepthBuffer() const { return this->Depth; }
  unsigned int ColorBuffer() const { return this->Color; }
  const cvr_gl_buffer* RegisteredDepth() const { return this->DepthRegistration; }
  cvr_gl_buffer* RegisteredColor() const { return this->ColorRegistration; }

  /// Unregisters the buffers and, with deleteBuffers (the OpenGL context
  /// current), deletes them.
  void Release(bool deleteBuffers);

private:
  cvr_context* Context = nullptr;
  int Size[2] = { 0, 0 };
  unsigned int Depth = 0, Color = 0;
  cvr_gl_buffer* DepthRegistration = nullptr;
  cvr_gl_buffer* ColorRegistration = nullptr;
};

#endif
