// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// The factory override that makes vtkGPUVolumeRayCastMapper::New() return a
// vtkCudaVolumeMapper. VTK's OpenGL module registers its own override for
// that class and the first enabled override wins, so enabling ours also
// disables VTK's, and disabling ours enables VTK's again.
#include "vtkCudaVolumeMapper.h"

#include "vtkObjectFactory.h"
#include "vtkVersion.h"

#include <cstdlib>
#include <cstring>

namespace
{
const char* const kBase = "vtkGPUVolumeRayCastMapper";
const char* const kOurs = "vtkCudaVolumeMapper";

vtkObject* CreateCudaVolumeMapper()
{
  return vtkCudaVolumeMapper::New();
}

class vtkCudaVolumeMapperFactory : public vtkObjectFactory
{
public:
  static vtkCudaVolumeMapperFactory* New()
  {
    auto* f = new vtkCudaVolumeMapperFactory;
    f->InitializeObjectBase();
    return f;
  }
  vtkTypeMacro(vtkCudaVolumeMapperFactory, vtkObjectFactory);
  const char* GetVTKSourceVersion() override { return VTK_SOURCE_VERSION; }
  const char* GetDescription() override { return "cvr: CUDA volume mapper override"; }

protected:
  vtkCudaVolumeMapperFactory()
  {
    this->RegisterOverride(kBase, kOurs, "cvr CUDA ray caster", 0, CreateCudaVolumeMapper);
  }
};

vtkCudaVolumeMapperFactory* RegisteredFactory()
{
  static vtkCudaVolumeMapperFactory* factory = nullptr;
  if (!factory)
  {
    factory = vtkCudaVolumeMapperFactory::New();
    vtkObjectFactory::RegisterFactory(factory);
    factory->Delete(); // the registry holds it
  }
  return factory;
}

bool enabled = false;

// CVR_OVERRIDE_GPU_VOLUME_MAPPER=1 in the environment turns the override on
// as soon as the library is loaded.
struct EnvironmentSwitch
{
  EnvironmentSwitch()
  {
    const char* v = std::getenv("CVR_OVERRIDE_GPU_VOLUME_MAPPER");
    if (v && *v && std::strcmp(v, "0") != 0)
    {
      vtkCudaVolumeMapper::SetFactoryOverride(true);
    }
  }
} environmentSwitch;
}

void vtkCudaVolumeMapper::SetFactoryOverride(bool enable)
{
  RegisteredFactory();
  // ours on and every other implementation of the class off, or the reverse
  vtkObjectFactory::SetAllEnableFlags(enable ? 0 : 1, kBase);
  vtkObjectFactory::SetAllEnableFlags(enable ? 1 : 0, kBase, kOurs);
  enabled = enable;
}

bool vtkCudaVolumeMapper::GetFactoryOverride()
{
  return enabled;
}
