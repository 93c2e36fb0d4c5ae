// SQLite 3 (Debian's libsqlite3-dev, pkg-config sqlite3): only OCRCoordinator's journal
// (Sources/OCRCoordinator/Journal/SQLite.swift) imports this module.
#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import:
// sqlite3_bind_* must copy the bytes, because Swift arrays may move after the call.
static inline void (*CSQLite_TRANSIENT(void))(void *) { return SQLITE_TRANSIENT; }
#endif
