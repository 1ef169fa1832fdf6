// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
#include "cvrColorArrayPicker.h"
#include "cvrStockAliases.h"

#include "vtkCallbackCommand.h"
#include "vtkCommand.h"
#include "vtkDataObject.h"
#include "vtkNew.h"
#include "vtkSMArrayListDomain.h"
#include "vtkSMPVRepresentationProxy.h"
#include "vtkSMProperty.h"
#include "vtkSMPropertyHelper.h"
#include "vtkSMProxyIterator.h"
#include "vtkSMProxyManager.h"
#include "vtkSMSessionProxyManager.h"

#include <cstring>

namespace
{
// A representation whose type was pushed waits for the end of that push
// (UpdateEvent): colouring it sets and pushes other properties, which a
// proxy does not do while it is pushing (vtkSMProxy::UpdateVTKObjects).
struct TypeChange
{
  bool Pushed = false;
};

void OnRepresentationEvent(vtkObject* caller, unsigned long event, void* clientData, void* callData)
{
  auto* change = static_cast<TypeChange*>(clientData);
  if (event == vtkCommand::UpdatePropertyEvent)
  {
    const char* name = static_cast<const char*>(callData);
    change->Pushed = change->Pushed || (name && std::strcmp(name, "Representation") == 0);
  }
  else if (event == vtkCommand::UpdateEvent && change->Pushed)
  {
    change->Pushed = false;
    cvrPickColorArray(vtkSMProxy::SafeDownCast(caller));
  }
}

void Watch(vtkSMProxy* proxy)
{
  if (!vtkSMPVRepresentationProxy::SafeDownCast(proxy) || !proxy->GetProperty("Representation"))
  {
    return;
  }
  vtkNew<vtkCallbackCommand> command;
  command->SetCallback(OnRepresentationEvent);
  command->SetClientData(new TypeChange);
  command->SetClientDataDeleteCallback([](void* data) { delete static_cast<TypeChange*>(data); });
  proxy->AddObserver(vtkCommand::UpdatePropertyEvent, command);
  proxy->AddObserver(vtkCommand::UpdateEvent, command);
  cvrWatchStockAliases(proxy);
  // one that is a CUDA Volume already (a state loaded before the plugin)
  cvrPickColorArray(proxy);
}

void OnProxyRegistered(vtkObject*, unsigned long, void*, void* callData)
{
  const auto* info = static_cast<vtkSMProxyManager::RegisteredProxyInformation*>(callData);
  if (info && info->Type == vtkSMProxyManager::RegisteredProxyInformation::PROXY &&
    info->GroupName && std::strcmp(info->GroupName, "representations") == 0)
  {
    Watch(info->Proxy);
  }
}
}

void cvrInstallColorArrayPicker()
{
  if (!vtkSMProxyManager::IsInitialized())
  {
    return;
  }
  vtkSMProxyManager* manager = vtkSMProxyManager::GetProxyManager();
  vtkNew<vtkCallbackCommand> command;
  command->SetCallback(OnProxyRegistered);
  manager->AddObserver(vtkCommand::RegisterEvent, command);

  if (vtkSMSessionProxyManager* session = manager->GetActiveSessionProxyManager())
  {
    vtkNew<vtkSMProxyIterator> it;
    it->SetSessionProxyManager(session);
    it->SetModeToOneGroup();
    for (it->Begin("representations"); !it->IsAtEnd(); it->Next())
    {
      Watch(it->GetProxy());
    }
  }
}

bool cvrPickColorArray(vtkSMProxy* proxy)
{
  auto* representation = vtkSMPVRepresentationProxy::SafeDownCast(proxy);
  if (!representation || !representation->GetProperty("Representation"))
  {
    return false;
  }
  const char* type = vtkSMPropertyHelper(representation, "Representation").GetAsString();
  if (!type || std::strcmp(type, "CUDA Volume") != 0 || representation->GetUsingScalarColoring())
  {
    return false;
  }
  vtkSMProperty* colorArray = representation->GetProperty("ColorArrayName");
  auto* arrays = colorArray ? colorArray->FindDomain<vtkSMArrayListDomain>() : nullptr;
  if (!arrays || arrays->GetNumberOfStrings() == 0)
  {
    return false;
  }
  unsigned int chosen = 0; // a point array if there is one: it interpolates
  for (unsigned int i = 0; i < arrays->GetNumberOfStrings(); ++i)
  {
    if (arrays->GetFieldAssociation(i) == vtkDataObject::POINT)
    {
      chosen = i;
      break;
    }
  }
  if (!representation->SetScalarColoring(
        arrays->GetString(chosen), arrays->GetFieldAssociation(chosen)))
  {
    return false;
  }
  representation->RescaleTransferFunctionToDataRange(true); // as ParaView does for Volume
  representation->UpdateVTKObjects();
  return true;
}
