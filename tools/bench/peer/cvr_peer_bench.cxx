// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// cvr-peer-bench: our mapper against VTK's own, through VTK, on the same
// GPU. Renders a 360-degree orbit of a real volume (or of a cube resampled
// from it) with each mapper in turn, at matched image quality (one sample
// distance, no jittering, one transfer function), times every frame end to
// end (vtkRenderWindow::Render() until OpenGL finished), and checks the
// first frame of each against VTK's OpenGL mapper within the peer tolerance
// of TestCudaVolumePeerMappers. Our mapper also reports where its time went.
//
//   cvr-peer-bench --volume FILE.nii.gz --range LO HI [options]   (--help)
//
// One JSON line per mapper is appended to --out, after a line saying the
// device, date, commit and command. Exit status: 0, 1 when a mapper failed
// or rendered outside the peer tolerance, 2 for bad arguments, 125 when there
// is nothing to measure (no OpenGL context through EGL, no volume file).
#include "cvrEglRenderWindow.h"

#include "cvr_commit.h"
#include "cvr_tools.h"

#include "vtkActor.h"
#include "vtkCamera.h"
#include "vtkColorTransferFunction.h"
#include "vtkCudaVolumeMapper.h"
#include "vtkFixedPointVolumeRayCastMapper.h"
#include "vtkImageCast.h"
#include "vtkImageData.h"
#include "vtkImageResize.h"
#include "vtkNIFTIImageReader.h"
#include "vtkNew.h"
#include "vtkOpenGLGPUVolumeRayCastMapper.h"
#include "vtkOpenGLFramebufferObject.h"
#include "vtkOpenGLRenderWindow.h"
#include "vtkTextureObject.h"
#include "vtkPNGWriter.h"
#include "vtkPiecewiseFunction.h"
#include "vtkPointData.h"
#include "vtkPolyDataMapper.h"
#include "vtkProperty.h"
#include "vtkRenderer.h"
#include "vtkSmartPointer.h"
#include "vtkSphereSource.h"
#include "vtkVolume.h"
#include "vtkVolumeProperty.h"
#include "vtkWindowToImageFilter.h"
#include "vtk_glew.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace
{
struct Options
{
  std::string Volume, Out, Images;
  double Range[2] = { 0, 0 };
  int Resample = 0; // N: an N^3 cube resampled from the volume
  std::string Cast; // the scalars cast to this type (uint8, int16, float32), or as read
  int Size = 1024;
  int Frames = 90;
  int Threads = 0;     // CPU mappers: 0 = all cores
  double Budget = 60;  // seconds per mapper; longer orbits are thinned
  double SampleFactor = 0.5; // sample distance in units of the smallest spacing
  bool Shade = false;
  bool X = false;      // a vtkRenderWindow (X or whatever VTK picks) instead of EGL
  bool ProbeDepth = false;
  bool Opaque = false; // an opaque sphere inside the volume: rays must stop at it
  int Partitions[3] = { 1, 1, 1 }; // VTK's OpenGL mapper: its block streaming (SetPartitions)
  double MaxMemoryMiB = 0;         // ours: MaxMemoryInBytes (bricks past it), 0: as constructed
  std::vector<std::string> Mappers = { "auto", "standard", "standard-host", "block-shape",
    "warp-marching", "slab",
    "opengl", "cpu", "fixed-point" };
};

// Peak resident memory since the last reset (Linux: VmHWM, reset through
// clear_refs), in bytes; 0 where the system does not say.
double PeakMemory()
{
  double kb = 0.0;
  if (FILE* f = std::fopen("/proc/self/status", "r"))
  {
    char line[256];
    while (std::fgets(line, sizeof line, f))
    {
      if (!std::strncmp(line, "VmHWM:", 6))
      {
        kb = std::atof(line + 6);
      }
    }
    std::fclose(f);
  }
  return kb * 1024.0;
}

void ResetPeakMemory()
{
  if (FILE* f = std::fopen("/proc/self/clear_refs", "w"))
  {
    std::fputs("5", f);
    std::fclose(f);
  }
}

void Usage()
{
  std::printf(
    "usage: cvr-peer-bench --volume FILE.nii.gz --range LO HI [options]\n"
    "  --resample N     render an N^3 cube resampled (trilinear) from the volume\n"
    "  --cast TYPE      the scalars cast to uint8, int16 or float32 (after resampling)\n"
    "  --size W         image W x W (1024)\n"
    "  --frames F       orbit frames over 360 degrees (90)\n"
    "  --mappers LIST   comma-separated, in order (all): auto, standard, block-shape,\n"
    "                   warp-marching, slab (ours, CUDA), standard-host (standard with\n"
    "                   its image through host memory, checked to render standard's\n"
    "                   image exactly), cpu (ours, CPU), opengl\n"
    "                   (vtkOpenGLGPUVolumeRayCastMapper), fixed-point\n"
    "                   (vtkFixedPointVolumeRayCastMapper)\n"
    "  --threads T      threads of the CPU mappers (0: all cores)\n"
    "  --sample-factor F  sample distance = F x the smallest voxel spacing (0.5)\n"
    "  --budget S       seconds per mapper: slower orbits render fewer, evenly spaced frames (60)\n"
    "  --shade          Phong shading under the headlight\n"
    "  --opaque         an opaque sphere in the volume's centre (the mappers read depth)\n"
    "  --partitions X,Y,Z  VTK's OpenGL mapper renders the volume in X x Y x Z\n"
    "                   partitions uploaded in turn each frame (SetPartitions)\n"
    "  --max-memory MIB ours (CUDA): MaxMemoryInBytes = MIB MiB, MaxMemoryFraction 1:\n"
    "                   a larger volume renders from bricks streamed through that much\n"
    "  --x              a plain vtkRenderWindow (X display) instead of an EGL context\n"
    "  --probe-depth    first time reading the window's depth into a pixel buffer in\n"
    "                   each format OpenGL offers (what the mapper's depth read costs)\n"
    "  --out FILE       JSON lines appended (results.jsonl)\n"
    "  --images DIR     each mapper's first frame as PNG\n");
}

bool Parse(int argc, char** argv, Options& o)
{
  o.Out = "results.jsonl";
  for (int i = 1; i < argc; ++i)
  {
    const std::string a = argv[i];
    auto next = [&](const char* what) -> const char* {
      if (i + 1 >= argc)
      {
        std::fprintf(stderr, "cvr-peer-bench: %s needs %s\n", a.c_str(), what);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--volume")
      o.Volume = next("a file");
    else if (a == "--range")
    {
      o.Range[0] = std::atof(next("two values"));
      o.Range[1] = std::atof(next("two values"));
    }
    else if (a == "--resample")
      o.Resample = std::atoi(next("a size"));
    else if (a == "--cast")
      o.Cast = next("a type");
    else if (a == "--size")
      o.Size = std::atoi(next("a size"));
    else if (a == "--frames")
      o.Frames = std::atoi(next("a count"));
    else if (a == "--threads")
      o.Threads = std::atoi(next("a count"));
    else if (a == "--sample-factor")
      o.SampleFactor = std::atof(next("a factor"));
    else if (a == "--budget")
      o.Budget = std::atof(next("seconds"));
    else if (a == "--shade")
      o.Shade = true;
    else if (a == "--x")
      o.X = true;
    else if (a == "--probe-depth")
      o.ProbeDepth = true;
    else if (a == "--partitions")
    {
      const char* v = next("X,Y,Z");
      if (std::sscanf(v, "%d,%d,%d", &o.Partitions[0], &o.Partitions[1], &o.Partitions[2]) != 3 ||
        o.Partitions[0] < 1 || o.Partitions[1] < 1 || o.Partitions[2] < 1)
      {
        Usage();
        return false;
      }
    }
    else if (a == "--max-memory")
    {
      o.MaxMemoryMiB = std::atof(next("MiB"));
      if (!(o.MaxMemoryMiB > 0.0))
      {
        Usage();
        return false;
      }
    }
    else if (a == "--opaque")
      o.Opaque = true;
    else if (a == "--out")
      o.Out = next("a file");
    else if (a == "--images")
      o.Images = next("a directory");
    else if (a == "--mappers")
    {
      o.Mappers.clear();
      std::string list = next("a list");
      for (size_t start = 0; start <= list.size();)
      {
        const size_t comma = std::min(list.find(',', start), list.size());
        o.Mappers.push_back(list.substr(start, comma - start));
        start = comma + 1;
      }
    }
    else
    {
      Usage();
      std::exit(a == "--help" ? 0 : 2);
    }
  }
  if (o.Volume.empty() || !(o.Range[0] < o.Range[1]) || o.Size < 16 || o.Frames < 1 ||
    !(o.SampleFactor > 0.0))
  {
    Usage();
    return false;
  }
  return true;
}

double NowMs()
{
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double, std::milli>(clock::now().time_since_epoch()).count();
}

double Percentile(std::vector<double> v, double p)
{
  if (v.empty())
  {
    return 0.0;
  }
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5));
  return v[i];
}

// The peer tolerance of TestCudaVolumePeerMappers, in 8-bit levels.
struct Tolerance
{
  int Threshold;
  double MaxMean, MaxOver;
};

Tolerance ToleranceFor(const std::string& mapper, bool shade)
{
  if (mapper == "fixed-point") // it quantizes scalars and opacities to 15 bits
  {
    return { 24, 1.5, 0.02 };
  }
  return shade ? Tolerance{ 8, 1.0, 0.03 } : Tolerance{ 8, 0.5, 0.01 };
}

vtkSmartPointer<vtkImageData> Grab(vtkRenderWindow* window)
{
  vtkNew<vtkWindowToImageFilter> grab;
  grab->SetInput(window);
  grab->SetInputBufferTypeToRGBA();
  grab->ReadFrontBufferOff();
  grab->Update();
  auto image = vtkSmartPointer<vtkImageData>::New();
  image->DeepCopy(grab->GetOutput());
  return image;
}

cvr_tools_image_diff Compare(vtkImageData* a, vtkImageData* b, int threshold)
{
  return cvr_tools_compare_rgba8(static_cast<const uint8_t*>(a->GetScalarPointer()),
    static_cast<const uint8_t*>(b->GetScalarPointer()), a->GetNumberOfPoints(), threshold);
}

// A maximum intensity frame with the extremes written as depth
// (ProjectionDepth, what a depth compositor reads under MPI): its colours
// and the window's depths. The mapper is left as it was.
struct DepthFrame
{
  vtkSmartPointer<vtkImageData> Image;
  std::vector<float> Depth;
};

DepthFrame ProjectionDepthFrame(vtkRenderWindow* window, vtkCudaVolumeMapper* mapper)
{
  const int blend = mapper->GetBlendMode();
  mapper->SetBlendMode(vtkVolumeMapper::MAXIMUM_INTENSITY_BLEND);
  mapper->SetProjectionDepth(1);
  window->Render();
  glFinish();
  DepthFrame f;
  f.Image = Grab(window);
  const int* size = window->GetSize();
  f.Depth.resize(static_cast<size_t>(size[0]) * size[1]);
  window->GetZbufferData(0, 0, size[0] - 1, size[1] - 1, f.Depth.data());
  mapper->SetProjectionDepth(0);
  mapper->SetBlendMode(blend);
  return f;
}

// A mapper configured for matched quality: sample distance dt, no jittering,
// no automatic adjustment of distances or image sampling.
vtkSmartPointer<vtkVolumeMapper> MakeMapper(
  const std::string& name, double dt, const Options& o, const std::string& tuningCache)
{
  const int threads = o.Threads;
  if (name == "opengl")
  {
    auto m = vtkSmartPointer<vtkOpenGLGPUVolumeRayCastMapper>::New();
    m->SetAutoAdjustSampleDistances(0);
    m->SetSampleDistance(static_cast<float>(dt));
    m->SetUseJittering(0);
    if (o.Partitions[0] * o.Partitions[1] * o.Partitions[2] > 1)
    {
      m->SetPartitions(static_cast<unsigned short>(o.Partitions[0]),
        static_cast<unsigned short>(o.Partitions[1]), static_cast<unsigned short>(o.Partitions[2]));
    }
    return m;
  }
  if (name == "fixed-point")
  {
    auto m = vtkSmartPointer<vtkFixedPointVolumeRayCastMapper>::New();
    m->SetAutoAdjustSampleDistances(0);
    m->SetSampleDistance(static_cast<float>(dt));
    m->SetInteractiveSampleDistance(static_cast<float>(dt));
    m->SetImageSampleDistance(1.0f);
    if (threads > 0)
    {
      m->SetNumberOfThreads(threads);
    }
    return m;
  }
  auto m = vtkSmartPointer<vtkCudaVolumeMapper>::New();
  m->SetTuningCacheDirectory(tuningCache.c_str());
  m->SetAutoAdjustSampleDistances(0);
  m->SetSampleDistance(static_cast<float>(dt));
  if (name == "cpu")
  {
    m->SetBackend(vtkCudaVolumeMapper::BACKEND_CPU);
    m->SetCpuThreads(threads);
    return m;
  }
  m->SetBackend(vtkCudaVolumeMapper::BACKEND_CUDA);
  if (o.MaxMemoryMiB > 0.0)
  {
    m->SetMaxMemoryInBytes(static_cast<vtkIdType>(o.MaxMemoryMiB * 1048576.0));
    m->SetMaxMemoryFraction(1.0f);
  }
  if (name == "standard-host") // the image through host memory, for comparison
  {
    m->SetGraphicsInterop(0);
    m->SetStrategy(vtkCudaVolumeMapper::STRATEGY_STANDARD);
  }
  else if (name == "auto")
    m->SetStrategy(vtkCudaVolumeMapper::STRATEGY_AUTO);
  else if (name == "standard")
    m->SetStrategy(vtkCudaVolumeMapper::STRATEGY_STANDARD);
  else if (name == "block-shape")
    m->SetStrategy(vtkCudaVolumeMapper::STRATEGY_BLOCK_SHAPE);
  else if (name == "warp-marching")
    m->SetStrategy(vtkCudaVolumeMapper::STRATEGY_WARP_MARCHING);
  else if (name == "slab")
    m->SetStrategy(vtkCudaVolumeMapper::STRATEGY_SLAB);
  else
    return nullptr;
  return m;
}

// AUTO starts from an empty table in every run: a directory of its own,
// removed at the end.
struct TemporaryDirectory
{
  std::string Path;
  TemporaryDirectory()
  {
    char path[] = "/tmp/cvr-peer-bench-XXXXXX";
    if (mkdtemp(path))
    {
      this->Path = path;
    }
  }
  ~TemporaryDirectory()
  {
    DIR* dir = this->Path.empty() ? nullptr : opendir(this->Path.c_str());
    if (!dir)
    {
      return;
    }
    while (dirent* entry = readdir(dir))
    {
      if (entry->d_name[0] != '.')
      {
        unlink((this->Path + "/" + entry->d_name).c_str());
      }
    }
    closedir(dir);
    rmdir(this->Path.c_str());
  }
};

// How long glReadPixels of the render framebuffer's depth into a pixel
// buffer takes, per format, until OpenGL finished it.
void ProbeDepthRead(vtkRenderWindow* window, int size)
{
  auto* gl = vtkOpenGLRenderWindow::SafeDownCast(window);
  vtkOpenGLFramebufferObject* fbo = gl ? gl->GetRenderFramebuffer() : nullptr;
  vtkTextureObject* depth = fbo ? fbo->GetDepthAttachmentAsTextureObject() : nullptr;
  if (!depth)
  {
    std::printf("depth probe: no render framebuffer with a depth texture\n");
    return;
  }
  std::printf("depth probe: render framebuffer depth internal format 0x%x, %dx%d\n",
    depth->GetInternalFormat(depth->GetDataType(0), depth->GetComponents(), false),
    static_cast<int>(depth->GetWidth()), static_cast<int>(depth->GetHeight()));
  fbo->Bind(GL_READ_FRAMEBUFFER);
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, buffer);
  glBufferData(GL_PIXEL_PACK_BUFFER, static_cast<size_t>(size) * size * 4, nullptr, GL_STREAM_COPY);
  struct Format
  {
    const char* Name;
    GLenum Format, Type;
  } formats[] = { { "DEPTH_COMPONENT/FLOAT", GL_DEPTH_COMPONENT, GL_FLOAT },
    { "DEPTH_COMPONENT/UNSIGNED_INT", GL_DEPTH_COMPONENT, GL_UNSIGNED_INT },
    { "DEPTH_STENCIL/UNSIGNED_INT_24_8", GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8 },
    { "DEPTH_STENCIL/FLOAT_32_UNSIGNED_INT_24_8_REV", GL_DEPTH_STENCIL,
      GL_FLOAT_32_UNSIGNED_INT_24_8_REV } };
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  for (const Format& f : formats)
  {
    if (f.Type == GL_FLOAT_32_UNSIGNED_INT_24_8_REV)
    {
      glBufferData(GL_PIXEL_PACK_BUFFER, static_cast<size_t>(size) * size * 8, nullptr, GL_STREAM_COPY);
    }
    std::vector<double> call, done;
    for (int i = 0; i < 12; ++i)
    {
      glFinish();
      const double start = NowMs();
      glReadPixels(0, 0, size, size, f.Format, f.Type, nullptr);
      call.push_back(NowMs() - start);
      glFinish();
      done.push_back(NowMs() - start);
    }
    const GLenum error = glGetError();
    std::printf("depth probe: %-44s call %.3f ms, finished %.3f ms (median)%s\n", f.Name,
      Percentile(call, 0.5), Percentile(done, 0.5), error ? " (GL error)" : "");
  }
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glDeleteBuffers(1, &buffer);
  fbo->UnBind(GL_READ_FRAMEBUFFER);
}

