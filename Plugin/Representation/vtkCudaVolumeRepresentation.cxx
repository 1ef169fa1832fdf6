#include "vtkCudaVolumeRepresentation.h"

#include "vtkCudaVolumeMapper.h"
#include "vtkObjectFactory.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

vtkStandardNewMacro(vtkCudaVolumeRepresentation);

namespace
{
// The plugin turns the factory override on where it is loaded, unless the
// environment says CVR_OVERRIDE_GPU_VOLUME_MAPPER=0.
struct OverrideOnLoad
{
  OverrideOnLoad()
  {
    const char* v = std::getenv("CVR_OVERRIDE_GPU_VOLUME_MAPPER");
    vtkCudaVolumeMapper::SetFactoryOverride(!(v && std::strcmp(v, "0") == 0));
  }
} overrideOnLoad;
}

vtkCudaVolumeRepresentation::vtkCudaVolumeRepresentation()
{
  this->CudaMapper = vtkCudaVolumeMapper::New();
  this->VolumeMapper = this->CudaMapper; // the smart pointer holds a reference too
}

vtkCudaVolumeRepresentation::~vtkCudaVolumeRepresentation()
{
  this->CudaMapper->Delete();
}

void vtkCudaVolumeRepresentation::SetBackend(int v)
{
  this->CudaMapper->SetBackend(v);
}
void vtkCudaVolumeRepresentation::SetDeviceIndex(int v)
{
  this->CudaMapper->SetDeviceIndex(v);
}
void vtkCudaVolumeRepresentation::SetStrategy(int v)
{
  this->CudaMapper->SetStrategy(v);
}
void vtkCudaVolumeRepresentation::SetBlockSize(int w, int h)
{
  this->CudaMapper->SetBlockSize(w, h);
}
void vtkCudaVolumeRepresentation::SetEarlyRayTermination(int v)
{
  this->CudaMapper->SetEarlyRayTermination(v);
}
void vtkCudaVolumeRepresentation::SetTerminationOpacity(double v)
{
  this->CudaMapper->SetTerminationOpacity(v);
}
void vtkCudaVolumeRepresentation::SetCpuThreads(int v)
{
  this->CudaMapper->SetCpuThreads(v);
}
void vtkCudaVolumeRepresentation::SetCpuTileSize(int w, int h)
{
  this->CudaMapper->SetCpuTileSize(w, h);
}
void vtkCudaVolumeRepresentation::SetCpuSchedule(int v)
{
  this->CudaMapper->SetCpuSchedule(v);
}
void vtkCudaVolumeRepresentation::SetSampleDistance(double v)
{
  this->CudaMapper->SetSampleDistance(v);
}
void vtkCudaVolumeRepresentation::SetAutoAdjustSampleDistances(int v)
{
  this->CudaMapper->SetAutoAdjustSampleDistances(v);
}

const char* vtkCudaVolumeRepresentation::GetLastFrameStatistics()
{
  char line[512];
  std::snprintf(line, sizeof line, "%s: %.2f ms, %llu rays, %llu samples on %s",
    this->CudaMapper->GetLastConfiguration(), this->CudaMapper->GetLastRenderTimeMs(),
    static_cast<unsigned long long>(this->CudaMapper->GetLastRayCount()),
    static_cast<unsigned long long>(this->CudaMapper->GetLastSampleCount()),
    this->CudaMapper->GetBackendDescription());
  this->Statistics = line;
  return this->Statistics.c_str();
}

int vtkCudaVolumeRepresentation::GetFramesRenderedInProcess()
{
  return static_cast<int>(vtkCudaVolumeMapper::GetNumberOfFramesRendered());
}

void vtkCudaVolumeRepresentation::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "CudaMapper:\n";
  this->CudaMapper->PrintSelf(os, indent.GetNextIndent());
}
