// SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
// SPDX-License-Identifier: BSD-3-Clause
/* NIfTI-1 volumes through Debian's libniftiio. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nifti1_io.h>

#include "cvr_tools.h"

static int scalar_type_of(int datatype, cvr_scalar_type *t) {
  switch (datatype) {
  case DT_INT8: *t = CVR_INT8; return 1;
  case DT_UINT8: *t = CVR_UINT8; return 1;
  case DT_INT16: *t = CVR_INT16; return 1;
  case DT_UINT16: *t = CVR_UINT16; return 1;
  case DT_INT32: *t = CVR_INT32; return 1;
  case DT_UINT32: *t = CVR_UINT32; return 1;
  case DT_FLOAT32: *t = CVR_FLOAT32; return 1;
  case DT_FLOAT64: *t = CVR_FLOAT64; return 1;
  default: return 0;
  }
}

int cvr_tools_load_nifti(const char *path, cvr_tools_volume *out, char *err, size_t err_size) {
  memset(out, 0, sizeof *out);
  nifti_set_debug_level(0);
  nifti_image *nim = nifti_image_read(path, 1);
  if (!nim || !nim->data) {
    snprintf(err, err_size, "cannot read NIfTI file %s", path);
    if (nim) nifti_image_free(nim);
    return 0;
  }
  cvr_volume_desc *d = &out->desc;
  cvr_volume_desc_init(d);
  if (!scalar_type_of(nim->datatype, &d->type) || nim->nx < 1 || nim->ny < 1 || nim->nz < 1 ||
      nim->nvox != (size_t)nim->nx * nim->ny * nim->nz) {
    snprintf(err, err_size, "%s: unsupported NIfTI datatype %d or not a single 3D volume", path,
             nim->datatype);
    nifti_image_free(nim);
    return 0;
  }
  d->dims[0] = nim->nx;
  d->dims[1] = nim->ny;
  d->dims[2] = nim->nz;
  /* index to physical: sform if set, else qform, else pixdim scaling */
  const mat44 *m = nim->sform_code > 0 ? &nim->sto_xyz : nim->qform_code > 0 ? &nim->qto_xyz : NULL;
  for (int c = 0; c < 3; ++c) {
    double len = 0.0;
    if (m) {
      for (int r = 0; r < 3; ++r) len += (double)m->m[r][c] * m->m[r][c];
      len = sqrt(len);
    }
    if (!(len > 0.0)) {
      d->spacing[c] = fabs(nim->pixdim[c + 1]) > 0 ? fabs(nim->pixdim[c + 1]) : 1.0;
      continue;
    }
    d->spacing[c] = len;
    for (int r = 0; r < 3; ++r) d->direction[3 * r + c] = m->m[r][c] / len;
  }
  if (m)
    for (int r = 0; r < 3; ++r) d->origin[r] = m->m[r][3];
  out->data = nim->data;
  nim->data = NULL; /* keep the voxels, free the header */
  nifti_image_free(nim);
  d->data = out->data;
  return 1;
}

void cvr_tools_volume_free(cvr_tools_volume *v) {
  if (!v) return;
  free(v->data);
  memset(v, 0, sizeof *v);
}
