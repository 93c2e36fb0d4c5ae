#!/usr/bin/env python3
"""Headings, list items, running headers and footers, and reading order, on real text: forty-seven
chapters of "The Rust Programming Language" (corpus/documents, rust-lang/book, MIT or Apache-2.0;
their Markdown is the truth: headings with their levels, list items, paragraphs in order), code
listings left out, printed by headless Chromium in three layouts (a book page: one column, serif,
running header of book and chapter, page number below; a journal page: two columns, justified,
running header; a report: one column, sans, "Page N" below), their first three pages rendered at
300 dpi clean and once degraded (real_layout.degrade), read by `ocr-submit --format json` as one
job per document, and scored:

- headings and list items: precision and recall, an element found matching one of the truth's
  when their texts are within 20% (normalised Levenshtein distance), each matched at most once;
- running headers and footers: the share of the pages' truth headers and footers found as
  `pageHeader`/`pageFooter` (their text within 20%), on jobs of two pages or more;
- reading order: the normalised Kendall tau between the truth's order of the paragraphs,
  headings and list items and the order of the elements they were found in (each truth element
  matched to the found element sharing most of its words), over the two-column pages and all.

    documents.py build WORK_DIR
    documents.py run BIN_DIR WORK_DIR [--half dev|heldout|all] [--jobs 2]
    documents.py report WORK_DIR [--half ...] [--json]

The halves are real_layout's, by chapter: `dev` for choosing rules, `heldout` for reporting.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(__file__))
import real_layout  # noqa: E402
import rendered_tables  # noqa: E402  (print_pdf)
import score  # noqa: E402  (levenshtein)

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus", "documents")
BOOK = "The Rust Programming Language"
PAGES = 3
LAYOUTS = {
    "book": ("@page { size: Letter; margin: 1in 1.1in; "
             "@top-left { content: 'The Rust Programming Language'; font: italic 9pt 'Liberation Serif'; } "
             "@top-right { content: 'CHAPTER'; font: italic 9pt 'Liberation Serif'; } "
             "@bottom-center { content: counter(page); font: 10pt 'Liberation Serif'; } } "
             "body { font: 11pt/1.35 'Liberation Serif'; }"),
    "journal": ("@page { size: Letter; margin: 0.8in 0.7in; "
                "@top-center { content: 'The Rust Programming Language \\2014  CHAPTER'; font: 8.5pt 'Nimbus Roman'; } } "
                "body { font: 10pt/1.3 'Nimbus Roman'; column-count: 2; column-gap: 0.3in; text-align: justify; } "
                "h1 { column-span: all; }"),
    "report": ("@page { size: Letter; margin: 0.9in; "
               "@bottom-right { content: 'Page ' counter(page); font: 9pt 'DejaVu Sans'; } } "
               "body { font: 10pt/1.4 'DejaVu Sans'; }"),
}


def chapters():
    return sorted(f[:-3] for f in os.listdir(CORPUS) if f.endswith(".md"))


def clean_markdown(text):
    """The chapter's prose: code listings, includes, link targets and HTML comments out."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    text = re.sub(r"^<span class=\"(filename|caption)\">.*?</span>\s*$", "", text, flags=re.M)
    text = re.sub(r"^<(figure|img|/figure|figcaption|/figcaption)[^\n]*$", "", text, flags=re.M)
    text = re.sub(r"^\[[^\]]+\]:\s*\S+.*$", "", text, flags=re.M)  # link reference definitions
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", text)
    text = re.sub(r"\[([^\]]+)\]\[[^\]]*\]", r"\1", text)
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"^> ", "", text, flags=re.M)
    return text


def chapter_title(name):
    number = int(name[2:4])
    return f"Chapter {number}"


def html_of(name, layout):
    import markdown
    body = markdown.markdown(clean_markdown(open(os.path.join(CORPUS, name + ".md"), encoding="utf-8").read()))
    css = LAYOUTS[layout].replace("CHAPTER", chapter_title(name))
    css += (" h1 { font-size: 20pt; margin: 0 0 12pt; } h2 { font-size: 15pt; margin: 14pt 0 6pt; } h3 { font-size: 12.5pt; margin: 12pt 0 5pt; } "
            "h4 { font-size: 11pt; } p { margin: 0 0 7pt; } li { margin: 0 0 3pt; } code { font-family: 'DejaVu Sans Mono'; font-size: 90%; }")
    return f"<!doctype html><html><head><meta charset='utf-8'><style>{css}</style></head><body>{body}</body></html>"


