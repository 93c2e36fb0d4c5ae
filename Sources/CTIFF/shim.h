// libtiff 4.5+ (Debian's libtiff-dev, pkg-config libtiff-4): only OCREngine's TIFF page splitter
// imports this module, to copy a directory's compressed strips into a single-page TIFF.
#ifndef CTIFF_SHIM_H
#define CTIFF_SHIM_H
#include <tiffio.h>
#endif
