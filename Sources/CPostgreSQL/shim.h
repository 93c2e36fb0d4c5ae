// libpq (Debian's libpq-dev, pkg-config libpq): only OCRCoordinator's PostgreSQL journal
// (Sources/OCRCoordinator/Journal/PostgreSQL.swift) imports this module.
#ifndef CPOSTGRESQL_SHIM_H
#define CPOSTGRESQL_SHIM_H
#include <libpq-fe.h>

// PG_DIAG_SQLSTATE is a character-literal macro, which Swift does not import.
static inline int CPostgreSQL_DIAG_SQLSTATE(void) { return PG_DIAG_SQLSTATE; }
#endif
