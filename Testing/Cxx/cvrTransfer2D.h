// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// 2D transfer functions for the VTK-level tests (vtkVolumeProperty's
// TransferFunction2D): images of RGBA tuples made of boxes, each a smooth
// bump (cosine edges) in x and y, entry centres placed as a texture spans
// its axes.
#ifndef cvrTransfer2D_h
#define cvrTransfer2D_h

#include "vtkFloatArray.h"
#include "vtkImageData.h"
#include "vtkPointData.h"
#include "vtkSmartPointer.h"

#include <cmath>
#include <vector>

namespace cvrTest
{
struct Box2D
{
  double X[2], Y[2]; // the bump's flat top, in the axes' units
  double Rgba[4];
};

/// 1 on [top[0], top[1]], falling to 0 over `edge` each side (cosine).
inline double Bump(double x, const double top[2], double edge)
{
  if (x >= top[0] && x <= top[1])
  {
    return 1.0;
  }
  const double d = x < top[0] ? top[0] - x : x - top[1];
  return d >= edge ? 0.0 : 0.5 + 0.5 * std::cos(3.14159265358979 * d / edge);
}

/// A width x height function over xRange and yRange: at each entry the most
/// opaque box's colour, its opacity times the bumps (edges: the given
/// fractions of each axis's span).
inline vtkSmartPointer<vtkImageData> MakeTransfer2D(int width, int height, const double xRange[2],
  const double yRange[2], double xEdge, double yEdge, const std::vector<Box2D>& boxes)
{
  auto image = vtkSmartPointer<vtkImageData>::New();
  image->SetDimensions(width, height, 1);
  image->AllocateScalars(VTK_FLOAT, 4);
  auto* rgba = vtkFloatArray::SafeDownCast(image->GetPointData()->GetScalars());
  const double xSpan = xRange[1] - xRange[0], ySpan = yRange[1] - yRange[0];
  for (int y = 0; y < height; ++y)
  {
    for (int x = 0; x < width; ++x)
    {
      const double u = xRange[0] + xSpan * (x + 0.5) / width;
      const double v = yRange[0] + ySpan * (y + 0.5) / height;
      double out[4] = { 0, 0, 0, 0 };
      for (const Box2D& b : boxes)
      {
        const double w = Bump(u, b.X, xEdge * xSpan) * Bump(v, b.Y, yEdge * ySpan);
        if (w * b.Rgba[3] > out[3])
        {
          for (int c = 0; c < 4; ++c)
          {
            out[c] = c < 3 ? b.Rgba[c] : w * b.Rgba[3];
          }
        }
      }
      rgba->SetTuple(static_cast<vtkIdType>(y) * width + x, out);
    }
  }
  return image;
}
}

#endif
