#!/usr/bin/env python3
"""More renderings of the real-layout corpus's pages, for checking a rule on kinds of page its
two renderings hold too few of (real_layout.py renders each page clean and once degraded).

    real_layout_variants.py faxes WORK_DIR [--half dev|heldout]
        each page of the half's documents as a dithered fax at 150 and at 200 dpi and as a
        thresholded (bilevel) scan at 150 dpi: 1 bpp pages of small text
    real_layout_variants.py grays WORK_DIR [--half dev|heldout]
        each page as a gray scan at 120 and at 150 dpi, a little blurred, JPEG at quality 75:
        gray pages of small text, read enlarged
    real_layout_variants.py turned CORPUS_WORK_DIR WORK_DIR [--half dev|heldout]
        each page image of a built corpus (real_layout.py build) turned a quarter clockwise and a
        quarter counter-clockwise, its truth boxes turned with it (pages already lying on their
        side are left out)

Then `real_layout.py run BIN_DIR WORK_DIR --half HALF` reads them beside plain `tesseract` and
`real_layout.py report WORK_DIR --half HALF` sums them up, as for the corpus itself; which half
a page belongs to is its document's, as there.
"""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import real_layout  # noqa: E402  (CORPUS, half_of, render, truth_words)


def faxes(work, half):
    """1 bpp pages: dithered faxes at 150 and 200 dpi, a thresholded scan at 150 dpi."""
    def fax(gray, path, dpi):
        gray.convert("1").save(path, dpi=(dpi, dpi))  # Floyd-Steinberg dithering

    def bilevel(gray, path, dpi):
        gray.point(lambda v: 255 if v > 150 else 0).convert("1", dither=Image.Dither.NONE).save(path, dpi=(dpi, dpi))
    from PIL import Image
    rendered(work, half, (("fax150", 150, fax, "png"), ("fax200", 200, fax, "png"), ("bilevel150", 150, bilevel, "png")))


def grays(work, half):
    """Gray scans of small text: at 120 and 150 dpi, blurred a little (sigma 0.5) and saved as
    JPEG at quality 75, as an office scanner's or a phone app's low setting keeps them."""
    def scan(gray, path, dpi):
        from PIL import ImageFilter
        gray.filter(ImageFilter.GaussianBlur(0.5)).save(path, quality=75, dpi=(dpi, dpi))
    rendered(work, half, (("gray120", 120, scan, "jpg"), ("gray150", 150, scan, "jpg")))


def rendered(work, half, variants):
    """Each page of the half's documents rendered gray at each variant's resolution and made
    into its image by the variant's function, with its truth words at that resolution."""
    from PIL import Image
    pages_dir = os.path.join(work, "pages")
    os.makedirs(pages_dir, exist_ok=True)
    manifest = json.load(open(os.path.join(real_layout.CORPUS, "manifest.json")))
    for entry in manifest["documents"]:
        if real_layout.half_of(entry["file"]) != half or "rotated" in entry["file"]:
            continue  # a page lying on its side is another check's (`turned`)
        pdf = os.path.join(real_layout.CORPUS, "pdf", entry["file"])
        count = int(re.search(r"Pages:\s+(\d+)", subprocess.run(["pdfinfo", pdf], capture_output=True, check=True).stdout.decode()).group(1))
        for page in range(1, count + 1):
            for variant, dpi, make, extension in variants:
                name = f"{entry['file'][:-4]}-p{page}-{variant}"
                png = os.path.join(pages_dir, name + ".png")
                real_layout.render(pdf, page, dpi, png)
                gray = Image.open(png).convert("L")
                image = os.path.join(pages_dir, f"{name}.{extension}")
                if image != png:
                    os.remove(png)
                make(gray, image, dpi)
                words = real_layout.truth_words(pdf, page, dpi / 72)
                json.dump({"image": os.path.basename(image), "document": entry["file"], "page": page, "kind": entry["kind"],
                           "variant": variant, "half": half, "words": words}, open(os.path.join(pages_dir, name + ".json"), "w"))
                print(f"{name}: {len(words)} words", flush=True)


def turned(corpus_work, work, half):
    from PIL import Image
    source = os.path.join(corpus_work, "pages")
    pages_dir = os.path.join(work, "pages")
    os.makedirs(pages_dir, exist_ok=True)
    for name in sorted(f[:-5] for f in os.listdir(source) if f.endswith(".json")):
        truth = json.load(open(os.path.join(source, name + ".json")))
        if truth["half"] != half or "rotated" in name:
            continue
        image = Image.open(os.path.join(source, truth["image"]))
        width, height = image.size
        extension = truth["image"].rsplit(".", 1)[1]
        for way, transpose in (("cw", Image.Transpose.ROTATE_270), ("ccw", Image.Transpose.ROTATE_90)):
            out = f"{name}-{way}"
            options = {"dpi": image.info.get("dpi", (300, 300))}
            if extension == "jpg":
                options["quality"] = 95  # saved again once turned, as a scanner's software would
            image.transpose(transpose).save(os.path.join(pages_dir, f"{out}.{extension}"), **options)
            words = []
            for word in truth["words"]:
                x, y, w, h = word["box"]
                box = [height - y - h, x, h, w] if way == "cw" else [y, width - x - w, h, w]
                words.append({"text": word["text"], "box": box})
            json.dump(dict(truth, image=f"{out}.{extension}", words=words, variant=f"{truth['variant']}-{way}"),
                      open(os.path.join(pages_dir, out + ".json"), "w"))
        print(f"{name}: turned both ways", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    fax = sub.add_parser("faxes")
    fax.add_argument("work")
    fax.add_argument("--half", default="dev", choices=["dev", "heldout"])
    gray = sub.add_parser("grays")
    gray.add_argument("work")
    gray.add_argument("--half", default="dev", choices=["dev", "heldout"])
    turn = sub.add_parser("turned")
    turn.add_argument("corpus_work")
    turn.add_argument("work")
    turn.add_argument("--half", default="dev", choices=["dev", "heldout"])
    args = parser.parse_args()
    if args.command == "faxes":
        faxes(args.work, args.half)
    elif args.command == "grays":
        grays(args.work, args.half)
    else:
        turned(args.corpus_work, args.work, args.half)


if __name__ == "__main__":
    main()
