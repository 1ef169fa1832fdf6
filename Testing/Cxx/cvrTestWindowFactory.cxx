// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// With CVR_TEST_WINDOW=egl in the environment every vtkRenderWindow the
// tests create is an EGL pbuffer window (cvrEglRenderWindow): the tests then
// run without an X server, and on a GPU machine on NVIDIA's OpenGL, where
// the mapper hands its images and depths to OpenGL through CUDA interop
// (under Xvfb the window is Mesa's and images go through host memory).
#include "cvrEglRenderWindow.h"

#include <cstdlib>
#include <cstring>

namespace
{
struct cvrTestWindowChoice
{
  cvrTestWindowChoice()
  {
    const char* choice = std::getenv("CVR_TEST_WINDOW");
    if (choice && std::strcmp(choice, "egl") == 0)
    {
      cvrEglRenderWindow::UseForEveryWindow();
    }
  }
} const cvrTestWindows;
}
