#ifndef SATCHEL_CLIBPQ_SHIM_H
#define SATCHEL_CLIBPQ_SHIM_H

// libpq's declarations only (Debian's libpq-dev): satchel loads the library itself, when it first talks to
// PostgreSQL (see Sync/LibPQ.swift).
#include <postgresql/libpq-fe.h>

#endif
