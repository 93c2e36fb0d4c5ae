#!/usr/bin/env python3
"""Captions and table notes on real pages: the ICDAR 2013 corpus that icdar_tables.py builds
(EU and US government reports, born-digital), its pages read by `ocr-submit --format json`, the
structure's `caption` and `footnote` elements scored against truth taken from the PDFs' own text
(`pdftotext -bbox-layout` blocks, exact, not read by OCR):

- captions: a block whose first words are a caption label and a number (`Table 6.5:`, `Figure 1`,
  `Exhibit 9`, `Table ES-1`), except prose naming one (the word after the number in lower case,
  the number not set off: "Table 8.13 illustrates ...");
- labelled notes: a line that starts with `Note:`, `Notes:`, `Source:` or `Sources:` (any case).

A caption or note found is right when the first 40 letters and digits of its text are within 20%
(Levenshtein) of a truth block's or line's on the same page, each truth block matched once. Notes led by a
marker (`1`, `*`, `a`) are found too; the PDFs' text does not say which small lines are notes,
so they are counted and listed (`--list`), not scored.

    notes.py run BIN_DIR ICDAR_WORK GIT_DIR [--half dev|heldout|all] [--jobs 2]
    notes.py report ICDAR_WORK [--half ...] [--list]

ICDAR_WORK is icdar_tables.py's WORK (its `tables` directory; the results go to its `notes`
directory); GIT_DIR the tabula-java clone.
"""
import argparse
import html
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import icdar_tables  # noqa: E402
import score  # noqa: E402

LABELS = {"table", "figure", "fig", "chart", "exhibit", "graph", "map", "plate", "scheme", "diagram", "illustration", "listing", "box"}
NOTE_LABELS = {"note", "notes", "source", "sources"}


def pages(work, half):
    out = os.path.join(work, "tables")
    for name in sorted(f[:-5] for f in os.listdir(out) if f.endswith(".json")):
        meta = json.load(open(os.path.join(out, name + ".json")))
        if half in ("all", meta["half"]):
            yield name, meta


def truth_blocks(pdf, page):
    """(captions, labelled notes) of one PDF page, as the PDF's text has them."""
    xml = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-bbox-layout", pdf, "-"],
                         capture_output=True, text=True, check=True).stdout
    def words(element):
        return [html.unescape(w) for w in re.findall(r"<word[^>]*>(.*?)</word>", element, re.S)]

    captions, notes = [], []
    for block in re.findall(r"<block[^>]*>(.*?)</block>", xml, re.S):
        text = words(block)
        if len(text) >= 2 and text[0].lower().rstrip(".") in LABELS and re.match(r"^[A-Z]{0,3}-?[\dIVX]", text[1]):
            prose = len(text) >= 3 and text[2][:1].islower() and not re.search(r"[:.\-–—]$", text[1])
            if not prose:
                captions.append(" ".join(text))
        # A note's label starts a line (pdftotext often runs a table's note into its block).
        for line in re.findall(r"<line[^>]*>(.*?)</line>", block, re.S):
            text = words(line)
            if text and re.sub(r"[:.]$", "", text[0]).lower() in NOTE_LABELS and re.search(r"[:.]$", text[0]):
                notes.append(" ".join(text))
    return captions, notes


