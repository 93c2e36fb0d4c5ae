#!/usr/bin/env bash
# Makes the OCREngine test fixtures in Tests/Fixtures (committed; re-run only to change them).
# Needs ImageMagick 6 (`convert`), Ghostscript (`gs`, for the PDFs) and python3 (bad inputs).
# Everything is deterministic except ImageMagick's noise, which is seeded.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/Fixtures
mkdir -p "$out/bad"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
font=Helvetica

# The text every page carries; the ground truth is the same text, one line per line.
cat > "$out/text.txt" <<'TXT'
The quick brown fox jumps over the lazy dog.
Pack my box with five dozen liquor jugs, 1234.
Sphinx of black quartz, judge my vow!
How vexingly quick daft zebras jump.
TXT
cat > "$tmp/page2.txt" <<'TXT'
Second page of the multipage file.
Numbers 42, 1987 and 3.14 appear here.
TXT
cat > "$tmp/page3.txt" <<'TXT'
Third page: the last one.
TXT

render() { # render TEXTFILE OUT.png [pointsize]: 300 dpi, 8-bit gray, white margin
  convert -density 300 -units PixelsPerInch -background white -fill black -font "$font" \
    -pointsize "${3:-11}" label:"$(cat "$1")" -bordercolor white -border 60 \
    -colorspace Gray -depth 8 -strip "$2"
}
render "$out/text.txt" "$out/text.png"
# Long, tightly spaced lines in small type, skewed by 3 degrees (counter-clockwise): the deskew
# test. (Short lines survive 3 degrees unharmed; these give `tesseract` about 3% CER unless deskewed.)
cat > "$out/skew3.txt" <<'TXT'
The quick brown fox jumps over the lazy dog while the five boxing wizards jump quickly away.
Pack my box with five dozen liquor jugs, 1234, and then sphinx of black quartz judge my vow.
How vexingly quick daft zebras jump; a wizard's job is to vex chumps quickly in fog today.
Jackdaws love my big sphinx of quartz, said the old man, as crazy fredrick bought many jewels.
We promptly judged antique ivory buckles for the next prize, while six big devils jumped.
Grumpy wizards make toxic brew for the evil queen and jack, then amazingly few discotheques.
TXT
convert -density 300 -units PixelsPerInch -background white -fill black -font "$font" -pointsize 8 \
  -interline-spacing -6 label:"$(cat "$out/skew3.txt")" -bordercolor white -border 60 "$tmp/skew-src.png"
convert "$tmp/skew-src.png" -background white -rotate -3 -colorspace Gray -depth 8 -strip "$out/skew3.png"
# Rotated pages for auto-rotate (the image is turned clockwise by 90 and 180 degrees).
convert "$out/text.png" -rotate 90 -strip "$out/rot90.png"
convert "$out/text.png" -rotate 180 -strip "$out/rot180.png"
# The page at 40%: text as small as a receipt scanned at 100-150 dpi (SmallText).
convert "$out/text.png" -resize 40% -colorspace Gray -depth 8 -strip "$out/small-text.png"
# Noise: speckles on a gray page.
convert "$out/text.png" -seed 7 -attenuate 0.6 +noise Impulse -colorspace Gray -depth 8 -strip "$out/noise.png"
# Multipage TIFF, three bilevel G4 pages with different text.
cp "$out/text.png" "$tmp/p1.png"; render "$tmp/page2.txt" "$tmp/p2.png"; render "$tmp/page3.txt" "$tmp/p3.png"
convert "$tmp/p1.png" "$tmp/p2.png" "$tmp/p3.png" -threshold 50% -type bilevel -compress Group4 \
  -density 300 -units PixelsPerInch "$out/multipage.tif"