class Elements:
    """The truth's elements in order: (kind, level, text) with kind heading, item or paragraph."""

    def __init__(self, body):
        import html.parser

        class Parser(html.parser.HTMLParser):
            def __init__(self):
                super().__init__()
                self.out, self.stack, self.text = [], [], []

            def handle_starttag(self, tag, attrs):
                if tag in ("h1", "h2", "h3", "h4", "p", "li"):
                    if self.stack and self.stack[-1] == "li" and tag == "p":
                        return  # a loose list item's paragraph is the item
                    if tag == "li" and self.stack and self.stack[-1] == "li":
                        self.flush()  # the outer item's text, before its nested list
                    self.stack.append(tag)
                    self.text = []

            def handle_endtag(self, tag):
                if self.stack and tag == self.stack[-1]:
                    self.flush()
                    self.stack.pop()

            def flush(self):
                text = " ".join("".join(self.text).split())
                if text and self.stack:
                    tag = self.stack[-1]
                    kind = "heading" if tag.startswith("h") else ("item" if tag == "li" else "paragraph")
                    self.out.append({"kind": kind, "level": int(tag[1]) if kind == "heading" else 0, "text": text})
                self.text = []

            def handle_data(self, data):
                if self.stack:
                    self.text.append(data)

        parser = Parser()
        parser.feed(body)
        self.elements = parser.out


