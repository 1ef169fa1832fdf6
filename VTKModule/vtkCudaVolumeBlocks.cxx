// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
#include "vtkCudaVolumeBlocks.h"

#include "vtkCamera.h"
#include "vtkDataObjectTree.h"
#include "vtkDataObjectTreeIterator.h"
#include "vtkImageData.h"
#include "vtkMatrix4x4.h"
#include "vtkNew.h"
#include "vtkRenderer.h"
#include "vtkSmartPointer.h"
#include "vtkVolume.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace vtkCudaVolumeBlocks
{

void CollectImages(vtkDataObjectTree* tree, std::vector<vtkImageData*>& images, int& skipped)
{
  images.clear();
  skipped = 0;
  vtkSmartPointer<vtkDataObjectTreeIterator> it;
  it.TakeReference(tree->NewTreeIterator());
  it->VisitOnlyLeavesOn();
  it->TraverseSubTreeOn();
  it->SkipEmptyNodesOn();
  for (it->InitTraversal(); !it->IsDoneWithTraversal(); it->GoToNextItem())
  {
    auto* image = vtkImageData::SafeDownCast(it->GetCurrentDataObject());
    if (image && image->GetNumberOfPoints() > 0)
    {
      images.push_back(image);
    }
    else
    {
      ++skipped;
    }
  }
}

std::vector<size_t> FrontToBackOrder(
  vtkRenderer* ren, vtkVolume* vol, const std::vector<vtkImageData*>& images)
{
  vtkCamera* camera = ren->GetActiveCamera();
  double eye[3], direction[3];
  camera->GetPosition(eye);
  camera->GetDirectionOfProjection(direction);
  const bool parallel = camera->GetParallelProjection() != 0;
  vtkMatrix4x4* model = vol->GetMatrix();
  std::vector<double> key(images.size());
  for (size_t b = 0; b < images.size(); ++b)
  {
    const double* bounds = images[b]->GetBounds();
    const double centre[4] = { 0.5 * (bounds[0] + bounds[1]), 0.5 * (bounds[2] + bounds[3]),
      0.5 * (bounds[4] + bounds[5]), 1.0 };
    double world[4];
    model->MultiplyPoint(centre, world);
    double d = 0.0;
    for (int a = 0; a < 3; ++a)
    {
      const double v = world[a] / world[3] - eye[a];
      d += parallel ? v * direction[a] : v * v;
    }
    key[b] = d;
  }
  std::vector<size_t> order(images.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key[a] < key[b]; });
  return order;
}

void CompositeUnder(const float* block, const float* blockDepth, size_t pixels,
  float* accumulated, float* accumulatedDepth)
{
  for (size_t p = 0; p < pixels; ++p)
  {
    float* acc = accumulated + 4 * p;
    const float* c = block + 4 * p;
    const float behind = 1.0f - acc[3];
    for (int k = 0; k < 4; ++k)
    {
      acc[k] += behind * c[k];
    }
    if (blockDepth)
    {
      accumulatedDepth[p] = std::min(accumulatedDepth[p], blockDepth[p]);
    }
  }
}

void ToBytes(const float* rgba, size_t pixels, unsigned char* bytes)
{
  for (size_t i = 0; i < 4 * pixels; ++i)
  {
    const float v = std::min(std::max(rgba[i], 0.0f), 1.0f);
    bytes[i] = static_cast<unsigned char>(std::floor(v * 255.0f + 0.5f));
  }
}

}
