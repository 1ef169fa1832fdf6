// OpenGL side of vtkCudaVolumeMapper: reads the opaque geometry's depth and
// composites the library's premultiplied image over the framebuffer.
#ifndef vtkCudaVolumeCompositor_h
#define vtkCudaVolumeCompositor_h

#include <vector>

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

  /// Window depths of the renderer's viewport (bottom row first).
  static void ReadDepth(vtkRenderer* ren, int x, int y, int width, int height,
    std::vector<float>& depth);

  /// Draws premultiplied float RGBA over the viewport with "over" blending;
  /// depth is neither tested nor written, as for VTK's own mapper.
  void Composite(vtkRenderer* ren, int x, int y, int width, int height, const float* rgba);

  void ReleaseGraphicsResources(vtkWindow* window);

private:
  vtkTextureObject* Texture = nullptr;
  vtkOpenGLQuadHelper* Quad = nullptr;
};

#endif
