// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
#include "cvrStockAliases.h"

#include "vtkCallbackCommand.h"
#include "vtkCommand.h"
#include "vtkNew.h"
#include "vtkSMProperty.h"
#include "vtkSMProxy.h"

#include <cstring>

namespace
{
// The aliases of xml/CudaVolumeRepresentation.xml: "Cuda" + the stock name.
const char* const Aliased[] = { "Shade", "ScalarOpacityUnitDistance", "UseSeparateOpacityArray",
  "OpacityArrayName", "OpacityComponent", "UseTransfer2D", "UseGradientForTransfer2D",
  "ColorArray2Name", "ColorArray2Component", "VolumetricScatteringBlending",
  "GlobalIlluminationReach", "VolumeAnisotropy", "UseCropping" };

void OnPropertyModified(vtkObject* caller, unsigned long, void*, void* callData)
{
  const char* name = static_cast<const char*>(callData);
  auto* proxy = vtkSMProxy::SafeDownCast(caller);
  if (!proxy || !name || std::strncmp(name, "Cuda", 4) != 0)
  {
    return;
  }
  for (const char* stock : Aliased)
  {
    if (std::strcmp(name + 4, stock) == 0)
    {
      vtkSMProperty* alias = proxy->GetProperty(name);
      vtkSMProperty* original = proxy->GetProperty(stock);
      if (alias && original)
      {
        original->Copy(alias); // (back into the alias, unchanged, through ParaView's link)
      }
      return;
    }
  }
}
}

void cvrWatchStockAliases(vtkSMProxy* representation)
{
  if (!representation || !representation->GetProperty("CudaShade"))
  {
    return;
  }
  vtkNew<vtkCallbackCommand> command;
  command->SetCallback(OnPropertyModified);
  representation->AddObserver(vtkCommand::PropertyModifiedEvent, command);
}
