// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// An off-screen VTK render window on an EGL context, for machines without a
// display: the GPU machine has NVIDIA's EGL driver but no X server, and
// Debian's VTK 9.2 is built for GLX only. The window is a
// vtkGenericOpenGLRenderWindow whose context (a pbuffer on the first EGL
// device that gives desktop OpenGL 3.2 core) we create and make current.
#ifndef cvrEglWindow_h
#define cvrEglWindow_h

#include "vtkGenericOpenGLRenderWindow.h"
#include "vtkSmartPointer.h"

#include <string>

class cvrEglWindow
{
public:
  cvrEglWindow() = default;
  ~cvrEglWindow();
  cvrEglWindow(const cvrEglWindow&) = delete;
  cvrEglWindow& operator=(const cvrEglWindow&) = delete;

  /// Creates the context and the window of width x height; on failure,
  /// returns false and Error() says which step failed.
  bool Create(int width, int height);
  vtkGenericOpenGLRenderWindow* Window() const { return this->RenderWindow; }
  const std::string& Error() const { return this->Message; }
  /// "EGL 1.5 (NVIDIA), device 0 of 1"
  const std::string& Description() const { return this->Info; }

private:
  void* Display = nullptr;
  void* Surface = nullptr;
  void* Context = nullptr;
  vtkSmartPointer<vtkGenericOpenGLRenderWindow> RenderWindow;
  unsigned long Observers[5] = {};
  std::string Message, Info;
};

#endif
