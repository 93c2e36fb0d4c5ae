#!/usr/bin/env python3
"""A second real-table corpus, kept apart from the first: the ICDAR 2013 Table Competition's
born-digital PDFs of EU and US government documents (Göbel et al., ICDAR 2013), as a clone of
github.com/tabulapdf/tabula-java carries them (src/test/resources/technology/tabula/
icdar2013-dataset). The dataset is distributed for research and not under a licence that lets
us copy it, so nothing of it is committed: `build` reads a clone (the library's `fetch`, or
`git clone`).

Each page holding a table region is rendered clean at 300 dpi and once degraded (real_layout's
degradations); every region is a truth table: its cells (start-row..end-row, start-col..end-col)
as an HTML grid with spans, positions no cell covers as empty cells. A region is "ruled" when
the page's rendering shows vertical rules inside it (dark runs over most of its height at two
or more places), else "unruled". The halves are real_layout's, by document name.

    icdar_tables.py build WORK GIT_DIR      then, as for the first corpus:
    structure.py run BIN_DIR WORK [--half dev|heldout|all]
    structure.py report WORK [--half ...]

`us-007` is left out: camelot's corpus (corpus/tables) holds the same page. So are the structure
files whose PDF the clone lacks (eu-009b, us-011b, us-031b, us-035b: second parts of split documents).
"""
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import real_layout  # noqa: E402

DATASET = "src/test/resources/technology/tabula/icdar2013-dataset"
LEFT_OUT = {"us-007"}


def git(git_dir, *args):
    return subprocess.run(["git", "--git-dir", git_dir, *args], capture_output=True, check=True).stdout


def documents(git_dir):
    names = git(git_dir, "ls-tree", "-r", "--name-only", "HEAD", DATASET).decode().split()
    # A few structure files come without their PDF in the clone (eu-009b, us-009): left out.
    return sorted(n[:-len("-str.xml")] for n in names if n.endswith("-str.xml") and n[:-len("-str.xml")] + ".pdf" in names)


def regions(structure_xml):
    """[(page, box in points (x1, y1, x2, y2) from the bottom left, rows of (text, colspan, rowspan))]."""
    out = []
    for table in ElementTree.fromstring(structure_xml).iter("table"):
        for region in table.iter("region"):
            cells = []
            for cell in region.iter("cell"):
                row, col = int(cell.get("start-row")), int(cell.get("start-col"))
                end_row, end_col = int(cell.get("end-row", row)), int(cell.get("end-col", col))
                box = cell.find("bounding-box")
                content = cell.findtext("content") or ""
                # (one box in the dataset has a stray letter in a coordinate: "26ß")
                cells.append((row, col, end_row, end_col, " ".join(content.split()),
                              [int(re.sub(r"\D", "", box.get(k))) for k in ("x1", "y1", "x2", "y2")] if box is not None else None))
            if cells:
                out.append((int(region.get("page")), grid_box(cells), grid(cells)))
    return out


def grid_box(cells):
    """The cells' boxes' union; None when no cell has a box (then the table counts as unruled)."""
    boxes = [c[5] for c in cells if c[5]]
    if not boxes:
        return None
    return [min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)]


def grid(cells):
    """Cells as HTML rows: each cell in its first row, spans as colspan/rowspan, the positions no
    cell covers as empty cells."""
    top, left = min(c[0] for c in cells), min(c[1] for c in cells)
    rows, cols = max(c[2] for c in cells) - top + 1, max(c[3] for c in cells) - left + 1
    covered = [[None] * cols for _ in range(rows)]
    for row, col, end_row, end_col, text, _ in cells:
        for r in range(row - top, end_row - top + 1):
            for c in range(col - left, end_col - left + 1):
                if covered[r][c] is None:
                    covered[r][c] = (row - top, col - left)
        if covered[row - top][col - left] == (row - top, col - left):
            covered[row - top][col - left] = (text, end_col - col + 1, end_row - row + 1)
    out = []
    for r in range(rows):
        line = []
        for c in range(cols):
            here = covered[r][c]
            if here is None:
                line.append(("", 1, 1))
            elif isinstance(here[0], str):
                line.append(here)
        out.append(line)
    return out


