/**
 * @class   pqCudaVolumeColorPicker
 * @brief   Colours a representation by an array when it becomes "CUDA Volume".
 *
 * ParaView's client picks a colour array when a representation becomes
 * "Volume" without one (a volume needs scalars to show anything), but it
 * knows that representation type by name only. This auto-start component of
 * the plugin does the same for "CUDA Volume": the first point array (else the
 * first cell array) of the data, with its colour map rescaled to the data.
 */
#ifndef pqCudaVolumeColorPicker_h
#define pqCudaVolumeColorPicker_h

#include <QObject>

class pqRepresentation;
class vtkObject;

class pqCudaVolumeColorPicker : public QObject
{
  Q_OBJECT

public:
  explicit pqCudaVolumeColorPicker(QObject* parent = nullptr);
  ~pqCudaVolumeColorPicker() override;

  void startup();
  void shutdown();

  /// Colours `representation` (a vtkSMPVRepresentationProxy) by its first
  /// point or cell array when it is a CUDA Volume without scalar colouring.
  /// Returns whether it did.
  static bool PickColorArray(vtkObject* representation);

private Q_SLOTS:
  void watch(pqRepresentation* representation);

private:
  Q_DISABLE_COPY(pqCudaVolumeColorPicker)
};

#endif
