// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Renders one scene with several mappers and compares the images: the peer
// check against VTK's own volume mappers.
#ifndef cvrPeerCompare_h
#define cvrPeerCompare_h

#include "vtkImageData.h"
#include "vtkNew.h"
#include "vtkRenderWindow.h"
#include "vtkUnsignedCharArray.h"
#include "vtkWindowToImageFilter.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace cvrTest
{
struct ImageDifference
{
  double MeanLevels = 0;     // mean RGB difference, 8-bit levels
  double FractionOver = 0;   // pixels with an RGB channel off by more than the threshold
  int Threshold = 0;
};

inline vtkSmartPointer<vtkImageData> Grab(vtkRenderWindow* window)
{
  vtkNew<vtkWindowToImageFilter> grab;
  grab->SetInput(window);
  grab->SetInputBufferTypeToRGB();
  grab->ReadFrontBufferOff();
  grab->Update();
  vtkSmartPointer<vtkImageData> image = vtkSmartPointer<vtkImageData>::New();
  image->DeepCopy(grab->GetOutput());
  return image;
}

inline ImageDifference Compare(vtkImageData* a, vtkImageData* b, int threshold)
{
  ImageDifference d;
  d.Threshold = threshold;
  auto* pa = static_cast<unsigned char*>(a->GetScalarPointer());
  auto* pb = static_cast<unsigned char*>(b->GetScalarPointer());
  const long pixels = static_cast<long>(a->GetNumberOfPoints());
  double sum = 0;
  long over = 0;
  for (long p = 0; p < pixels; ++p)
  {
    int worst = 0;
    for (int c = 0; c < 3; ++c)
    {
      const int diff = std::abs(static_cast<int>(pa[3 * p + c]) - static_cast<int>(pb[3 * p + c]));
      sum += diff;
      worst = diff > worst ? diff : worst;
    }
    over += worst > threshold;
  }
  d.MeanLevels = sum / (3.0 * pixels);
  d.FractionOver = static_cast<double>(over) / pixels;
  return d;
}
}

#endif