def normalised(text):
    return " ".join(text.replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"').split()).lower()


def words_of(text):
    return re.findall(r"[a-z0-9]+", normalised(text))


def on_pages(words, printed_text):
    grams = [words[i:i + 3] for i in range(min(5, max(1, len(words) - 2)))]
    return any(" " + " ".join(gram) + " " in printed_text for gram in grams)


def pages_of(pdf):
    return int(subprocess.run(["qpdf", "--show-npages", pdf], capture_output=True, text=True, check=True).stdout)


def build(work):
    out = os.path.join(work, "documents")
    os.makedirs(out, exist_ok=True)
    # A job's pages and its findings from an earlier build (another layout, another variant)
    # would be scored with this one's: the directory starts empty.
    for stale in os.listdir(out):
        os.remove(os.path.join(out, stale))
    for index, name in enumerate(chapters()):
        layout = list(LAYOUTS)[index % len(LAYOUTS)]
        page = html_of(name, layout)
        full = os.path.join(out, name + "-full.pdf")
        rendered_tables.print_pdf(page, full)
        pdf = os.path.join(out, name + ".pdf")
        subprocess.run(["qpdf", full, "--pages", ".", f"1-{PAGES}" if pages_of(full) > PAGES else "1-z", "--", pdf], check=True)
        os.remove(full)
        pages = pages_of(pdf)
        # The truth's elements on these pages: those with one of their first word trigrams in
        # their text (pdftotext's order of two justified columns is not the reading order, so
        # longer runs of words are not reliably there).
        printed = words_of(subprocess.run(["pdftotext", pdf, "-"], capture_output=True, text=True, check=True).stdout)
        printed_text = " " + " ".join(printed) + " "
        body = page.split("<body>", 1)[1]
        elements = [e for e in Elements(body).elements if on_pages(words_of(e["text"]), printed_text)]
        running = [{"page": p, "header": ({"book": f"{BOOK} {chapter_title(name)}", "journal": f"{BOOK} \u2014 {chapter_title(name)}"}.get(layout)),
                    "footer": ({"book": str(p), "report": f"Page {p}"}.get(layout))} for p in range(1, pages + 1)]
        degradation = real_layout.DEGRADATIONS[index % len(real_layout.DEGRADATIONS)]
        for variant in ("clean", degradation):
            job = f"{name}-{variant}"
            images = [os.path.basename(i) for i in real_layout.variant_pages(pdf, pages, variant, job, out)]
            json.dump({"images": images, "document": name, "layout": layout, "variant": variant, "half": real_layout.half_of(name),
                       "elements": elements, "running": running}, open(os.path.join(out, job + ".json"), "w"), indent=1)
            print(job, layout, len(elements), "elements", flush=True)


def run_jobs(bin_dir, work, half, jobs, replay=False):
    if replay:
        raise SystemExit("--replay is structure.py's (one image per page); run the jobs here")
    out = os.path.join(work, "documents")
    entries = [json.load(open(os.path.join(out, f))) | {"name": f[:-5]} for f in sorted(os.listdir(out)) if f.endswith(".json") and not f.endswith(".found.json")]
    entries = [e for e in entries if half in ("all", e["half"])]

    def one(entry):
        with tempfile.TemporaryDirectory() as scratch:
            # One job of the document's pages, in order (a multi-page TIFF keeps them one file).
            tiff = os.path.join(scratch, entry["name"] + ".tif")
            real_layout.multipage_tiff([os.path.join(out, i) for i in entry["images"]], entry["variant"], tiff)
            done = subprocess.run([os.path.join(bin_dir, "ocr-submit"), "--local", "--quiet", "--format", "json", tiff],
                                  capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{entry['name']}: {done.stderr}")
        open(os.path.join(out, entry["name"] + ".found.json"), "w").write(done.stdout)
        return entry["name"]

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for name in pool.map(one, entries):
            print(name, flush=True)


def similar(a, b, within=0.2):
    a, b = normalised(a), normalised(b)
    return score.levenshtein(a, b) <= within * max(len(a), len(b), 1)


def matched(truth, found):
    """How many of `truth` and `found` (texts) match one to one (greedy, in order)."""
    used = set()
    count = 0
    for t in truth:
        for i, f in enumerate(found):
            if i not in used and similar(t, f):
                used.add(i)
                count += 1
                break
    return count


def kendall(ranks):
    """Normalised Kendall tau (1 = same order) of a sequence of ranks against 0, 1, 2...; ties
    (two truth elements found in one element) are neither concordant nor discordant."""
    concordant = discordant = 0
    for i in range(len(ranks)):
        for j in range(i + 1, len(ranks)):
            if ranks[i] < ranks[j]:
                concordant += 1
            elif ranks[i] > ranks[j]:
                discordant += 1
    total = concordant + discordant
    return 1.0 if total == 0 else concordant / total


def found_elements(document):
    """The job's elements in document order: (page, kind, text); list items one by one."""
    out = []
    for page in document["pages"]:
        for element in page.get("structure", []):
            if element["type"] == "list":
                out += [(page["pageIndex"] + 1, "item", item["text"]) for item in element["items"]]
            elif element["type"] == "table":
                out.append((page["pageIndex"] + 1, "table", " ".join(c["text"] for row in element["rows"] for c in row)))
            else:
                out.append((page["pageIndex"] + 1, element["type"], element.get("text", "")))
    return out


def report(work, half):
    out = os.path.join(work, "documents")
    rows = []
    for f in sorted(os.listdir(out)):
        if not f.endswith(".found.json"):
            continue
        name = f[: -len(".found.json")]
        entry = json.load(open(os.path.join(out, name + ".json")))
        if half not in ("all", entry["half"]):
            continue
        found = found_elements(json.load(open(os.path.join(out, f))))
        truth = entry["elements"]
        row = {"document": name, "layout": entry["layout"], "variant": entry["variant"], "half": entry["half"]}
        for kind, found_kind in (("heading", "heading"), ("item", "item")):
            t = [e["text"] for e in truth if e["kind"] == kind]
            g = [text for _, k, text in found if k == found_kind]
            m = matched(t, g)
            row[kind] = {"truth": len(t), "found": len(g), "matched": m}
        wanted = found_running = 0
        # Running text is what repeats across a job's pages: counted on jobs of two pages or more.
        for running in (entry["running"] if len(entry["running"]) > 1 else []):
            for key, kind in (("header", "pageHeader"), ("footer", "pageFooter")):
                if running[key]:
                    wanted += 1
                    texts = [text for p, k, text in found if p == running["page"] and k == kind]
                    found_running += any(similar(running[key], text) for text in texts)
        row["running"] = {"truth": wanted, "found": found_running}
        # Reading order: each truth element to the found element sharing most of its words.
        ranks = []
        found_words = [set(words_of(text)) for _, _, text in found]
        for element in truth:
            words = set(words_of(element["text"]))
            if len(words) < 3:
                continue
            best = max(range(len(found)), key=lambda i: len(words & found_words[i]), default=None)
            if best is not None and len(words & found_words[best]) >= 0.5 * len(words):
                ranks.append(best)
        row["order"] = {"elements": len(ranks), "tau": round(kendall(ranks), 4)}
        rows.append(row)
    return rows


def summary(rows):
    def pr(kind):
        t = sum(r[kind]["truth"] for r in rows)
        g = sum(r[kind]["found"] for r in rows)
        m = sum(r[kind]["matched"] for r in rows)
        return (m / g if g else 1.0), (m / t if t else 1.0), t
    lines = []
    for kind, label in (("heading", "headings"), ("item", "list items")):
        p, r, t = pr(kind)
        lines.append(f"{label}: precision {p:.3f}, recall {r:.3f} ({t} in the truth)")
    wanted = sum(r["running"]["truth"] for r in rows)
    got = sum(r["running"]["found"] for r in rows)
    lines.append(f"running headers and footers found: {got / wanted if wanted else 1:.3f} ({got} of {wanted})")
    for label, subset in (("all layouts", rows), ("two columns", [r for r in rows if r["layout"] == "journal"])):
        if subset:
            lines.append(f"reading order ({label}): Kendall tau {sum(r['order']['tau'] for r in subset) / len(subset):.3f} over {len(subset)} jobs")
    return lines


def report_line(row):
    h, i, run, o = row["heading"], row["item"], row["running"], row["order"]
    return (f"| {row['document']} | {row['layout']} | {h['truth']}/{h['found']}/{h['matched']} | {i['truth']}/{i['found']}/{i['matched']} "
            f"| {run['found']}/{run['truth']} | {o['tau']:.3f} ({o['elements']}) |")


def main():
    real_layout.corpus_main(__doc__, build, run_jobs, report,
                            ["job", "layout", "headings (truth/found/matched)", "list items", "running", "order tau"], report_line, summary)

if __name__ == "__main__":
    main()
