// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// Composite input of vtkCudaVolumeMapper (vtkPartitionedDataSet,
// vtkMultiBlockDataSet, ...): its image blocks, the order to render them in,
// and the front-to-back accumulation of their images. No OpenGL.
#ifndef vtkCudaVolumeBlocks_h
#define vtkCudaVolumeBlocks_h

#include <cstddef>
#include <vector>

class vtkDataObjectTree;
class vtkImageData;
class vtkRenderer;
class vtkVolume;

namespace vtkCudaVolumeBlocks
{

/// The non-empty vtkImageData leaves of `tree`, in traversal order; other
/// leaves (non-image or empty data sets) are counted in `skipped`.
void CollectImages(vtkDataObjectTree* tree, std::vector<vtkImageData*>& images, int& skipped);

/// Indices of `images` nearest the camera first, by the distance of each
/// block's centre from the eye (perspective) or along the view direction
/// (parallel), as vtkMultiBlockVolumeMapper orders its blocks: right for
/// non-overlapping blocks of similar size, such as a partitioned image.
std::vector<size_t> FrontToBackOrder(
  vtkRenderer* ren, vtkVolume* vol, const std::vector<vtkImageData*>& images);

/// Puts the premultiplied `block` image (and its window depth, when not NULL)
/// behind what `accumulated` already holds: rgb += (1 - a) * block.rgb, and
/// likewise alpha; depth keeps the nearest.
void CompositeUnder(const float* block, const float* blockDepth, size_t pixels,
  float* accumulated, float* accumulatedDepth);

/// Premultiplied float RGBA to bytes, rounded as the library rounds.
void ToBytes(const float* rgba, size_t pixels, unsigned char* bytes);

}

#endif
