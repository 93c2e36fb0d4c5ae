#!/usr/bin/env python3
"""Writes the bad-input and abuse corpus of SECURITY.md into a directory: files made to amplify,
lie or exhaust, each small, each aimed at one class of attack. Deterministic (seeded), no
dependencies beyond the standard library.

    scripts/abuse_corpus.py OUT_DIR

shared-strips.tif     500 directories whose strips all point at one 1 MiB blob (1.07 MB file)
shared-image.pdf      500 pages drawing one 2 MB image (2.1 MB file)
lying-count.pdf       3 pages whose page tree claims /Count 1000000
crop-media.pdf        a page with a 1-inch CropBox on a 2,000-inch MediaBox
huge-declared.tif     one directory declaring 100000 x 100000 pixels over 1 KiB of strip
strip-past-end.tif    a strip that claims to extend past the end of the file
"""
import os
import random
import struct
import sys
import zlib


def tiff(directories, blob):
    """A classic little-endian TIFF: `blob` at offset 8, then one IFD per entry of
    `directories` (a list of {tag: (type, [values])}), chained in order."""
    out = bytearray(b"II*\x00" + struct.pack("<I", 0))
    out += blob
    if len(out) % 2:
        out += b"\x00"
    offsets = []
    for entries in directories:
        offsets.append(len(out))
        tags = sorted(entries.items())
        ifd = struct.pack("<H", len(tags))
        for tag, (kind, values) in tags:
            fmt = {3: "<H", 4: "<I"}[kind]
            data = b"".join(struct.pack(fmt, v) for v in values)
            data = data.ljust(4, b"\x00")
            assert len(data) == 4, "values must fit in the entry"
            ifd += struct.pack("<HHI", tag, kind, len(values)) + data
        ifd += struct.pack("<I", 0)
        out += ifd
    for i, at in enumerate(offsets):
        nxt = offsets[i + 1] if i + 1 < len(offsets) else 0
        out[at + 2 + 12 * len(directories[i]): at + 6 + 12 * len(directories[i])] = struct.pack("<I", nxt)
    out[4:8] = struct.pack("<I", offsets[0])
    return bytes(out)


def gray_directory(width, height, strip_offset, strip_bytes):
    return {256: (4, [width]), 257: (4, [height]), 258: (3, [8]), 259: (3, [1]), 262: (3, [1]),
            273: (4, [strip_offset]), 277: (3, [1]), 278: (4, [height]), 279: (4, [strip_bytes]),
            282: (4, [0]), 283: (4, [0])} | {}


def clean(d):
    d.pop(282), d.pop(283)  # no rational resolution tags (they need out-of-line values)
    return d


def pdf(objects, root=1):
    """A PDF from `objects` (bytes bodies, numbered from 1) with a correct xref table."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for at in offsets:
        out += b"%010d 00000 n \n" % at
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, root, xref)
    return bytes(out)


def stream(dictionary, data):
    return b"<< " + dictionary + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "abuse-corpus"
    os.makedirs(out, exist_ok=True)
    rng = random.Random(11)
    files = {}

    blob = bytes(rng.getrandbits(8) for _ in range(1 << 20))  # 1024 x 1024 8-bit gray
    files["shared-strips.tif"] = tiff([clean(gray_directory(1024, 1024, 8, len(blob))) for _ in range(500)], blob)

    image = zlib.compress(bytes(rng.getrandbits(8) for _ in range(1500 * 1400)), 1)
    pages = 500
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Count %d /Kids [%s] >>" % (pages, b" ".join(b"%d 0 R" % (5 + i) for i in range(pages))),
               stream(b"/Type /XObject /Subtype /Image /Width 1500 /Height 1400 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode", image),
               stream(b"", b"q 612 0 0 792 0 0 cm /Im0 Do Q")]
    for i in range(pages):
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im0 3 0 R >> >> /Contents 4 0 R >>")
    files["shared-image.pdf"] = pdf(objects)

    text = stream(b"", b"BT /F1 24 Tf 72 700 Td (A page) Tj ET")
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Count 1000000 /Kids [5 0 R 6 0 R 7 0 R] >>",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
               text]
    for _ in range(3):
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>")
    files["lying-count.pdf"] = pdf(objects)

    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Count 1 /Kids [5 0 R] >>",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
               stream(b"", b"BT /F1 24 Tf 10 30 Td (Crop) Tj ET"),
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 144000 144000] /CropBox [0 0 72 72] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>"]
    files["crop-media.pdf"] = pdf(objects)

    files["huge-declared.tif"] = tiff([clean(gray_directory(100000, 100000, 8, 1024))], bytes(1024))
    files["strip-past-end.tif"] = tiff([clean(gray_directory(64, 64, 8, 4096)), clean(gray_directory(64, 64, 4000, 4096))], bytes(4096))

    for name, content in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(content)
        print(f"{name}\t{len(content)}")


if __name__ == "__main__":
    main()
