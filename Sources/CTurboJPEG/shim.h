#ifndef SATCHEL_CTURBOJPEG_SHIM_H
#define SATCHEL_CTURBOJPEG_SHIM_H

#include <stddef.h>
#include <turbojpeg.h>

#endif
