#ifndef SATCHEL_CSQLITE_SHIM_H
#define SATCHEL_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro that casts -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type satchel_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

// sqlite3_config is variadic, which Swift cannot call. Turning memory statistics off spares every SQLite
// allocation a global mutex; it must run before SQLite initializes (it fails harmlessly afterwards).
static inline int satchel_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

// A transaction's savepoint journal is kept in memory up to this many bytes before it goes to a temporary
// file (SQLite's default: 64 KiB); like the above, before SQLite initializes.
static inline int satchel_sqlite_statement_journal_spill(int bytes) {
    return sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, bytes);
}

#endif
