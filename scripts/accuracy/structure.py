#!/usr/bin/env python3
"""Table structure on real documents: camelot's benchmark PDFs (corpus/tables, MIT; their tables
as camelot's benchmark publishes them are the truth), rendered at 300 dpi clean and once degraded
as a scanner degrades pages (real_layout.degrade), read by `ocr-submit --format html`, and scored
as PubTabNet scores tables: TEDS, the tree-edit-distance similarity of the HTML tables (cells
compared by normalised Levenshtein distance of their text), and TEDS-struct (the same without
the text). Each truth table is scored against the best-matching table found on its page (0 when
none was found).

    structure.py build WORK_DIR               renders every page (deterministic) into WORK_DIR/tables
    structure.py run BIN_DIR WORK_DIR [--half dev|heldout|all] [--jobs 2] [--replay]
    structure.py report WORK_DIR [--half ...]

The halves are real_layout's (by file name): `dev` for choosing rules, `heldout` for reporting.
`--replay` (BIN_DIR holding `ocr-bench`) recognises each page once into WORK_DIR/captured and
then only rebuilds the documents with this build's structure analysis: for choosing rules on
dev in seconds; the figures BENCHMARKS.md reports come from plain runs of `ocr-submit`.
Needs `apted` (pip) for the tree edit distance.
"""
import csv
import hashlib
import html
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(__file__))
import real_layout  # noqa: E402
import rendered_tables  # noqa: E402
import score  # noqa: E402  (levenshtein)

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus", "tables")


def build(work):
    manifest = json.load(open(os.path.join(CORPUS, "manifest.json")))
    out = os.path.join(work, "tables")
    os.makedirs(out, exist_ok=True)
    for stale in os.listdir(out):  # an earlier build's pages would be scored with this one's
        os.remove(os.path.join(out, stale))
    for index, entry in enumerate(manifest["documents"]):
        pdf = os.path.join(CORPUS, "pdf", entry["file"])
        degradation = real_layout.DEGRADATIONS[index % len(real_layout.DEGRADATIONS)]
        for variant in ("clean", degradation):
            name = f"{entry['file'][:-4]}-{variant}"
            dpi = 300 if variant in ("clean", "bilevel") else (150 if variant == "lowres" else 200)
            png = os.path.join(out, name + ".png")
            real_layout.render(pdf, entry["page"], dpi, png)
            image = png
            if variant != "clean":
                image, dpi = real_layout.degrade(variant, png, seed=int(hashlib.sha1(name.encode()).hexdigest()[:8], 16))
            json.dump({"image": os.path.basename(image), "document": entry["file"], "style": entry["style"],
                       "variant": variant, "half": entry["half"], "tables": entry["tables"]},
                      open(os.path.join(out, name + ".json"), "w"))
            print(name, flush=True)
    build_rendered(out)


STYLE_NAMES = {"ruled": "ruled", "booktabs": "unruled, booktabs rules", "unruled": "unruled",
               "zebra": "unruled, zebra-shaded rows", "hairline": "ruled, light-gray hairlines",
               "shaded": "ruled, shaded rows"}


def build_rendered(out):
    """PubTabNet's real tables printed by Chromium (rendered_tables), clean at 300 dpi and once
    degraded; a table printed across two pages becomes a two-page TIFF."""
    for index, (name, style, font, size, multipage, rows, table_html) in enumerate(rendered_tables.renderings()):
        pdf = os.path.join(out, name + ".pdf")
        pages = rendered_tables.print_fitted(name, table_html, style, font, size, multipage, pdf)
        degradation = real_layout.DEGRADATIONS[index % len(real_layout.DEGRADATIONS)]
        label = STYLE_NAMES[style] + (f", {pages} pages" if pages > 1 else "")
        if any(colspan > 1 or rowspan > 1 for row in rows for _, colspan, rowspan in row):
            label += ", spanning cells"
        for variant in ("clean", degradation):
            page_name = f"{name}-{variant}"
            images = real_layout.variant_pages(pdf, pages, variant, page_name, out)
            if pages > 1:
                target = os.path.join(out, page_name + ".tif")
                real_layout.multipage_tiff(images, variant, target)
                for i in images:
                    os.remove(i)
                images = [target]
            json.dump({"image": os.path.basename(images[0]), "document": name, "style": label, "variant": variant,
                       "half": real_layout.half_of(name.split("-")[1]), "tables": [], "truth_rows": [rows]},
                      open(os.path.join(out, page_name + ".json"), "w"))
            print(page_name, flush=True)


