// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// An off-screen VTK render window on an EGL context, for machines without a
// display: a GPU machine with NVIDIA's EGL driver and no X server (where the
// mapper's OpenGL interop runs), or Mesa's EGL. Debian's VTK 9.2 is built for
// GLX only, so this is a vtkGenericOpenGLRenderWindow whose context (a
// pbuffer on the first EGL device that gives desktop OpenGL 3.2 core or
// newer) it creates itself.
//
// UseForEveryWindow() makes vtkRenderWindow::New() return one from then on:
// the VTK-level tests run on EGL when CVR_TEST_WINDOW=egl
// (cvrTestWindowFactory.cxx).
#ifndef cvrEglRenderWindow_h
#define cvrEglRenderWindow_h

#include "vtkGenericOpenGLRenderWindow.h"

#include <string>

class cvrEglRenderWindow : public vtkGenericOpenGLRenderWindow
{
public:
  static cvrEglRenderWindow* New();
  vtkTypeMacro(cvrEglRenderWindow, vtkGenericOpenGLRenderWindow);

  /// Whether the EGL context exists (it is made by New()); when not,
  /// GetError() says which step failed and nothing renders.
  bool HasContext() const { return this->Context != nullptr; }
  const std::string& GetError() const { return this->Error; }
  /// "EGL 1.5 (NVIDIA), device 0 of 2"
  const std::string& GetDescription() const { return this->Description; }

  /// Registers an object factory that makes vtkRenderWindow::New() create
  /// this class from now on (VTK's own overrides of vtkRenderWindow are
  /// disabled); a window without a context says why as an error.
  static void UseForEveryWindow();

  void MakeCurrent() override;
  void ReleaseCurrent() override;
  bool IsCurrent() override;
  int SupportsOpenGL() override { return this->Context != nullptr; }
  vtkTypeBool IsDirect() override { return this->Context != nullptr; }
  void Frame() override {} // a pbuffer has nothing to swap

protected:
  cvrEglRenderWindow();
  ~cvrEglRenderWindow() override;

private:
  cvrEglRenderWindow(const cvrEglRenderWindow&) = delete;
  void operator=(const cvrEglRenderWindow&) = delete;
  bool CreateContext();

  void* Display = nullptr;
  void* Surface = nullptr;
  void* Context = nullptr;
  std::string Error, Description;
};

#endif
