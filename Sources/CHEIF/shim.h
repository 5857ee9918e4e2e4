#ifndef SATCHEL_CHEIF_SHIM_H
#define SATCHEL_CHEIF_SHIM_H

#include <libheif/heif.h>

#endif
