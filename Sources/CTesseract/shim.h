// Tesseract's C API and Leptonica, as Debian's libtesseract-dev and libleptonica-dev install them.
// Only OCREngine imports this module.
#ifndef CTESSERACT_SHIM_H
#define CTESSERACT_SHIM_H
#include <tesseract/capi.h>
#include <leptonica/allheaders.h>
#endif