def ruled(png, box_points, height_points):
    """Vertical rules inside the region: columns of pixels dark over most of its height, at two
    or more places (a rule is a few pixels wide: runs of neighbouring columns count once)."""
    from PIL import Image
    image = Image.open(png).convert("L")
    scale = 300 / 72  # pixels per point: the clean pages are rendered at 300 dpi
    x1, y1, x2, y2 = box_points
    left, right = int(x1 * scale) - 10, int(x2 * scale) + 10
    top, bottom = int((height_points - y2) * scale), int((height_points - y1) * scale)
    crop = image.crop((max(0, left), max(0, top), min(image.width, right), min(image.height, bottom)))
    pixels = crop.load()
    rules, previous = 0, False
    for x in range(crop.width):
        dark = sum(1 for y in range(crop.height) if pixels[x, y] < 160)
        here = dark >= 0.8 * crop.height
        rules += here and not previous
        previous = here
    return rules >= 2


def page_size(pdf, page):
    info = subprocess.run(["pdfinfo", "-f", str(page), "-l", str(page), pdf], capture_output=True, text=True, check=True).stdout
    for line in info.splitlines():
        if line.startswith(f"Page {page:4d} size:") or line.startswith("Page size:"):
            words = line.split(":")[1].split()
            return float(words[0]), float(words[2])
    raise SystemExit(f"{pdf}: no size for page {page}")


def build(work, git_dir):
    out = os.path.join(work, "tables")
    os.makedirs(out, exist_ok=True)
    for stale in os.listdir(out):
        os.remove(os.path.join(out, stale))
    with tempfile.TemporaryDirectory() as scratch:
        for index, path in enumerate(documents(git_dir)):
            document = os.path.basename(path)
            if document in LEFT_OUT:
                continue
            pdf = os.path.join(scratch, document + ".pdf")
            open(pdf, "wb").write(git(git_dir, "show", f"HEAD:{path}.pdf"))
            by_page = {}
            for page, box, rows in regions(git(git_dir, "show", f"HEAD:{path}-str.xml")):
                by_page.setdefault(page, []).append((box, rows))
            degradation = real_layout.DEGRADATIONS[index % len(real_layout.DEGRADATIONS)]
            for page, tables in sorted(by_page.items()):
                clean = os.path.join(out, f"icdar-{document}-p{page}-clean.png")
                real_layout.render(pdf, page, 300, clean)
                height = page_size(pdf, page)[1]
                styles = ["ruled" if box and ruled(clean, box, height) else "unruled" for box, _ in tables]
                for variant in ("clean", degradation):
                    name = f"icdar-{document}-p{page}-{variant}"
                    image = clean
                    if variant != "clean":
                        dpi = 300 if variant == "bilevel" else (150 if variant == "lowres" else 200)
                        image = os.path.join(out, name + ".png")
                        real_layout.render(pdf, page, dpi, image)
                        image, _ = real_layout.degrade(variant, image, seed=int(hashlib.sha1(name.encode()).hexdigest()[:8], 16))
                    json.dump({"image": os.path.basename(image), "document": f"icdar-{document}", "style": styles[0],
                               "truth_styles": styles, "variant": variant, "half": real_layout.half_of(document),
                               "tables": [], "truth_rows": [rows for _, rows in tables]},
                              open(os.path.join(out, name + ".json"), "w"))
                    print(name, flush=True)


def main():
    if len(sys.argv) != 4 or sys.argv[1] != "build":
        raise SystemExit(__doc__)
    build(sys.argv[2], sys.argv[3])


if __name__ == "__main__":
    main()