def run_pages(bin_dir, work, half, jobs, replay=False):
    out = os.path.join(work, "tables")
    pages = [json.load(open(os.path.join(out, f))) | {"name": f[:-5]} for f in sorted(os.listdir(out)) if f.endswith(".json")]
    pages = [p for p in pages if half in ("all", p["half"])]
    if replay:
        return replay_pages(bin_dir, work, pages, jobs)

    def one(page):
        image = os.path.join(out, page["image"])
        start = time.monotonic()
        done = subprocess.run([os.path.join(bin_dir, "ocr-submit"), "--local", "--workers", "1", "--quiet", "--format", "html", image],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{page['name']}: {done.stderr}")
        open(os.path.join(out, page["name"] + ".html"), "w").write(done.stdout)
        return page["name"], time.monotonic() - start

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for name, seconds in pool.map(one, pages):
            print(f"{name}: {seconds:.1f} s", flush=True)


def replay_pages(bin_dir, work, pages, jobs):
    """`run --replay`: the pages recognised once by `ocr-bench capture` (WORK/captured/NAME.pages,
    kept), their documents made by this build's `ocr-bench render`, copied where `run` puts them."""
    out, captured = os.path.join(work, "tables"), os.path.join(work, "captured")
    os.makedirs(captured, exist_ok=True)
    bench = os.path.join(bin_dir, "ocr-bench")
    todo = [p for p in pages if not os.path.exists(os.path.join(captured, p["name"] + ".pages"))]
    if todo:
        with tempfile.TemporaryDirectory() as links:
            files = []
            for page in todo:  # named as the page, whatever its image is called
                link = os.path.join(links, page["name"] + os.path.splitext(page["image"])[1])
                os.symlink(os.path.join(out, page["image"]), link)
                files.append(link)
            subprocess.run([bench, "capture", "--out", captured, "--threads", str(jobs)] + files, check=True)
    with tempfile.TemporaryDirectory() as rendered:
        for page in pages:
            os.symlink(os.path.join(captured, page["name"] + ".pages"), os.path.join(rendered, page["name"] + ".pages"))
        subprocess.run([bench, "render", "--format", "html", rendered], check=True)
        for page in pages:
            shutil.copyfile(os.path.join(rendered, page["name"] + ".html"), os.path.join(out, page["name"] + ".html"))
    print(f"{len(pages)} pages rendered ({len(todo)} recognised)", flush=True)


class Tables(html.parser.HTMLParser):
    """The tables of an HTML document: rows of (text, colspan, rowspan). A table marked
    data-continues="previous-page" is joined to the one before it, its repeat of that table's
    header rows (th) dropped, as a reader of the document would join them."""

    def __init__(self):
        super().__init__()
        self.tables, self.cell, self.header_rows, self.continues = [], None, [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.tables.append([])
            self.header_rows.append(0)
            self.continues.append(attrs.get("data-continues") == "previous-page")
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th") and self.tables:
            self.cell = [[], int(attrs.get("colspan", 1)), int(attrs.get("rowspan", 1))]
            if tag == "th" and len(self.tables[-1]) > self.header_rows[-1]:
                self.header_rows[-1] = len(self.tables[-1])

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.tables[-1][-1].append((" ".join("".join(self.cell[0]).split()), self.cell[1], self.cell[2]))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[0].append(data)

    def joined(self):
        out = []
        for rows, header_rows, continues in zip(self.tables, self.header_rows, self.continues):
            if continues and out:
                previous_header = out[-1][1]
                if previous_header and rows[:previous_header] == out[-1][0][:previous_header]:
                    rows = rows[previous_header:]
                out[-1][0].extend(rows)
            else:
                out.append((list(rows), header_rows))
        return [rows for rows, _ in out if rows]


def truth_table(path):
    """camelot's CSV as rows of cells; rows with no text dropped."""
    rows = [[(" ".join(cell.split()), 1, 1) for cell in row] for row in csv.reader(open(path, encoding="utf-8"))]
    return [row for row in rows if any(text for text, _, _ in row)]


def teds(a, b, structure_only=False):
    """1 - tree edit distance / the larger tree's size (PubTabNet's TEDS), over table > tr > td."""
    from apted import APTED, Config

    class Node:
        def __init__(self, tag, text="", colspan=1, rowspan=1, children=()):
            self.tag, self.text, self.colspan, self.rowspan, self.children = tag, text, colspan, rowspan, list(children)

    def tree(rows):
        return Node("table", children=[Node("tr", children=[Node("td", t, c, r) for t, c, r in row]) for row in rows])

    def size(node):
        return 1 + sum(size(c) for c in node.children)

    class Cost(Config):
        def rename(self, x, y):
            if x.tag != y.tag or x.colspan != y.colspan or x.rowspan != y.rowspan:
                return 1.0
            if x.tag != "td" or structure_only:
                return 0.0
            return score.levenshtein(x.text, y.text) / max(1, len(x.text), len(y.text))

        def children(self, node):
            return node.children

    ta, tb = tree(a), tree(b)
    distance = APTED(ta, tb, Cost()).compute_edit_distance()
    return 1.0 - distance / max(size(ta), size(tb))


def report(work, half):
    out = os.path.join(work, "tables")
    rows = []
    for name in sorted(f[:-5] for f in os.listdir(out) if f.endswith(".json")):
        page = json.load(open(os.path.join(out, name + ".json")))
        if half not in ("all", page["half"]) or not os.path.exists(os.path.join(out, name + ".html")):
            continue
        parser = Tables()
        parser.feed(open(os.path.join(out, name + ".html")).read())
        found = parser.joined()
        truths = [(table, truth_table(os.path.join(CORPUS, "truth", table)), page["style"]) for table in page["tables"]]
        truth_rows = page.get("truth_rows", [])
        styles = page.get("truth_styles", [page["style"]] * len(truth_rows))  # a page's tables may differ in style
        truths += [(f"{page['document']}-{i + 1}" if len(truth_rows) > 1 else page["document"], rows, style)
                   for i, (rows, style) in enumerate(zip(truth_rows, styles))]
        page_words = set(words_of(re.sub(r"<[^>]*>", " ", open(os.path.join(out, name + ".html")).read())))
        for table, truth, style in truths:
            truth = [[tuple(cell) for cell in row] for row in truth]
            scores = [(teds(truth, t), teds(truth, t, structure_only=True), i) for i, t in enumerate(found)]
            best = max(scores, default=(0.0, 0.0, None))
            read, exact = cell_text(truth, found[best[2]] if best[2] is not None else [], page_words)
            rows.append({"page": name, "table": table, "style": style, "variant": page["variant"], "half": page["half"],
                         "teds": round(best[0], 3), "teds_struct": round(best[1], 3), "tables_found": len(found),
                         "cells_read": read, "cells_exact": exact})
    return rows


def words_of(text):
    return re.findall(r"\w+", html.unescape(text).lower())


def cell_text(truth, found, page_words):
    """Of the truth's cells whose words were all read somewhere on the page (by the HTML's
    text), how many are a cell of the best-matching table found, in the row that shares most
    words with the truth's row, with exactly their words (case and punctuation aside): the
    issue's "cell text exact" share, as its numerator and denominator. A row or column out of
    place costs TEDS, not this."""
    found_rows = [[words_of(text) for text, _, _ in row] for row in found]
    found_row_words = [set(w for cell in row for w in cell) for row in found_rows]
    read = exact = 0
    for row in truth:
        cells = [words_of(text) for text, _, _ in row]
        row_words = set(w for cell in cells for w in cell)
        best = max(range(len(found_rows)), key=lambda i: len(row_words & found_row_words[i]), default=None)
        for words in cells:
            if not words or not all(w in page_words for w in words):
                continue
            read += 1
            exact += best is not None and words in found_rows[best]
    return read, exact


def summary(rows):
    """Mean TEDS / TEDS-struct by kind (ruled, unruled), by corpus and kind, and by style."""
    def mean(label, subset):
        if not subset:
            return []
        return [f"{label}: TEDS {sum(r['teds'] for r in subset) / len(subset):.3f}, "
                f"TEDS-struct {sum(r['teds_struct'] for r in subset) / len(subset):.3f} over {len(subset)} tables"]
    lines = []
    for group in ("ruled", "unruled"):
        lines += mean(group, [r for r in rows if r["style"].split(",")[0] == group])
    read = sum(r["cells_read"] for r in rows)
    exact = sum(r["cells_exact"] for r in rows)
    lines.append(f"cell text exact, of the cells whose words were read: {exact / read if read else 1:.3f} ({exact} of {read})")
    for source in ("camelot", "pubtabnet", "icdar"):
        for group in ("ruled", "unruled"):
            lines += mean(f"  {source}, {group}", [r for r in rows if r["page"].startswith(source) and r["style"].split(",")[0] == group])
    styles = {"booktabs rules": lambda style: "booktabs" in style, "zebra-shaded rows": lambda style: "zebra" in style,
              "light-gray hairlines": lambda style: "hairline" in style,
              "ruled, shaded rows": lambda style: style.startswith("ruled, shaded rows"), "spanning": lambda style: "spanning" in style,
              "across pages": lambda style: " pages" in style, "financial": lambda style: "financial" in style}
    for label, test in styles.items():
        lines += mean(f"  {label}", [r for r in rows if test(r["style"])])
    for variant in ("clean", "degraded"):
        lines += mean(f"  {variant}", [r for r in rows if (r["variant"] == "clean") == (variant == "clean")])
    return lines


def main():
    real_layout.corpus_main(__doc__, build, run_pages, report, ["page", "table", "style", "TEDS", "TEDS-struct", "tables found"],
                            lambda row: f"| {row['page']} | {row['table']} | {row['style']} | {row['teds']:.3f} | {row['teds_struct']:.3f} | {row['tables_found']} |",
                            summary)

if __name__ == "__main__":
    main()
