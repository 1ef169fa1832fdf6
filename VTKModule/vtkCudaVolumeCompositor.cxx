// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
#include "vtkCudaVolumeCompositor.h"

#include "vtkOpenGLFramebufferObject.h"
#include "vtkOpenGLQuadHelper.h"
#include "vtkOpenGLRenderUtilities.h"
#include "vtkOpenGLRenderWindow.h"
#include "vtkOpenGLShaderCache.h"
#include "vtkOpenGLState.h"
#include "vtkRenderer.h"
#include "vtkShaderProgram.h"
#include "vtkTextureObject.h"
#include "vtk_glew.h"

namespace
{
// The resolved depth's format where the scene has a stencil too (beside
// vtkTextureObject's depth formats)
constexpr int DepthStencilFormat = -2;

// A full-screen quad whose fragment shader samples one texture (sampler) and
// writes impl; created once, made current on later calls. False when its
// program did not compile.
bool ReadyQuad(vtkOpenGLQuadHelper*& quad, vtkOpenGLRenderWindow* window, const char* sampler,
  const char* impl, const char* sampler2 = nullptr)
{
  if (!quad)
  {
    std::string fs = vtkOpenGLRenderUtilities::GetFullScreenQuadFragmentShaderTemplate();
    std::string decl = std::string("uniform sampler2D ") + sampler + ";";
    if (sampler2)
    {
      decl += std::string("\nuniform sampler2D ") + sampler2 + ";";
    }
    vtkShaderProgram::Substitute(fs, "//VTK::FSQ::Decl", decl);
    vtkShaderProgram::Substitute(fs, "//VTK::FSQ::Impl", impl);
    quad = new vtkOpenGLQuadHelper(window, nullptr, fs.c_str(), "");
  }
  else
  {
    window->GetShaderCache()->ReadyShaderProgram(quad->Program);
  }
  return quad->Program && quad->Program->GetCompiled();
}

// Releases an OpenGL helper's resources (when the window is there to do it
// in) and the helper.
template <typename T>
void Release(T*& object, vtkWindow* window)
{
  if (!object)
  {
    return;
  }
  if (window)
  {
    object->ReleaseGraphicsResources(window);
  }
  object->Delete();
  object = nullptr;
}

void Release(vtkOpenGLQuadHelper*& quad, vtkWindow* window)
{
  if (!quad)
  {
    return;
  }
  if (window)
  {
    quad->ReleaseGraphicsResources(window);
  }
  delete quad;
  quad = nullptr;
}
}

vtkCudaVolumeCompositor::~vtkCudaVolumeCompositor()
{
  this->ReleaseGraphicsResources(nullptr);
}

