#include "pqCudaVolumeColorPicker.h"

#include "pqApplicationCore.h"
#include "pqRepresentation.h"
#include "pqServerManagerModel.h"
#include "pqView.h"
#include "vtkCommand.h"
#include "vtkDataObject.h"
#include "vtkSMArrayListDomain.h"
#include "vtkSMPVRepresentationProxy.h"
#include "vtkSMProperty.h"
#include "vtkSMPropertyHelper.h"
#include "vtkSmartPointer.h"

#include <QTimer>

#include <cstring>

namespace
{
// Watches one representation's type; a child of its pqRepresentation, so it
// goes (and stops observing) with it, while the proxy is still alive.
class TypeWatcher : public QObject
{
public:
  TypeWatcher(pqRepresentation* representation, vtkSMProperty* type)
    : QObject(representation)
    , Representation(representation)
    , Type(type)
  {
    this->Tag = type->AddObserver(vtkCommand::ModifiedEvent, this, &TypeWatcher::OnModified);
  }
  ~TypeWatcher() override { this->Type->RemoveObserver(this->Tag); }

private:
  void OnModified(vtkObject*, unsigned long, void*)
  {
    // after the change that switched the type has been pushed
    QTimer::singleShot(0, this,
      [this]()
      {
        if (pqCudaVolumeColorPicker::PickColorArray(this->Representation->getProxy()) &&
          this->Representation->getView())
        {
          this->Representation->getView()->render();
        }
      });
  }

  pqRepresentation* Representation;
  vtkSmartPointer<vtkSMProperty> Type;
  unsigned long Tag = 0;
};
}

pqCudaVolumeColorPicker::pqCudaVolumeColorPicker(QObject* parent)
  : QObject(parent)
{
}

pqCudaVolumeColorPicker::~pqCudaVolumeColorPicker() = default;

void pqCudaVolumeColorPicker::startup()
{
  pqServerManagerModel* model = pqApplicationCore::instance()->getServerManagerModel();
  QObject::connect(model, &pqServerManagerModel::representationAdded, this,
    &pqCudaVolumeColorPicker::watch);
  for (pqRepresentation* representation : model->findItems<pqRepresentation*>())
  {
    this->watch(representation);
  }
}

void pqCudaVolumeColorPicker::shutdown() {}

void pqCudaVolumeColorPicker::watch(pqRepresentation* representation)
{
  vtkSMProxy* proxy = representation->getProxy();
  vtkSMProperty* type = proxy ? proxy->GetProperty("Representation") : nullptr;
  if (!type || !vtkSMPVRepresentationProxy::SafeDownCast(proxy))
  {
    return;
  }
  new TypeWatcher(representation, type);
}

bool pqCudaVolumeColorPicker::PickColorArray(vtkObject* object)
{
  auto* representation = vtkSMPVRepresentationProxy::SafeDownCast(object);
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
