#ifndef SATCHEL_CLIBPQ_SHIM_H
#define SATCHEL_CLIBPQ_SHIM_H

#include <libpq-fe.h>

#endif
