#ifndef SATCHEL_CSODIUM_SHIM_H
#define SATCHEL_CSODIUM_SHIM_H

// libsodium's declarations only (Debian's libsodium-dev): satchel loads the library itself, when sync first
// seals or opens an encrypted account's rows (see Sync/LibSodium.swift).
#include <sodium.h>

#endif