def run(bin_dir, work, git_dir, half, jobs):
    out, results = os.path.join(work, "tables"), os.path.join(work, "notes")
    os.makedirs(results, exist_ok=True)
    todo = list(pages(work, half))
    paths = {os.path.basename(path): path for path in icdar_tables.documents(git_dir)}
    with tempfile.TemporaryDirectory() as scratch:
        truths = {}
        for name, meta in todo:
            document, page = re.match(r"icdar-(.+)-p(\d+)-", name).groups()
            if (document, page) in truths:
                continue
            pdf = os.path.join(scratch, document + ".pdf")
            if not os.path.exists(pdf):
                open(pdf, "wb").write(icdar_tables.git(git_dir, "show", f"HEAD:{paths[document]}.pdf"))
            truths[document, page] = truth_blocks(pdf, int(page))

    def one(entry):
        name, meta = entry
        done = subprocess.run([os.path.join(bin_dir, "ocr-submit"), "--local", "--workers", "1", "--quiet", "--format", "json",
                               os.path.join(out, meta["image"])], capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{name}: {done.stderr}")
        found = [(e["type"], e["text"]) for p in json.loads(done.stdout)["pages"] for e in p.get("structure", [])
                 if e["type"] in ("caption", "footnote")]
        document, page = re.match(r"icdar-(.+)-p(\d+)-", name).groups()
        captions, notes = truths[document, page]
        json.dump({"captions": captions, "notes": notes, "found": found}, open(os.path.join(results, name + ".json"), "w"))
        return name

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for name in pool.map(one, todo):
            print(name, flush=True)


def key(text):
    return re.sub(r"[^a-z0-9]", "", text.lower())[:40]


def matches(found, truth):
    a, b = key(found), key(truth)
    n = min(len(a), len(b))
    if n < 5:
        return a == b
    return score.levenshtein(a[:n], b[:n]) <= 0.2 * n


def scored(found, truth):
    """(right, found, truth, wrong found, truth missed)."""
    left, wrong = list(truth), []
    for text in found:
        hit = next((t for t in left if matches(text, t)), None)
        if hit is None:
            wrong.append(text)
        else:
            left.remove(hit)
    return len(found) - len(wrong), len(found), len(truth), wrong, left


def report(work, half, listing):
    totals = {}
    lines = []
    for name, meta in pages(work, half):
        path = os.path.join(work, "notes", name + ".json")
        if not os.path.exists(path):
            continue
        page = json.load(open(path))
        variant = "clean" if meta["variant"] == "clean" else "degraded"
        found_notes = [t for kind, t in page["found"] if kind == "footnote"]
        labelled = [t for t in found_notes if re.match(r"^(notes?|sources?)[:.]", t, re.I)]
        for kind, found, truth in (("captions", [t for k, t in page["found"] if k == "caption"], page["captions"]),
                                   ("labelled notes", labelled, page["notes"])):
            right, n_found, n_truth, wrong, missed = scored(found, truth)
            total = totals.setdefault((kind, variant), [0, 0, 0])
            total[0] += right
            total[1] += n_found
            total[2] += n_truth
            lines += [f"  {name}: {kind} wrong: {t[:100]}" for t in wrong] + [f"  {name}: {kind} missed: {t[:100]}" for t in missed]
        marked = [t for t in found_notes if t not in labelled]
        totals.setdefault(("marked notes found", variant), [0, 0, 0])[1] += len(marked)
        lines += [f"  {name}: marked note: {t[:100]}" for t in marked]
    for (kind, variant), (right, found, truth) in sorted(totals.items()):
        if kind == "marked notes found":
            print(f"{kind}, {variant}: {found}")
        else:
            print(f"{kind}, {variant}: precision {right / max(1, found):.3f} ({right} of {found}), "
                  f"recall {right / max(1, truth):.3f} (of {truth})")
    if listing:
        print("\n".join(lines))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    run_parser = commands.add_parser("run")
    run_parser.add_argument("bin_dir")
    run_parser.add_argument("work")
    run_parser.add_argument("git_dir")
    run_parser.add_argument("--half", default="dev", choices=["dev", "heldout", "all"])
    run_parser.add_argument("--jobs", type=int, default=2)
    report_parser = commands.add_parser("report")
    report_parser.add_argument("work")
    report_parser.add_argument("--half", default="dev", choices=["dev", "heldout", "all"])
    report_parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    if args.command == "run":
        run(args.bin_dir, args.work, args.git_dir, args.half, args.jobs)
    else:
        report(args.work, args.half, args.list)


if __name__ == "__main__":
    main()
