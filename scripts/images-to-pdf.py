#!/usr/bin/env python3
"""images-to-pdf.py OUT.pdf DPI PAGE.pgm...: a minimal PDF, one 8-bit gray image per page.

Used by make-fixtures.sh because ImageMagick's policy forbids writing PDF here. Reads binary PGM (P5).
"""
import sys, zlib

def read_pgm(path):
    data = open(path, "rb").read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos)
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end]); pos = end
    assert fields[0] == b"P5" and fields[3] == b"255", path
    return int(fields[1]), int(fields[2]), data[pos + 1:]

out, dpi, pages = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
objects = []  # bytes of objects 1..n
def add(body):
    objects.append(body); return len(objects)
catalog = add(None); tree = add(None)
kids = []
for path in pages:
    w, h, pixels = read_pgm(path)
    stream = zlib.compress(pixels, 9)
    img = add(b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
              b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n" % (w, h, len(stream))
              + stream + b"\nendstream")
    pw, ph = w * 72 / dpi, h * 72 / dpi
    content = b"q %.2f 0 0 %.2f 0 0 cm /Im0 Do Q" % (pw, ph)
    cs = add(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
    kids.append(add(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %.2f %.2f] /Contents %d 0 R "
                    b"/Resources << /XObject << /Im0 %d 0 R >> >> >>" % (tree, pw, ph, cs, img)))
objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % tree
objects[tree - 1] = (b"<< /Type /Pages /Count %d /Kids [" % len(kids)
                     + b" ".join(b"%d 0 R" % k for k in kids) + b"] >>")
body, offsets = bytearray(b"%PDF-1.4\n"), []
for i, obj in enumerate(objects, 1):
    offsets.append(len(body))
    body += b"%d 0 obj\n" % i + obj + b"\nendobj\n"
xref = len(body)
body += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
body += b"".join(b"%010d 00000 n \n" % o for o in offsets)
body += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, catalog, xref)
open(out, "wb").write(body)