std::string JsonList(const std::vector<double>& v)
{
  std::string s = "[";
  char number[32];
  for (size_t i = 0; i < v.size(); ++i)
  {
    std::snprintf(number, sizeof number, "%s%.3f", i ? "," : "", v[i]);
    s += number;
  }
  return s + "]";
}

std::string Escaped(const std::string& text)
{
  std::string s;
  for (char c : text)
  {
    if (c == '"' || c == '\\')
      s += '\\';
    s += c;
  }
  return s;
}
}

int main(int argc, char** argv)
{
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  Options o;
  if (!Parse(argc, argv, o))
  {
    return 2;
  }

  // ---- the window: EGL on the GPU unless told otherwise
  vtkSmartPointer<vtkRenderWindow> window;
  std::string windowInfo;
  if (o.X)
  {
    window = vtkSmartPointer<vtkRenderWindow>::New();
    window->SetSize(o.Size, o.Size);
    window->SetMultiSamples(0);
    window->SetOffScreenRendering(1);
    windowInfo = "vtkRenderWindow";
  }
  else
  {
    vtkNew<cvrEglRenderWindow> egl;
    if (!egl->HasContext())
    {
      std::fprintf(stderr, "cvr-peer-bench: no OpenGL context through EGL: %s\n", egl->GetError().c_str());
      return 125;
    }
    egl->SetSize(o.Size, o.Size);
    egl->SetMultiSamples(0);
    window = egl.Get();
    windowInfo = egl->GetDescription();
  }
  vtkNew<vtkRenderer> renderer;
  renderer->SetBackground(0.1, 0.1, 0.15);
  window->AddRenderer(renderer);
  window->Render(); // creates the context's VTK state before any mapper
  const char* glRenderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const char* glVersion = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  if (!glRenderer || !glVersion)
  {
    std::fprintf(stderr, "cvr-peer-bench: VTK did not initialize OpenGL in the window\n");
    return 1;
  }
  std::printf("OpenGL: %s, %s (%s)\n", glRenderer, glVersion, windowInfo.c_str());
  if (o.ProbeDepth)
  {
    ProbeDepthRead(window, o.Size);
  }

  // ---- the volume
  if (FILE* f = std::fopen(o.Volume.c_str(), "rb"))
  {
    std::fclose(f);
  }
  else
  {
    std::fprintf(stderr, "cvr-peer-bench: no file %s\n", o.Volume.c_str());
    return 125;
  }
  vtkNew<vtkNIFTIImageReader> reader;
  reader->SetFileName(o.Volume.c_str());
  reader->Update();
  vtkSmartPointer<vtkImageData> image = reader->GetOutput();
  if (!image || image->GetNumberOfPoints() < 8 || !image->GetPointData()->GetScalars())
  {
    std::fprintf(stderr, "cvr-peer-bench: cannot read a volume from %s\n", o.Volume.c_str());
    return 1;
  }
  std::string name = o.Volume.substr(o.Volume.find_last_of('/') + 1);
  std::string source = "file";
  if (o.Resample > 1)
  {
    // the same physical extent on an N^3 lattice: the data look the same and
    // the sample distance follows the spacing
    vtkNew<vtkImageResize> resize;
    resize->SetInputData(image);
    resize->SetResizeMethodToOutputDimensions();
    resize->SetOutputDimensions(o.Resample, o.Resample, o.Resample);
    resize->InterpolateOn();
    const double start = NowMs();
    resize->Update();
    image = resize->GetOutput();
    source = "resampled (trilinear) from " + name;
    std::printf("resampled to %d^3 in %.1f s\n", o.Resample, 1e-3 * (NowMs() - start));
  }
  if (!o.Cast.empty())
  {
    const int type = o.Cast == "uint8" ? VTK_UNSIGNED_CHAR
      : o.Cast == "int16"              ? VTK_SHORT
      : o.Cast == "float32"            ? VTK_FLOAT
                                       : -1;
    if (type < 0)
    {
      std::fprintf(stderr, "cvr-peer-bench: --cast %s: uint8, int16 or float32\n", o.Cast.c_str());
      return 2;
    }
    vtkNew<vtkImageCast> cast;
    cast->SetInputData(image);
    cast->SetOutputScalarType(type);
    cast->Update();
    image = cast->GetOutput();
    source += ", cast to " + o.Cast;
  }
  int dims[3];
  double spacing[3];
  image->GetDimensions(dims);
  image->GetSpacing(spacing);
  const double dt = o.SampleFactor * std::min(spacing[0], std::min(spacing[1], spacing[2]));
  const char* typeName = image->GetScalarTypeAsString();

  vtkNew<vtkColorTransferFunction> color;
  const double lo = o.Range[0], hi = o.Range[1];
  color->AddRGBPoint(lo, 0.35, 0.12, 0.05);
  color->AddRGBPoint(0.5 * (lo + hi), 0.68, 0.32, 0.16);
  color->AddRGBPoint(hi, 1.0, 0.92, 0.95);
  vtkNew<vtkPiecewiseFunction> opacity;
  opacity->AddPoint(lo, 0.0);
  opacity->AddPoint(hi, 0.5);
  vtkNew<vtkVolumeProperty> property;
  property->SetColor(color);
  property->SetScalarOpacity(opacity);
  property->SetInterpolationTypeToLinear();
  property->SetShade(o.Shade);
  vtkNew<vtkVolume> volume;
  volume->SetProperty(property);
  renderer->AddVolume(volume);
  if (o.Opaque)
  {
    double bounds[6];
    image->GetBounds(bounds);
    vtkNew<vtkSphereSource> sphere;
    sphere->SetCenter(0.5 * (bounds[0] + bounds[1]), 0.5 * (bounds[2] + bounds[3]),
      0.5 * (bounds[4] + bounds[5]));
    sphere->SetRadius(0.2 * (bounds[1] - bounds[0]));
    sphere->SetThetaResolution(48);
    sphere->SetPhiResolution(48);
    vtkNew<vtkPolyDataMapper> sphereMapper;
    sphereMapper->SetInputConnection(sphere->GetOutputPort());
    vtkNew<vtkActor> actor;
    actor->SetMapper(sphereMapper);
    actor->GetProperty()->SetColor(0.2, 0.5, 0.9);
    renderer->AddActor(actor);
  }

  FILE* out = std::fopen(o.Out.c_str(), "a");
  if (!out)
  {
    std::fprintf(stderr, "cvr-peer-bench: cannot write %s\n", o.Out.c_str());
    return 1;
  }
  const std::string device = std::string(glRenderer) + ", OpenGL " + glVersion;
  cvr_tools_write_meta(out, Escaped(device).c_str(), CVR_GIT_COMMIT, argc, argv);
  std::fflush(out);

  // ---- each mapper: a first frame (uploads), its image, then the orbit
  vtkSmartPointer<vtkImageData> reference; // VTK's OpenGL mapper's first frame
  std::string referenceName;
  std::vector<std::string> order = o.Mappers;
  // the OpenGL mapper goes first: it is what the others are checked against
  std::stable_partition(order.begin(), order.end(), [](const std::string& m) { return m == "opengl"; });
  int failures = 0;
  TemporaryDirectory tuningCache;
  std::map<std::string, vtkSmartPointer<vtkImageData>> firstFrames;
  std::map<std::string, DepthFrame> depthFrames;
  for (const std::string& mapperName : order)
  {
    vtkSmartPointer<vtkVolumeMapper> mapper =
      MakeMapper(mapperName, dt, o, tuningCache.Path);
    if (!mapper)
    {
      std::fprintf(stderr, "cvr-peer-bench: unknown mapper '%s'\n", mapperName.c_str());
      return 2;
    }
    auto* ours = vtkCudaVolumeMapper::SafeDownCast(mapper);
    mapper->SetInputData(image);
    volume->SetMapper(mapper);
    vtkCamera* camera = renderer->GetActiveCamera();
    auto setView = [&](double azimuth) {
      camera->SetFocalPoint(0, 0, 0);
      camera->SetViewUp(0, 1, 0);
      camera->SetPosition(0, 0, 1);
      camera->Azimuth(azimuth);
      camera->Elevation(20);
      camera->OrthogonalizeViewUp();
      renderer->ResetCamera(); // keeps the direction, fits the volume
    };
    setView(0);
    ResetPeakMemory();
    const double baseBytes = PeakMemory();
    double start = NowMs();
    window->Render();
    glFinish();
    const double firstMs = NowMs() - start;
    // host memory the first frame added at its peak (the input is resident)
    const double firstPeakGiB = (PeakMemory() - baseBytes) / 1073741824.0;
    const double firstUploadMs = ours ? ours->GetLastUploadTimeMs() : 0.0;
    if (ours && ours->GetLastConfiguration()[0] == '\0')
    {
      std::fprintf(stderr, "cvr-peer-bench: %s rendered nothing (%s)\n", mapperName.c_str(),
        ours->GetBackendDescription());
      ++failures;
      continue;
    }
    vtkSmartPointer<vtkImageData> frame = Grab(window);
    if (!o.Images.empty())
    {
      vtkNew<vtkPNGWriter> png;
      png->SetFileName((o.Images + "/" + name + "-" + std::to_string(dims[0]) + "-" +
        std::to_string(o.Size) + "-" + mapperName + ".png").c_str());
      png->SetInputData(frame);
      png->Write();
    }
    std::string check = "null";
    firstFrames[mapperName] = frame;
    if (mapperName == "standard" || mapperName == "standard-host")
    {
      depthFrames[mapperName] = ProjectionDepthFrame(window, ours);
    }
    if (mapperName == "standard-host" && depthFrames.count("standard"))
    {
      // the extremes as depth through interop and through host memory: the
      // same colours and the same depths, and depths where the volume is
      const DepthFrame& a = depthFrames["standard"];
      const DepthFrame& b = depthFrames["standard-host"];
      const cvr_tools_image_diff d = Compare(a.Image, b.Image, 0);
      size_t apart = 0, near = 0;
      for (size_t i = 0; i < a.Depth.size(); ++i)
      {
        apart += a.Depth[i] != b.Depth[i];
        near += a.Depth[i] < 1.0f;
      }
      const bool ok = d.max_diff == 0 && apart == 0 && near > a.Depth.size() / 100;
      failures += !ok;
      std::printf("  maximum intensity with its extremes as depth, interop vs host memory: "
                  "largest colour difference %d levels, %zu of %zu depths apart, %zu below 1: %s\n",
        d.max_diff, apart, a.Depth.size(), near, ok ? "ok" : "NOT THE SAME");
    }
    if (mapperName == "standard-host" && firstFrames.count("standard"))
    {
      // one kernel, two ways to the framebuffer: the same pixels
      const cvr_tools_image_diff d = Compare(frame, firstFrames["standard"], 0);
      const bool ok = d.max_diff == 0;
      failures += !ok;
      std::printf("  %-14s vs standard: largest difference %d levels: %s\n", mapperName.c_str(),
        d.max_diff, ok ? "ok" : "NOT THE SAME IMAGE");
      char text[160];
      std::snprintf(text, sizeof text,
        "{\"against\":\"standard\",\"max\":%d,\"mean\":%.4f,\"ok\":%s}", d.max_diff,
        d.mean_diff, ok ? "true" : "false");
      check = text;
    }
    else if (mapperName == "opengl")
    {
      reference = frame;
      referenceName = mapperName;
    }
    else if (reference)
    {
      const Tolerance t = ToleranceFor(mapperName, o.Shade);
      const cvr_tools_image_diff d = Compare(frame, reference, t.Threshold);
      const bool ok = d.mean_diff <= t.MaxMean && d.over_fraction <= t.MaxOver;
      failures += !ok;
      char text[200];
      std::snprintf(text, sizeof text,
        "{\"against\":\"%s\",\"mean\":%.3f,\"over\":%.5f,\"threshold\":%d,\"max_mean\":%g,"
        "\"max_over\":%g,\"ok\":%s}",
        referenceName.c_str(), d.mean_diff, d.over_fraction, t.Threshold, t.MaxMean, t.MaxOver,
        ok ? "true" : "false");
      check = text;
      std::printf("  %-14s vs %s: mean %.3f levels, %.3f%% over %d: %s\n", mapperName.c_str(),
        referenceName.c_str(), d.mean_diff, 100.0 * d.over_fraction, t.Threshold,
        ok ? "ok" : "OUTSIDE THE PEER TOLERANCE");
    }

    // the orbit, thinned to the budget from the first frame's time
    int frames = o.Frames;
    const double estimateMs = std::max(firstMs * 0.5, 0.01);
    if (frames * estimateMs > 1e3 * o.Budget)
    {
      frames = std::max(4, static_cast<int>(1e3 * o.Budget / estimateMs));
      frames = std::min(frames, o.Frames);
    }
    std::vector<double> frameMs, kernelMs, depthMs, renderMs, transferMs, compositeMs;
    for (int f = 0; f < frames; ++f)
    {
      setView(360.0 * f / frames);
      start = NowMs();
      window->Render();
      glFinish();
      frameMs.push_back(NowMs() - start);
      if (ours)
      {
        kernelMs.push_back(ours->GetLastRenderTimeMs());
        depthMs.push_back(ours->GetLastDepthReadTimeMs());
        renderMs.push_back(ours->GetLastRenderCallTimeMs());
        transferMs.push_back(ours->GetLastTransferTimeMs());
        compositeMs.push_back(ours->GetLastCompositeTimeMs());
      }
    }
    const double median = Percentile(frameMs, 0.5);
    std::string description = mapperName == "opengl" ? "vtkOpenGLGPUVolumeRayCastMapper"
      : mapperName == "fixed-point"                  ? "vtkFixedPointVolumeRayCastMapper"
                                                     : ours->GetLastConfiguration();
    std::printf("%-14s %-50.50s first %8.1f ms, median %8.2f ms (%7.1f fps) over %d frames\n",
      mapperName.c_str(), description.c_str(), firstMs, median, 1e3 / median, frames);
    std::fprintf(out,
      "{\"bench\":\"peer\",\"volume\":\"%s\",\"source\":\"%s\",\"dims\":[%d,%d,%d],"
      "\"type\":\"%s\",\"image\":%d,\"shade\":%s,\"opaque\":%s,\"sample_distance\":%g,\"mapper\":\"%s\","
      "\"description\":\"%s\",\"threads\":%d,\"first_frame_ms\":%.3f,"
      "\"first_frame_peak_host_gib\":%.3f,\"input_gib\":%.3f,\"frames\":%d,"
      "\"median_ms\":%.3f,\"p95_ms\":%.3f,\"frame_ms\":%s",
      name.c_str(), source.c_str(), dims[0], dims[1], dims[2], typeName, o.Size,
      o.Shade ? "true" : "false", o.Opaque ? "true" : "false", dt, mapperName.c_str(), Escaped(description).c_str(), o.Threads,
      firstMs, firstPeakGiB, image->GetPointData()->GetScalars()->GetActualMemorySize() / 1048576.0,
      frames, median, Percentile(frameMs, 0.95), JsonList(frameMs).c_str());
    if (ours)
    {
      std::fprintf(out,
        ",\"backend\":\"%s\",\"image_transfer\":\"%s\",\"stages\":{\"first_upload_ms\":%.3f,\"kernel_ms\":%.3f,"
        "\"transfer_ms\":%.3f,\"render_call_ms\":%.3f,\"depth_read_ms\":%.3f,\"composite_ms\":%.3f},"
        "\"max_memory_mib\":%g,\"bricks\":%d,\"bricks_drawn\":%d,\"bricks_loaded\":%d,"
        "\"brick_mib_loaded\":%.1f,\"brick_load_ms\":%.3f",
        Escaped(ours->GetBackendDescription()).c_str(),
        Escaped(ours->GetLastImageTransfer()).c_str(), firstUploadMs, Percentile(kernelMs, 0.5),
        Percentile(transferMs, 0.5), Percentile(renderMs, 0.5), Percentile(depthMs, 0.5),
        Percentile(compositeMs, 0.5), o.MaxMemoryMiB, ours->GetLastBrickCount(),
        ours->GetLastBricksDrawn(), ours->GetLastBricksLoaded(),
        ours->GetLastBrickBytesLoaded() / 1048576.0, ours->GetLastBrickLoadTimeMs());
    }
    else if (mapperName == "opengl")
    {
      std::fprintf(out, ",\"partitions\":[%d,%d,%d]", o.Partitions[0], o.Partitions[1],
        o.Partitions[2]);
    }
    std::fprintf(out, ",\"check\":%s}\n", check.c_str());
    std::fflush(out);
    volume->SetMapper(nullptr);
    mapper->ReleaseGraphicsResources(window);
  }
  std::fclose(out);
  return failures ? 1 : 0;
}
