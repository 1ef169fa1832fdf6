// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
// vtkSmartVolumeMapper keeps the GPU mapper it creates protected; the tests
// of the factory override look at it through this subclass.
#ifndef cvrExposedSmartMapper_h
#define cvrExposedSmartMapper_h

#include "vtkObjectFactory.h"
#include "vtkSmartVolumeMapper.h"

namespace cvrTest
{
class ExposedSmartVolumeMapper : public vtkSmartVolumeMapper
{
public:
  static ExposedSmartVolumeMapper* New() { VTK_STANDARD_NEW_BODY(ExposedSmartVolumeMapper); }
  vtkTypeMacro(ExposedSmartVolumeMapper, vtkSmartVolumeMapper);
  vtkGPUVolumeRayCastMapper* GPU() { return this->GetGPUMapper(); }
};
}

#endif
