// Leptonica, as Debian's libleptonica-dev installs it. Only OCRLeptonica imports this module
// (and OCREngine's Tesseract wrapper, for the PIX it hands to Tesseract).
#ifndef CLEPTONICA_SHIM_H
#define CLEPTONICA_SHIM_H
#include <leptonica/allheaders.h>
#endif
