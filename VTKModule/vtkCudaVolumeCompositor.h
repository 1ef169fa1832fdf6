// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// OpenGL side of vtkCudaVolumeMapper: reads the opaque geometry's depth and
// composites the library's premultiplied image over the framebuffer.
#ifndef vtkCudaVolumeCompositor_h
#define vtkCudaVolumeCompositor_h

#include <vector>

class vtkOpenGLFramebufferObject;
class vtkOpenGLQuadHelper;
class vtkRenderer;
class vtkTextureObject;
class vtkWindow;

class vtkCudaVolumeCompositor
{
public:
  vtkCudaVolumeCompositor() = default;
  ~vtkCudaVolumeCompositor();
  vtkCudaVolumeCompositor(const vtkCudaVolumeCompositor&) = delete;
  vtkCudaVolumeCompositor& operator=(const vtkCudaVolumeCompositor&) = delete;

  /// Window depths of the renderer's viewport (bottom row first), into host
  /// memory or, on the GPU, into an OpenGL pixel buffer. A multisampled
  /// framebuffer (a window's default) has its depth resolved first.
  void ReadDepth(vtkRenderer* ren, int x, int y, int width, int height, std::vector<float>& depth);
  void ReadDepth(vtkRenderer* ren, int x, int y, int width, int height, unsigned int pixelBuffer);

  /// Draws premultiplied float RGBA over the viewport with "over" blending;
  /// depth is neither tested nor written, as for VTK's own mapper. The image
  /// comes from host memory, imageWidth x imageHeight (another size than the
  /// viewport's is stretched over it, filtered linearly: ImageSampleDistance),
  /// or from an OpenGL pixel buffer of the viewport's size.
  void Composite(vtkRenderer* ren, int x, int y, int width, int height, int imageWidth,
    int imageHeight, const float* rgba);
  void Composite(vtkRenderer* ren, int x, int y, int width, int height, unsigned int pixelBuffer);
  /// The same with a window depth per image pixel (host memory, the image's
  /// size), written where it is below 1 whatever the framebuffer holds, and
  /// the pixel dropped where it is 1: for a depth compositor that keeps, per
  /// pixel, the rank of the least depth (vtkCudaVolumeMapper's
  /// ProjectionDepth). rgba may be null with a pixel buffer bound.
  void CompositeWithDepth(vtkRenderer* ren, int x, int y, int width, int height, int imageWidth,
    int imageHeight, const float* rgba, unsigned int pixelBuffer, const float* depth);

  void ReleaseGraphicsResources(vtkWindow* window);

private:
  /// The framebuffer holding the scene's depth of the viewport at (x, y):
  /// the one drawn into, or where that is multisampled (which cannot be read
  /// or copied from) a single-sampled copy of its depth, at (0, 0).
  unsigned int DepthSource(vtkRenderer* ren, int& x, int& y, int width, int height);
  // the multisampled depth resolved: a depth (and stencil) texture of the
  // scene's format and the framebuffer it is attached to
  vtkTextureObject* ResolvedDepth = nullptr;
  vtkTextureObject* ResolvedColor = nullptr;
  vtkOpenGLFramebufferObject* ResolveFramebuffer = nullptr;
  int ResolvedFormat = -1;
  void Draw(vtkRenderer* ren, int x, int y, int width, int height, int imageWidth,
    int imageHeight, const void* pixels, const float* depth = nullptr);

  vtkTextureObject* Texture = nullptr;
  vtkOpenGLQuadHelper* Quad = nullptr;
  vtkTextureObject* PixelDepth = nullptr;    // CompositeWithDepth's depths
  vtkOpenGLQuadHelper* DepthWriteQuad = nullptr;
  // the depth on its way to a pixel buffer: copied, then drawn as R32F
  // colour, which reads back at copy speed (reading the depth buffer itself
  // converts it slowly: about 1 ms per megapixel on an H100)
  vtkTextureObject* DepthCopy = nullptr;
  vtkTextureObject* DepthAsColor = nullptr;
  vtkOpenGLFramebufferObject* DepthFramebuffer = nullptr;
  vtkOpenGLQuadHelper* DepthQuad = nullptr;
};

#endif
