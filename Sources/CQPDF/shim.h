// qpdf 11 (Debian's libqpdf-dev, pkg-config libqpdf): its C API only. Only OCRPDF imports it:
// PDFDocument counts a PDF's pages from its real page tree and cuts one page, with only the
// objects that page uses, into a PDF of its own; SearchablePDFWriter writes searchable PDFs.
#ifndef CQPDF_SHIM_H
#define CQPDF_SHIM_H
#include <qpdf/qpdf-c.h>
#endif
