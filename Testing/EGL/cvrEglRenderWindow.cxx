// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
#include "cvrEglRenderWindow.h"

#include "vtkObjectFactory.h"
#include "vtkObjectFactoryCollection.h"
#include "vtkVersion.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <dlfcn.h>

#include <cstdio>

// Debian's VTK calls glewInit(), which GLEW built for GLX ends with
// glxewInit(): without a GLX display that fails (GLEW_ERROR_NO_GLX_DISPLAY)
// after every OpenGL entry point was already loaded (through glvnd's
// dispatch, which serves an EGL context as well). A program linking this
// file exports this glewInit (ENABLE_EXPORTS), so VTK's call lands here: it
// calls GLEW's and forgives that one error while an EGL context is current.
extern "C" __attribute__((visibility("default"))) unsigned int glewInit(void)
{
  using glew_init_fn = unsigned int (*)(void);
  static glew_init_fn real = reinterpret_cast<glew_init_fn>(dlsym(RTLD_NEXT, "glewInit"));
  if (!real)
  {
    return 1; // GLEW_ERROR_NO_GL_VERSION
  }
  const unsigned int result = real();
  const unsigned int noGlxDisplay = 4; // GLEW_ERROR_NO_GLX_DISPLAY
  return result == noGlxDisplay && eglGetCurrentContext() != EGL_NO_CONTEXT ? 0 : result;
}

vtkStandardNewMacro(cvrEglRenderWindow);

namespace
{
std::string EglError(const char* step)
{
  char text[160];
  std::snprintf(text, sizeof text, "%s failed (EGL error 0x%x)", step, eglGetError());
  return text;
}

// The newest core profile first, as VTK's X window asks: a driver gives
// exactly the version asked for.
EGLContext CreateCoreContext(EGLDisplay display, EGLConfig config)
{
  const EGLint versions[][2] = { { 4, 6 }, { 4, 5 }, { 4, 1 }, { 3, 2 } };
  for (const auto& v : versions)
  {
    const EGLint attributes[] = { EGL_CONTEXT_MAJOR_VERSION, v[0], EGL_CONTEXT_MINOR_VERSION, v[1],
      EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE };
    EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, attributes);
    if (context != EGL_NO_CONTEXT)
    {
      return context;
    }
  }
  return EGL_NO_CONTEXT;
}

// vtkRenderWindow::New() gives a cvrEglRenderWindow.
class cvrEglWindowFactory : public vtkObjectFactory
{
public:
  static cvrEglWindowFactory* New() { VTK_STANDARD_NEW_BODY(cvrEglWindowFactory); }
  vtkTypeMacro(cvrEglWindowFactory, vtkObjectFactory);
  const char* GetVTKSourceVersion() override { return VTK_SOURCE_VERSION; }
  const char* GetDescription() override { return "render windows on EGL (cvrEglRenderWindow)"; }

protected:
  cvrEglWindowFactory()
  {
    this->RegisterOverride("vtkRenderWindow", "cvrEglRenderWindow", "EGL pbuffer window", 1,
      [](void) -> vtkObject* { return cvrEglRenderWindow::New(); });
  }
};
}

cvrEglRenderWindow::cvrEglRenderWindow()
{
  if (!this->CreateContext())
  {
    vtkErrorMacro("no OpenGL context through EGL: " << this->Error);
    return;
  }
  this->SetOffScreenRendering(1);
  this->SetIsDirect(1);
  this->SetSupportsOpenGL(1);
  this->SetReadyForRendering(true);
  this->SetMapped(1);
  this->InitializeFromCurrentContext();
}

