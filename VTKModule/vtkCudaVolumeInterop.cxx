// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
#include "vtkCudaVolumeInterop.h"

#include "cvr.h"
#include "vtk_glew.h"

vtkCudaVolumeInterop::~vtkCudaVolumeInterop()
{
  // no OpenGL context here: the registrations go, the buffer names stay
  // with the context (ReleaseGraphicsResources deletes them first)
  this->Release(false);
}

void vtkCudaVolumeInterop::Release(bool deleteBuffers)
{
  cvr_gl_buffer_unregister(this->DepthRegistration);
  cvr_gl_buffer_unregister(this->ColorRegistration);
  this->DepthRegistration = this->ColorRegistration = nullptr;
  if (deleteBuffers && (this->Depth || this->Color))
  {
    const GLuint buffers[2] = { this->Depth, this->Color };
    glDeleteBuffers(2, buffers);
  }
  this->Depth = this->Color = 0;
  this->Size[0] = this->Size[1] = 0;
  this->Context = nullptr;
}

bool vtkCudaVolumeInterop::Prepare(cvr_context* ctx, int width, int height, std::string& error)
{
  if (ctx == this->Context && width == this->Size[0] && height == this->Size[1])
  {
    return true;
  }
  // the library must let go of the buffers before they change
  this->Release(true);
  GLuint buffers[2] = { 0, 0 };
  glGenBuffers(2, buffers);
  this->Depth = buffers[0];
  this->Color = buffers[1];
  const size_t pixels = static_cast<size_t>(width) * height;
  glBindBuffer(GL_PIXEL_PACK_BUFFER, this->Depth);
  glBufferData(GL_PIXEL_PACK_BUFFER, pixels * sizeof(float), nullptr, GL_STREAM_COPY);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, this->Color);
  glBufferData(GL_PIXEL_UNPACK_BUFFER, 4 * pixels * sizeof(float), nullptr, GL_STREAM_DRAW);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  if (cvr_gl_buffer_register(ctx, this->Depth, &this->DepthRegistration) != CVR_OK ||
    cvr_gl_buffer_register(ctx, this->Color, &this->ColorRegistration) != CVR_OK)
  {
    error = cvr_last_error(ctx);
    this->Release(true);
    return false;
  }
  this->Context = ctx;
  this->Size[0] = width;
  this->Size[1] = height;
  return true;
}
