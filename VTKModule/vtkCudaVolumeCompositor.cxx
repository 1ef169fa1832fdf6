#include "vtkCudaVolumeCompositor.h"

#include "vtkOpenGLQuadHelper.h"
#include "vtkOpenGLRenderUtilities.h"
#include "vtkOpenGLRenderWindow.h"
#include "vtkOpenGLShaderCache.h"
#include "vtkOpenGLState.h"
#include "vtkRenderer.h"
#include "vtkShaderProgram.h"
#include "vtkTextureObject.h"
#include "vtk_glew.h"

vtkCudaVolumeCompositor::~vtkCudaVolumeCompositor()
{
  this->ReleaseGraphicsResources(nullptr);
}

void vtkCudaVolumeCompositor::ReadDepth(
  vtkRenderer* ren, int x, int y, int width, int height, std::vector<float>& depth)
{
  auto* window = vtkOpenGLRenderWindow::SafeDownCast(ren->GetRenderWindow());
  depth.resize(static_cast<size_t>(width) * height);
  vtkOpenGLState* state = window->GetState();
  // read from whatever framebuffer the scene is being drawn into
  GLint draw = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw);
  state->PushReadFramebufferBinding();
  state->vtkglBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(draw));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(x, y, width, height, GL_DEPTH_COMPONENT, GL_FLOAT, depth.data());
  state->PopReadFramebufferBinding();
}

void vtkCudaVolumeCompositor::Composite(
  vtkRenderer* ren, int x, int y, int width, int height, const float* rgba)
{
  auto* window = vtkOpenGLRenderWindow::SafeDownCast(ren->GetRenderWindow());
  if (!this->Texture)
  {
    this->Texture = vtkTextureObject::New();
  }
  this->Texture->SetContext(window);
  this->Texture->Create2DFromRaw(static_cast<unsigned int>(width),
    static_cast<unsigned int>(height), 4, VTK_FLOAT, const_cast<float*>(rgba));
  this->Texture->SetMinificationFilter(vtkTextureObject::Nearest);
  this->Texture->SetMagnificationFilter(vtkTextureObject::Nearest);

  if (!this->Quad)
  {
    std::string fs = vtkOpenGLRenderUtilities::GetFullScreenQuadFragmentShaderTemplate();
    vtkShaderProgram::Substitute(fs, "//VTK::FSQ::Decl", "uniform sampler2D volumeImage;");
    vtkShaderProgram::Substitute(
      fs, "//VTK::FSQ::Impl", "gl_FragData[0] = texture(volumeImage, texCoord);");
    this->Quad = new vtkOpenGLQuadHelper(window, nullptr, fs.c_str(), "");
  }
  else
  {
    window->GetShaderCache()->ReadyShaderProgram(this->Quad->Program);
  }
  if (!this->Quad->Program || !this->Quad->Program->GetCompiled())
  {
    return;
  }

  vtkOpenGLState* state = window->GetState();
  vtkOpenGLState::ScopedglViewport viewport(state);
  vtkOpenGLState::ScopedglEnableDisable blend(state, GL_BLEND);
  vtkOpenGLState::ScopedglEnableDisable depthTest(state, GL_DEPTH_TEST);
  vtkOpenGLState::ScopedglBlendFuncSeparate blendFunc(state);
  vtkOpenGLState::ScopedglDepthMask depthMask(state);
  state->vtkglViewport(x, y, width, height);
  state->vtkglEnable(GL_BLEND);
  state->vtkglDisable(GL_DEPTH_TEST);
  state->vtkglDepthMask(GL_FALSE);
  state->vtkglBlendFuncSeparate(GL_ONE, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);

  this->Texture->Activate();
  this->Quad->Program->SetUniformi("volumeImage", this->Texture->GetTextureUnit());
  this->Quad->Render();
  this->Texture->Deactivate();
}

void vtkCudaVolumeCompositor::ReleaseGraphicsResources(vtkWindow* window)
{
  if (this->Texture)
  {
    if (window)
    {
      this->Texture->ReleaseGraphicsResources(window);
    }
    this->Texture->Delete();
    this->Texture = nullptr;
  }
  if (this->Quad)
  {
    if (window)
    {
      this->Quad->ReleaseGraphicsResources(window);
    }
    delete this->Quad;
    this->Quad = nullptr;
  }
}
