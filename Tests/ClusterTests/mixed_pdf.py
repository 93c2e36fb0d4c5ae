"""Writes a one-page PDF by hand: visible Helvetica text ("Visible heading words"), the image IMAGE
(a 300-dpi gray scan) below it, and over the image an invisible (render mode 3) line of text, as
an earlier OCR run leaves it. For --redo-ocr.

    mixed_pdf.py IMAGE OUT.pdf
"""
import sys, zlib
from PIL import Image
im = Image.open(sys.argv[1]).convert('L')
w, h = im.size
data = zlib.compress(im.tobytes())
pw, ph = 612, 792
iw, ih = w * 72 / 300, h * 72 / 300
content = (f"BT /F1 20 Tf 72 720 Td (Visible heading words) Tj ET\n"
           f"q {iw:.2f} 0 0 {ih:.2f} 72 500 cm /Im0 Do Q\n"
           f"BT 3 Tr /F1 9 Tf 90 {500 + ih - 20:.2f} Td (The quick brown fox jumps) Tj ET\n").encode()
objs = [b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw} {ph}] /Resources << /Font << /F1 4 0 R >> /XObject << /Im0 5 0 R >> >> /Contents 6 0 R >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n".encode() + data + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"endstream"]
out = bytearray(b"%PDF-1.4\n")
offsets = []
for i, o in enumerate(objs, 1):
    offsets.append(len(out)); out += f"{i} 0 obj\n".encode() + o + b"\nendobj\n"
xref = len(out)
out += f"xref\n0 {len(objs)+1}\n0000000000 65535 f \n".encode() + b"".join(f"{x:010d} 00000 n \n".encode() for x in offsets)
out += f"trailer\n<< /Size {len(objs)+1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
open(sys.argv[2], "wb").write(out)
