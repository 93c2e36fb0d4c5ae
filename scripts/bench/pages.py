"""Prepares the benchmark's pages from a real multipage scan with Pillow (ImageMagick's resource
policy refuses 28 pages of 8 megapixels): pages.py SCAN COUNT OUTDIR writes
  OUTDIR/pages.tif        the first COUNT pages, one multipage TIFF (G4, 300 dpi); a scan with
                          fewer pages is repeated up to COUNT
  OUTDIR/single/page-NNN.tif  the same pages one file each
  OUTDIR/hundred.tif      100 pages: the scan's pages over and over
The scan's pages are rewritten with 300 dpi, what aim916.tiff really is (its tag says 72).
Prints one JSON line describing the pages for the report."""
import json
import os
import sys

from PIL import Image, ImageSequence

scan, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
os.makedirs(os.path.join(out, "single"), exist_ok=True)
pages = []
with Image.open(scan) as image:
    for frame in ImageSequence.Iterator(image):
        pages.append(frame.convert("1"))
save = dict(compression="group4", dpi=(300, 300))
first = [pages[i % len(pages)] for i in range(count)]
first[0].save(os.path.join(out, "pages.tif"), save_all=True, append_images=first[1:], **save)
for i, page in enumerate(first):
    page.save(os.path.join(out, "single", f"page-{i:03d}.tif"), **save)
hundred = [pages[i % len(pages)] for i in range(100)]
hundred[0].save(os.path.join(out, "hundred.tif"), save_all=True, append_images=hundred[1:], **save)
print(json.dumps({"bench": "peer-pages", "scan": os.path.basename(scan), "scan_pages": len(pages),
                  "pages": count, "distinct_pages": min(count, len(pages)),
                  "width": first[0].size[0], "height": first[0].size[1]}))