cp "$tmp/page2.txt" "$out/page2.txt"; cp "$tmp/page3.txt" "$out/page3.txt"
# A two-page PDF of scanned (image) pages, and an encrypted copy (user password "secret").
# (ImageMagick's policy here forbids writing PDF, so a small script writes it.)
convert "$tmp/p1.png" "$tmp/p1.pgm"; convert "$tmp/p2.png" "$tmp/p2.pgm"
python3 scripts/images-to-pdf.py "$out/doc.pdf" 300 "$tmp/p1.pgm" "$tmp/p2.pgm"
gs -q -dNOPAUSE -dBATCH -dSAFER -sDEVICE=pdfwrite -sOwnerPassword=owner -sUserPassword=secret \
  -dEncryptionR=3 -dKeyLength=128 -sOutputFile="$out/bad/encrypted.pdf" "$out/doc.pdf"

# One line in every format Leptonica reads here (the decoder test): PNG, JPEG, TIFF (G4, LZW,
# PackBits, uncompressed; 1, 8 and 24 bit), PNM, BMP, GIF, WebP, JPEG 2000.
mkdir -p "$out/formats"
convert "$out/text.png" -crop 620x70+50+60 +repage -strip "$tmp/line.png"
f="$out/formats"
convert "$tmp/line.png" -depth 8 -type Grayscale -strip "$f/line.png"
convert "$tmp/line.png" -quality 85 -strip "$f/line.jpg"
convert "$tmp/line.png" -threshold 50% -type bilevel -compress Group4 "$f/line-g4.tif"
convert "$tmp/line.png" -type Grayscale -depth 8 -compress LZW "$f/line-lzw-8.tif"
convert "$tmp/line.png" -type Grayscale -depth 8 -compress RLE "$f/line-packbits-8.tif"
convert "$tmp/line.png" -type TrueColor -depth 8 -compress LZW "$f/line-lzw-24.tif"
convert "$tmp/line.png" -threshold 50% -type bilevel -depth 1 -compress None "$f/line-none-1.tif"
convert "$tmp/line.png" -type Grayscale -depth 8 "$f/line.pgm"
convert "$tmp/line.png" -threshold 50% "$f/line.pbm"
convert "$tmp/line.png" -type Grayscale -depth 8 -compress None "BMP3:$f/line.bmp"
# Run-length-encoded BMP: Leptonica does not read it, so it belongs to the bad inputs.
convert "$tmp/line.png" -type Grayscale -depth 8 -compress RLE "BMP3:$out/bad/rle.bmp"
convert "$tmp/line.png" -colors 16 "$f/line.gif"
convert "$tmp/line.png" -quality 90 "$f/line.webp"
convert "$tmp/line.png" "$f/line.jp2"

# Edge cases that are not errors: a blank page and a 1x1 image.
convert -size 400x200 xc:white -colorspace Gray -depth 8 -density 300 -units PixelsPerInch -strip "$out/blank.png"
convert -size 1x1 xc:black -colorspace Gray -depth 8 -strip "$out/tiny.png"

# Bad inputs.
python3 - "$out" <<'PY'
import random, struct, sys, zlib
out = sys.argv[1]
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
# A tiny PNG whose header declares 60000 x 60000 pixels (a decompression bomb's header).
ihdr = struct.pack(">IIBBBBB", 60000, 60000, 1, 0, 0, 0, 0)
bomb = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")
open(f"{out}/bad/bomb.png", "wb").write(bomb)
open(f"{out}/bad/empty.png", "wb").write(b"")
rng = random.Random(3)
open(f"{out}/bad/random.png", "wb").write(bytes(rng.randrange(256) for _ in range(4096)))
open(f"{out}/bad/unknown.dat", "wb").write(b"this is not an image, just some text\n" * 20)
text = open(f"{out}/text.png", "rb").read()
open(f"{out}/bad/truncated.png", "wb").write(text[: len(text) // 2])
tif = open(f"{out}/multipage.tif", "rb").read()
open(f"{out}/bad/truncated.tif", "wb").write(tif[: len(tif) // 3])
pdf = open(f"{out}/doc.pdf", "rb").read()
open(f"{out}/bad/broken.pdf", "wb").write(pdf[: len(pdf) // 3])
PY
convert "$out/text.png" -quality 80 "$tmp/text.jpg"
head -c "$(( $(stat -c %s "$tmp/text.jpg") / 2 ))" "$tmp/text.jpg" > "$out/bad/truncated.jpg"
ls -l "$out" "$out/bad"