cvrEglRenderWindow::~cvrEglRenderWindow()
{
  if (!this->Display)
  {
    return;
  }
  // VTK's resources go while the context is still there
  this->MakeCurrent();
  this->Finalize();
  eglMakeCurrent(this->Display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(this->Display, this->Context);
  eglDestroySurface(this->Display, this->Surface);
  // (the display stays initialized: EGL counts no references, and other
  // windows may share it)
}

bool cvrEglRenderWindow::CreateContext()
{
  auto queryDevices =
    reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
  auto platformDisplay =
    reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (!queryDevices || !platformDisplay)
  {
    this->Error = "EGL lacks EGL_EXT_device_enumeration or EGL_EXT_platform_device";
    return false;
  }
  EGLDeviceEXT devices[16];
  EGLint count = 0;
  if (!queryDevices(16, devices, &count) || count < 1)
  {
    this->Error = count < 1 ? "EGL found no device" : EglError("eglQueryDevicesEXT");
    return false;
  }
  const EGLint configAttributes[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
    EGL_OPENGL_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
    EGL_DEPTH_SIZE, 24, EGL_NONE };
  // VTK renders into framebuffers of its own, sized to the window, and reads
  // its images from them: the pbuffer only has to exist
  const EGLint surfaceAttributes[] = { EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE };
  // the first device that gives a desktop OpenGL context: the GPU when the
  // NVIDIA driver is there, Mesa's software device otherwise
  for (EGLint d = 0; d < count && !this->Context; ++d)
  {
    EGLDisplay display = platformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[d], nullptr);
    EGLint major = 0, minor = 0;
    if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor))
    {
      this->Error = EglError("eglInitialize");
      continue;
    }
    EGLConfig config;
    EGLint configs = 0;
    EGLSurface surface = EGL_NO_SURFACE;
    EGLContext context = EGL_NO_CONTEXT;
    if (!eglChooseConfig(display, configAttributes, &config, 1, &configs) || configs < 1)
    {
      this->Error = EglError("eglChooseConfig (pbuffer, desktop OpenGL)");
    }
    else if ((surface = eglCreatePbufferSurface(display, config, surfaceAttributes)) ==
      EGL_NO_SURFACE)
    {
      this->Error = EglError("eglCreatePbufferSurface");
    }
    else if (!eglBindAPI(EGL_OPENGL_API) ||
      (context = CreateCoreContext(display, config)) == EGL_NO_CONTEXT)
    {
      this->Error = EglError("eglCreateContext (OpenGL 3.2 core or newer)");
    }
    else if (!eglMakeCurrent(display, surface, surface, context))
    {
      this->Error = EglError("eglMakeCurrent");
    }
    else
    {
      this->Display = display;
      this->Surface = surface;
      this->Context = context;
      char info[160];
      std::snprintf(info, sizeof info, "EGL %d.%d (%s), device %d of %d", major, minor,
        eglQueryString(display, EGL_VENDOR), d, count);
      this->Description = info;
      this->Error.clear();
      return true;
    }
    if (context != EGL_NO_CONTEXT)
    {
      eglDestroyContext(display, context);
    }
    if (surface != EGL_NO_SURFACE)
    {
      eglDestroySurface(display, surface);
    }
  }
  return false;
}

void cvrEglRenderWindow::MakeCurrent()
{
  if (this->Context && eglGetCurrentContext() != this->Context)
  {
    eglMakeCurrent(this->Display, this->Surface, this->Surface, this->Context);
  }
}

void cvrEglRenderWindow::ReleaseCurrent()
{
  if (this->Context && eglGetCurrentContext() == this->Context)
  {
    eglMakeCurrent(this->Display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  }
}

bool cvrEglRenderWindow::IsCurrent()
{
  return this->Context && eglGetCurrentContext() == this->Context;
}

void cvrEglRenderWindow::UseForEveryWindow()
{
  vtkObjectFactoryCollection* factories = vtkObjectFactory::GetRegisteredFactories();
  factories->InitTraversal();
  while (vtkObjectFactory* f = factories->GetNextItem())
  {
    f->Disable("vtkRenderWindow");
  }
  // (the first factory registered that makes a class makes it: this one
  // also wins over factories registered after it)
  vtkNew<cvrEglWindowFactory> factory;
  vtkObjectFactory::RegisterFactory(factory);
}