unsigned int vtkCudaVolumeCompositor::DepthSource(
  vtkRenderer* ren, int& x, int& y, int width, int height)
{
  auto* window = vtkOpenGLRenderWindow::SafeDownCast(ren->GetRenderWindow());
  vtkOpenGLState* state = window->GetState();
  GLint draw = 0, samples = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw);
  glGetIntegerv(GL_SAMPLES, &samples); // (of the draw framebuffer)
  if (samples <= 0)
  {
    return static_cast<unsigned int>(draw);
  }
  // the resolved copy must have the scene's depth format (a blit of depth
  // needs the same on both sides), as VTK's own mapper does it
  state->PushFramebufferBindings();
  state->vtkglBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(draw));
  const GLenum depthAttachment = draw ? GL_DEPTH_ATTACHMENT : GL_DEPTH;
  const GLenum stencilAttachment = draw ? GL_STENCIL_ATTACHMENT : GL_STENCIL;
  // (an attachment's sizes may be asked only where it is attached: asking a
  // framebuffer without stencil its stencil size is an OpenGL error)
  const auto attached = [](GLenum attachment) {
    GLint object = GL_NONE;
    glGetFramebufferAttachmentParameteriv(
      GL_READ_FRAMEBUFFER, attachment, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &object);
    return object != GL_NONE;
  };
  GLint depthBits = 0, stencilBits = 0, type = GL_NONE;
  if (attached(depthAttachment))
  {
    glGetFramebufferAttachmentParameteriv(
      GL_READ_FRAMEBUFFER, depthAttachment, GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE, &depthBits);
    glGetFramebufferAttachmentParameteriv(
      GL_READ_FRAMEBUFFER, depthAttachment, GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE, &type);
  }
  if (attached(stencilAttachment))
  {
    glGetFramebufferAttachmentParameteriv(GL_READ_FRAMEBUFFER, stencilAttachment,
      GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE, &stencilBits);
  }
  const int format = stencilBits > 0 ? DepthStencilFormat
    : type == GL_FLOAT               ? vtkTextureObject::Float32
    : depthBits <= 16                ? vtkTextureObject::Fixed16
    : depthBits <= 24                ? vtkTextureObject::Fixed24
                                     : vtkTextureObject::Fixed32;
  const auto w = static_cast<unsigned int>(width);
  const auto h = static_cast<unsigned int>(height);
  if (!this->ResolveFramebuffer)
  {
    this->ResolvedDepth = vtkTextureObject::New();
    this->ResolvedColor = vtkTextureObject::New();
    this->ResolveFramebuffer = vtkOpenGLFramebufferObject::New();
  }
  this->ResolvedDepth->SetContext(window);
  this->ResolvedColor->SetContext(window);
  this->ResolveFramebuffer->SetContext(window);
  if (!this->ResolvedDepth->GetHandle() || this->ResolvedDepth->GetWidth() != w ||
    this->ResolvedDepth->GetHeight() != h || this->ResolvedFormat != format)
  {
    this->ResolvedDepth->ReleaseGraphicsResources(window);
    if (format == DepthStencilFormat)
    {
      this->ResolvedDepth->AllocateDepthStencil(w, h);
    }
    else
    {
      this->ResolvedDepth->AllocateDepth(w, h, format);
    }
    this->ResolvedColor->Allocate2D(w, h, 4, VTK_UNSIGNED_CHAR); // (a complete framebuffer)
    this->ResolvedFormat = format;
    this->ResolveFramebuffer->Bind(GL_DRAW_FRAMEBUFFER);
    this->ResolveFramebuffer->AddDepthAttachment(this->ResolvedDepth);
    this->ResolveFramebuffer->AddColorAttachment(0, this->ResolvedColor);
  }
  this->ResolveFramebuffer->Bind(GL_DRAW_FRAMEBUFFER);
  state->vtkglBlitFramebuffer( // (VTK's blit drops the scissor box for its span)
    x, y, x + width, y + height, 0, 0, width, height, GL_DEPTH_BUFFER_BIT, GL_NEAREST);
  state->PopFramebufferBindings();
  x = y = 0;
  return this->ResolveFramebuffer->GetFBOIndex();
}

void vtkCudaVolumeCompositor::ReadDepth(
  vtkRenderer* ren, int x, int y, int width, int height, std::vector<float>& depth)
{
  depth.resize(static_cast<size_t>(width) * height);
  auto* window = vtkOpenGLRenderWindow::SafeDownCast(ren->GetRenderWindow());
  vtkOpenGLState* state = window->GetState();
  const unsigned int source = this->DepthSource(ren, x, y, width, height);
  state->PushReadFramebufferBinding();
  state->vtkglBindFramebuffer(GL_READ_FRAMEBUFFER, source);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(x, y, width, height, GL_DEPTH_COMPONENT, GL_FLOAT, depth.data());
  state->PopReadFramebufferBinding();
}

