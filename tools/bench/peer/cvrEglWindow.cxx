// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
#include "cvrEglWindow.h"

#include "vtkCallbackCommand.h"
#include "vtkCommand.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <dlfcn.h>

#include <cstdio>

// Debian's VTK calls glewInit(), which GLEW built for GLX ends with
// glxewInit(): without a GLX display that fails (GLEW_ERROR_NO_GLX_DISPLAY)
// after every OpenGL entry point was already loaded (through glvnd's
// dispatch, which serves an EGL context as well). The program exports this
// glewInit, so VTK's call lands here: it calls GLEW's and forgives that one
// error while an EGL context is current.
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

namespace
{
std::string EglError(const char* step)
{
  char text[160];
  std::snprintf(text, sizeof text, "%s failed (EGL error 0x%x)", step, eglGetError());
  return text;
}
}

// The newest core profile first, as VTK's X window asks: a driver gives
// exactly the version asked for.
static EGLContext CreateContext(EGLDisplay display, EGLConfig config)
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

cvrEglWindow::~cvrEglWindow()
{
  if (this->RenderWindow)
  {
    this->RenderWindow->Finalize();
    for (unsigned long tag : this->Observers)
    {
      this->RenderWindow->RemoveObserver(tag);
    }
    this->RenderWindow = nullptr;
  }
  if (this->Display)
  {
    eglMakeCurrent(this->Display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (this->Context)
    {
      eglDestroyContext(this->Display, this->Context);
    }
    if (this->Surface)
    {
      eglDestroySurface(this->Display, this->Surface);
    }
    eglTerminate(this->Display);
  }
}

bool cvrEglWindow::Create(int width, int height)
{
  auto queryDevices =
    reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
  auto platformDisplay =
    reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (!queryDevices || !platformDisplay)
  {
    this->Message = "EGL lacks EGL_EXT_device_enumeration or EGL_EXT_platform_device";
    return false;
  }
  EGLDeviceEXT devices[16];
  EGLint count = 0;
  if (!queryDevices(16, devices, &count) || count < 1)
  {
    this->Message = count < 1 ? "EGL found no device" : EglError("eglQueryDevicesEXT");
    return false;
  }
  const EGLint configAttributes[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
    EGL_OPENGL_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
    EGL_DEPTH_SIZE, 24, EGL_NONE };
  // the newest core profile first, as VTK's X window asks: a driver gives
  // exactly the version asked for
  const EGLint surfaceAttributes[] = { EGL_WIDTH, width, EGL_HEIGHT, height, EGL_NONE };
  // the first device that gives a desktop OpenGL context: the GPU when the
  // NVIDIA driver is there, Mesa's software device otherwise
  for (EGLint d = 0; d < count && !this->Context; ++d)
  {
    EGLDisplay display = platformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[d], nullptr);
    EGLint major = 0, minor = 0;
    if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor))
    {
      this->Message = EglError("eglInitialize");
      continue;
    }
    EGLConfig config;
    EGLint configs = 0;
    EGLSurface surface = EGL_NO_SURFACE;
    EGLContext context = EGL_NO_CONTEXT;
    if (!eglChooseConfig(display, configAttributes, &config, 1, &configs) || configs < 1)
    {
      this->Message = EglError("eglChooseConfig (pbuffer, desktop OpenGL)");
    }
    else if ((surface = eglCreatePbufferSurface(display, config, surfaceAttributes)) ==
      EGL_NO_SURFACE)
    {
      this->Message = EglError("eglCreatePbufferSurface");
    }
    else if (!eglBindAPI(EGL_OPENGL_API) || (context = CreateContext(display, config)) == EGL_NO_CONTEXT)
    {
      this->Message = EglError("eglCreateContext (OpenGL 3.2 core or newer)");
    }
    else if (!eglMakeCurrent(display, surface, surface, context))
    {
      this->Message = EglError("eglMakeCurrent");
    }
    else
    {
      this->Display = display;
      this->Surface = surface;
      this->Context = context;
      char info[160];
      std::snprintf(info, sizeof info, "EGL %d.%d (%s), device %d of %d", major, minor,
        eglQueryString(display, EGL_VENDOR), d, count);
      this->Info = info;
      break;
    }
    if (context != EGL_NO_CONTEXT)
    {
      eglDestroyContext(display, context);
    }
    if (surface != EGL_NO_SURFACE)
    {
      eglDestroySurface(display, surface);
    }
    eglTerminate(display);
  }
  if (!this->Context)
  {
    return false;
  }

  // VTK asks the window whether its context is current and makes it current
  // through events; there is one context, always current on this thread
  this->RenderWindow = vtkSmartPointer<vtkGenericOpenGLRenderWindow>::New();
  vtkGenericOpenGLRenderWindow* window = this->RenderWindow;
  auto onEvent = [](vtkObject*, unsigned long event, void* self, void* data) {
    auto* egl = static_cast<cvrEglWindow*>(self);
    switch (event)
    {
      case vtkCommand::WindowMakeCurrentEvent:
        eglMakeCurrent(egl->Display, egl->Surface, egl->Surface, egl->Context);
        break;
      case vtkCommand::WindowIsCurrentEvent:
        *static_cast<bool*>(data) = eglGetCurrentContext() == egl->Context;
        break;
      case vtkCommand::WindowSupportsOpenGLEvent:
      case vtkCommand::WindowIsDirectEvent:
        *static_cast<int*>(data) = 1;
        break;
      default: // WindowFrameEvent: a pbuffer has nothing to swap
        break;
    }
  };
  vtkNew<vtkCallbackCommand> callback;
  callback->SetCallback(onEvent);
  callback->SetClientData(this);
  const unsigned long events[5] = { vtkCommand::WindowMakeCurrentEvent,
    vtkCommand::WindowIsCurrentEvent, vtkCommand::WindowSupportsOpenGLEvent,
    vtkCommand::WindowIsDirectEvent, vtkCommand::WindowFrameEvent };
  for (int e = 0; e < 5; ++e)
  {
    this->Observers[e] = window->AddObserver(events[e], callback);
  }
  window->SetSize(width, height);
  window->SetOffScreenRendering(1);
  window->SetMultiSamples(0);
  window->SetIsDirect(1);
  window->SetSupportsOpenGL(1);
  window->SetIsCurrent(true);
  window->SetReadyForRendering(true);
  window->SetMapped(1);
  window->InitializeFromCurrentContext();
  return true;
}
