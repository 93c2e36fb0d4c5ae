"""Real tables, rendered as papers and reports print them: the twenty tables of PubTabNet's
examples (corpus/pubtabnet; tables of PubMed Central articles with their HTML structure,
spanning cells included, annotated by IBM under CDLA-Permissive-1.0) laid out by headless
Chromium in six styles (ruled grid, booktabs rules, no rules, zebra-shaded rows; light-gray
hairline grid, a ruled frame with shaded body rows), each table in two of the first four and in
both of the last two, in four typefaces at 9-11 pt; the three longest once more in large type
across two pages with the header repeated (a table continued on the next page). Their truth is the
annotation itself: rows of (text, colspan, rowspan).

The content and structure are real; the page layout is ours (one table and its caption on a
Letter page), so these pages are for the table structure figures only.
"""
import html
import json
import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "corpus", "pubtabnet", "PubTabNet_Examples.jsonl")
STYLES = ["ruled", "booktabs", "unruled", "zebra"]
# Two more ruled styles, each table printed in both: light-gray hairline rules (a threshold at
# mid-gray loses them), and a frame with column rules whose body rows are told apart by shading
# alone.
RULED_STYLES = ["hairline", "shaded"]
FONTS = [("Liberation Serif", 10), ("DejaVu Sans", 9), ("Liberation Sans", 10), ("Nimbus Roman", 11)]
MULTIPAGE_ROWS = 28  # tables at least this long are also printed across two pages

CSS = {
    "ruled": "td, th { border: 1px solid #000; }",
    "booktabs": "table { border-top: 1.5px solid #000; border-bottom: 1.5px solid #000; }"
                " thead tr:last-child td { border-bottom: 1px solid #000; }",
    "unruled": "",
    "zebra": "tbody tr:nth-child(odd) td { background: #d9d9d9; } thead td { background: #b3b3b3; }",
    "hairline": "td, th { border: 0.75px solid #a0a0a0; }",
    "shaded": "table { border: 1px solid #000; } td { border-left: 1px solid #000; border-right: 1px solid #000; }"
              " thead tr:last-child td { border-bottom: 1px solid #000; } thead td { background: #bfbfbf; }"
              " tbody tr:nth-child(even) td { background: #dcdcdc; }",
}


def tables():
    """(name, rows, html body of the table) for each example, rows as the truth: [(text, colspan, rowspan)]."""
    out = []
    for line in open(SOURCE, encoding="utf-8"):
        example = json.loads(line)
        name = example["filename"][:-4]
        cells = iter(example["html"]["cells"])
        rows, body = [], []
        tokens = example["html"]["structure"]["tokens"]
        index = 0
        while index < len(tokens):
            token = tokens[index]
            if token == "<tr>":
                rows.append([])
            if token.startswith("<td"):
                # "<td", ' colspan="2"', ">" arrive as separate tokens when the cell spans.
                attributes = ""
                if token == "<td":
                    while tokens[index + 1] != ">":
                        index += 1
                        attributes += tokens[index]
                    index += 1
                colspan = int(attributes.split('colspan="')[1].split('"')[0]) if "colspan" in attributes else 1
                rowspan = int(attributes.split('rowspan="')[1].split('"')[0]) if "rowspan" in attributes else 1
                content = next(cells)["tokens"]
                markup = "".join(t if t.startswith("<") else html.escape(t) for t in content)
                text = " ".join("".join(t for t in content if not t.startswith("<")).split())
                rows[-1].append((text, colspan, rowspan))
                body.append(f"<td{attributes}>{markup}")
            else:
                body.append(token)
            index += 1
        out.append((name, rows, "".join(body)))
    return out


def page_html(name, table_html, style, font, size, multipage, landscape=False):
    caption = f"Table. {name.split('_')[0]} (PubTabNet example)"
    css = (f"@page {{ size: Letter{' landscape' if landscape else ''}; margin: 0.9in; }} body {{ font-family: '{font}'; font-size: {size}pt; margin: 0; "
           "-webkit-print-color-adjust: exact; print-color-adjust: exact; } "
           "table { border-collapse: collapse; } td { padding: 3px 9px; vertical-align: top; text-align: left; } "
           "thead td { font-weight: bold; } p { margin: 0 0 10pt 0; } " + CSS[style])
    if multipage:
        css += " td { padding: 6px 9px; }"
    return f"<!doctype html><html><head><meta charset='utf-8'><style>{css}</style></head><body><p>{caption}</p><table>{table_html}</table></body></html>"


def print_pdf(page, pdf):
    with tempfile.TemporaryDirectory() as scratch:
        source = os.path.join(scratch, "page.html")
        open(source, "w", encoding="utf-8").write(page)
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={scratch}/profile",
                        "--no-pdf-header-footer", f"--print-to-pdf={pdf}", "file://" + source],
                       check=True, capture_output=True)


def print_fitted(name, table_html, style, font, size, multipage, pdf):
    """Prints the page in the first of these that gives one page (two when `multipage`): the
    given size, smaller sizes, landscape; larger sizes for a table that must cross a page. A table
    too long for one page at any of them is printed across pages at its own size."""
    sizes = [15, 14, 13, 12, 11, 10, 9, 16, 17, 18] if multipage else [size, size - 1, size - 2]
    for landscape in (False, True):
        for points in sizes:
            print_pdf(page_html(name, table_html, style, font, points, multipage, landscape), pdf)
            pages = int(subprocess.run(["qpdf", "--show-npages", pdf], capture_output=True, text=True, check=True).stdout)
            if pages == (2 if multipage else 1):
                return pages
    if multipage:
        raise SystemExit(f"{name}: does not print on two pages")
    print_pdf(page_html(name, table_html, style, font, size, multipage), pdf)
    return int(subprocess.run(["qpdf", "--show-npages", pdf], capture_output=True, text=True, check=True).stdout)


def renderings():
    """Every rendering: (page name, style, font, size, multipage, truth rows, table html)."""
    out = []
    for index, (name, rows, table_html) in enumerate(sorted(tables())):
        font, size = FONTS[index % len(FONTS)]
        for style in (STYLES[index % 4], STYLES[(index + 1) % 4]):
            out.append((f"pubtabnet-{name}-{style}", style, font, size, False, rows, table_html))
        if len(rows) >= MULTIPAGE_ROWS:
            out.append((f"pubtabnet-{name}-multipage", "booktabs", font, size, True, rows, table_html))
    # (after the first four styles' renderings, so that theirs keep their degradations)
    for index, (name, rows, table_html) in enumerate(sorted(tables())):
        font, size = FONTS[index % len(FONTS)]
        for style in RULED_STYLES:
            out.append((f"pubtabnet-{name}-{style}", style, font, size, False, rows, table_html))
    return out

