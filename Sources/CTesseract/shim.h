// Tesseract's C API, as Debian's libtesseract-dev installs it (its images are Leptonica's PIX:
// CLeptonica). Only OCREngine's Tesseract wrapper imports this module.
#ifndef CTESSERACT_SHIM_H
#define CTESSERACT_SHIM_H
#include <tesseract/capi.h>
#endif