void vtkCudaVolumeCompositor::ReadDepth(
  vtkRenderer* ren, int x, int y, int width, int height, unsigned int pixelBuffer)
{
  auto* window = vtkOpenGLRenderWindow::SafeDownCast(ren->GetRenderWindow());
  vtkOpenGLState* state = window->GetState();
  const unsigned int source = this->DepthSource(ren, x, y, width, height);
  const auto w = static_cast<unsigned int>(width);
  const auto h = static_cast<unsigned int>(height);
  if (!this->DepthCopy)
  {
    this->DepthCopy = vtkTextureObject::New();
    this->DepthAsColor = vtkTextureObject::New();
    this->DepthFramebuffer = vtkOpenGLFramebufferObject::New();
  }
  this->DepthCopy->SetContext(window);
  this->DepthAsColor->SetContext(window);
  this->DepthFramebuffer->SetContext(window);
  if (!this->DepthCopy->GetHandle() || this->DepthCopy->GetWidth() != w ||
    this->DepthCopy->GetHeight() != h)
  {
    this->DepthCopy->AllocateDepth(w, h, vtkTextureObject::Float32);
    this->DepthCopy->SetMinificationFilter(vtkTextureObject::Nearest);
    this->DepthCopy->SetMagnificationFilter(vtkTextureObject::Nearest);
    this->DepthAsColor->Allocate2D(w, h, 1, VTK_FLOAT);
  }
  // 1. the scene's depth into a texture (a copy on the GPU)
  state->PushReadFramebufferBinding();
  state->vtkglBindFramebuffer(GL_READ_FRAMEBUFFER, source);
  this->DepthCopy->CopyFromFrameBuffer(x, y, 0, 0, width, height);
  state->PopReadFramebufferBinding();

  // 2. drawn as float colour
  state->PushFramebufferBindings();
  this->DepthFramebuffer->Bind();
  this->DepthFramebuffer->AddColorAttachment(0, this->DepthAsColor);
  this->DepthFramebuffer->ActivateDrawBuffer(0);
  this->DepthFramebuffer->ActivateReadBuffer(0);
  if (ReadyQuad(this->DepthQuad, window, "depthImage",
        "gl_FragData[0] = vec4(texture(depthImage, texCoord).r, 0.0, 0.0, 1.0);"))
  {
    vtkOpenGLState::ScopedglViewport viewport(state);
    vtkOpenGLState::ScopedglEnableDisable blend(state, GL_BLEND);
    vtkOpenGLState::ScopedglEnableDisable depthTest(state, GL_DEPTH_TEST);
    vtkOpenGLState::ScopedglEnableDisable scissor(state, GL_SCISSOR_TEST);
    state->vtkglViewport(0, 0, width, height);
    state->vtkglDisable(GL_BLEND);
    state->vtkglDisable(GL_DEPTH_TEST);
    // (VTK scissors each renderer to its viewport: drawn at the copy's
    // origin, a viewport elsewhere in the window would leave it unwritten)
    state->vtkglDisable(GL_SCISSOR_TEST);
    this->DepthCopy->Activate();
    this->DepthQuad->Program->SetUniformi("depthImage", this->DepthCopy->GetTextureUnit());
    this->DepthQuad->Render();
    this->DepthCopy->Deactivate();
  }
  // 3. read into the pixel buffer (GPU to GPU)
  glBindBuffer(GL_PIXEL_PACK_BUFFER, pixelBuffer);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RED, GL_FLOAT, nullptr);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  state->PopFramebufferBindings();
}

void vtkCudaVolumeCompositor::Composite(vtkRenderer* ren, int x, int y, int width, int height,
  int imageWidth, int imageHeight, const float* rgba)
{
  this->Draw(ren, x, y, width, height, imageWidth, imageHeight, rgba);
}

void vtkCudaVolumeCompositor::Composite(
  vtkRenderer* ren, int x, int y, int width, int height, unsigned int pixelBuffer)
{
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pixelBuffer);
  this->Draw(ren, x, y, width, height, width, height, nullptr); // offset 0 of the buffer
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
}

void vtkCudaVolumeCompositor::CompositeWithDepth(vtkRenderer* ren, int x, int y, int width,
  int height, int imageWidth, int imageHeight, const float* rgba, unsigned int pixelBuffer,
  const float* depth)
{
  if (!rgba)
  {
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pixelBuffer);
  }
  this->Draw(ren, x, y, width, height, imageWidth, imageHeight, rgba, depth);
  if (!rgba)
  {
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  }
}

void vtkCudaVolumeCompositor::Draw(vtkRenderer* ren, int x, int y, int width, int height,
  int imageWidth, int imageHeight, const void* pixels, const float* depth)
{
  auto* window = vtkOpenGLRenderWindow::SafeDownCast(ren->GetRenderWindow());
  if (!this->Texture)
  {
    this->Texture = vtkTextureObject::New();
  }
  this->Texture->SetContext(window);
  // storage once per size; every frame only replaces the texels
  if (!this->Texture->GetHandle() ||
    this->Texture->GetWidth() != static_cast<unsigned>(imageWidth) ||
    this->Texture->GetHeight() != static_cast<unsigned>(imageHeight))
  {
    GLint unpack = 0;
    glGetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &unpack);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    this->Texture->Create2DFromRaw(static_cast<unsigned int>(imageWidth),
      static_cast<unsigned int>(imageHeight), 4, VTK_FLOAT, nullptr);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, static_cast<GLuint>(unpack));
  }
  // pixel for pixel, or a coarser (finer) image filtered over the viewport
  const int filter = imageWidth == width && imageHeight == height ? vtkTextureObject::Nearest
                                                                   : vtkTextureObject::Linear;
  this->Texture->SetMinificationFilter(filter);
  this->Texture->SetMagnificationFilter(filter);
  // float RGBA rows are 16-byte multiples: any unpack alignment will do, and
  // others (VTK's uploads of odd-width volumes) rely on the one they set
  this->Texture->Bind();
  this->Texture->SendParameters();
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, imageWidth, imageHeight, GL_RGBA, GL_FLOAT, pixels);
  if (depth)
  {
    if (!this->PixelDepth)
    {
      this->PixelDepth = vtkTextureObject::New();
    }
    this->PixelDepth->SetContext(window);
    GLint unpack = 0;
    glGetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &unpack);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    if (!this->PixelDepth->GetHandle() ||
      this->PixelDepth->GetWidth() != static_cast<unsigned>(imageWidth) ||
      this->PixelDepth->GetHeight() != static_cast<unsigned>(imageHeight))
    {
      this->PixelDepth->Create2DFromRaw(static_cast<unsigned int>(imageWidth),
        static_cast<unsigned int>(imageHeight), 1, VTK_FLOAT, nullptr);
    }
    // (each image pixel's own depth: never filtered between pixels)
    this->PixelDepth->SetMinificationFilter(vtkTextureObject::Nearest);
    this->PixelDepth->SetMagnificationFilter(vtkTextureObject::Nearest);
    this->PixelDepth->Bind();
    this->PixelDepth->SendParameters();
    // (rows of single floats: an alignment of 8 would misread odd widths)
    GLint alignment = 4;
    glGetIntegerv(GL_UNPACK_ALIGNMENT, &alignment);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, imageWidth, imageHeight, GL_RED, GL_FLOAT, depth);
    glPixelStorei(GL_UNPACK_ALIGNMENT, alignment);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, static_cast<GLuint>(unpack));
  }

  vtkOpenGLQuadHelper*& quad = depth ? this->DepthWriteQuad : this->Quad;
  if (!(depth ? ReadyQuad(quad, window, "volumeImage",
                  "float d = texture(pixelDepth, texCoord).r;\n"
                  "  if (d >= 1.0) { discard; }\n"
                  "  gl_FragData[0] = texture(volumeImage, texCoord);\n"
                  "  gl_FragDepth = d;",
                  "pixelDepth")
              : ReadyQuad(quad, window, "volumeImage",
                  "gl_FragData[0] = texture(volumeImage, texCoord);")))
  {
    return;
  }

  vtkOpenGLState* state = window->GetState();
  vtkOpenGLState::ScopedglViewport viewport(state);
  vtkOpenGLState::ScopedglEnableDisable blend(state, GL_BLEND);
  vtkOpenGLState::ScopedglEnableDisable depthTest(state, GL_DEPTH_TEST);
  vtkOpenGLState::ScopedglBlendFuncSeparate blendFunc(state);
  vtkOpenGLState::ScopedglDepthMask depthMask(state);
  vtkOpenGLState::ScopedglDepthFunc depthFunc(state);
  state->vtkglViewport(x, y, width, height);
  state->vtkglEnable(GL_BLEND);
  if (depth) // written where given, as given (the test always passes)
  {
    state->vtkglEnable(GL_DEPTH_TEST);
    state->vtkglDepthFunc(GL_ALWAYS);
    state->vtkglDepthMask(GL_TRUE);
  }
  else
  {
    state->vtkglDisable(GL_DEPTH_TEST);
    state->vtkglDepthMask(GL_FALSE);
  }
  state->vtkglBlendFuncSeparate(GL_ONE, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);

  this->Texture->Activate();
  quad->Program->SetUniformi("volumeImage", this->Texture->GetTextureUnit());
  if (depth)
  {
    this->PixelDepth->Activate();
    quad->Program->SetUniformi("pixelDepth", this->PixelDepth->GetTextureUnit());
  }
  quad->Render();
  if (depth)
  {
    this->PixelDepth->Deactivate();
  }
  this->Texture->Deactivate();
}

void vtkCudaVolumeCompositor::ReleaseGraphicsResources(vtkWindow* window)
{
  Release(this->ResolvedDepth, window);
  Release(this->ResolvedColor, window);
  Release(this->ResolveFramebuffer, window);
  this->ResolvedFormat = -1;
  Release(this->DepthCopy, window);
  Release(this->DepthAsColor, window);
  Release(this->DepthFramebuffer, window);
  Release(this->DepthQuad, window);
  Release(this->Texture, window);
  Release(this->PixelDepth, window);
  Release(this->DepthWriteQuad, window);
  Release(this->Quad, window);
}
