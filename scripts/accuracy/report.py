#!/usr/bin/env python3
"""Writes the accuracy section of BENCHMARKS.md (between its accuracy markers) from run.py's
accuracy.json.

    report.py WORK_DIR/accuracy.json BENCHMARKS.md COMMAND
"""
import json
import sys

BEGIN, END = "<!-- accuracy:begin -->", "<!-- accuracy:end -->"


def main():
    data = json.load(open(sys.argv[1]))
    path, command = sys.argv[2], sys.argv[3]
    levels = data["levels"]
    variants = ["tesseract"] + levels
    rendered = [r for r in data["rows"] if r["set"] == "rendered"]
    pages = sorted({r["page"] for r in rendered}, key=lambda p: [r["page"] for r in rendered].index(p))
    by = {(r["page"], r["variant"]): r for r in rendered}
    out = [BEGIN, "", f"Produced by `{command}` (one run; one engine thread; CPU seconds of the whole process per page,",
           "model loading included for every variant alike). Word accuracy is box-aligned (scripts/accuracy/score.py);",
           "invented words count as errors.", ""]
    header = "| page | kind | words | " + " | ".join(f"{v} words right" for v in variants) + " | " + " | ".join(f"{v} CER" for v in variants) + " | " + " | ".join(f"{v} CPU s" for v in variants) + " |"
    out += [header, "|" + " --- |" * (3 + 3 * len(variants))]
    for page in pages:
        rows = [by[(page, v)] for v in variants]
        out.append(f"| {page} | {rows[0]['kind']} | {rows[0]['words']} | "
                   + " | ".join(f"{100 * r['word_accuracy']:.1f}%" for r in rows) + " | "
                   + " | ".join(f"{100 * r['cer']:.1f}%" for r in rows) + " | "
                   + " | ".join(f"{r['cpu_s']:.2f}" for r in rows) + " |")
    means = {v: sum(by[(p, v)]["word_accuracy"] for p in pages) / len(pages) for v in variants}
    cpu = {v: sum(by[(p, v)]["cpu_s"] for p in pages) / len(pages) for v in variants}
    out += ["", "| variant | mean word accuracy per file | CPU s per page | CPU vs tesseract |", "| --- | --- | --- | --- |"]
    for v in variants:
        out.append(f"| {v} | {100 * means[v]:.1f}% | {cpu[v]:.2f} | {cpu[v] / cpu['tesseract']:.2f}x |")
    photos = [r for r in data["rows"] if r["set"] == "photo"]
    if photos:
        out += ["", "Photographs of rendered pages (make_pages.py: perspective on a desk in a 3024 x 4032 frame, light falling off"
                " to 55% across it, a soft shadow, blur, noise, JPEG; scored in the photo's pixels). \"of flat\" is the photo's"
                " word accuracy over its flat page's, same variant, same run:", "",
                "| photo | kind | words | " + " | ".join(f"{v} words right" for v in variants) + " | "
                + " | ".join(f"{v} of flat" for v in variants) + " | " + " | ".join(f"{v} CPU s" for v in variants) + " |",
                "|" + " --- |" * (3 + 3 * len(variants))]
        pb = {(r["page"], r["variant"]): r for r in photos}
        for page in sorted({r["page"] for r in photos}):
            rows = [pb[(page, v)] for v in variants]
            flats = [by[(rows[0]["flat"], v)] for v in variants]
            out.append(f"| {page} | {rows[0]['kind']} | {rows[0]['words']} | "
                       + " | ".join(f"{100 * r['word_accuracy']:.1f}%" for r in rows) + " | "
                       + " | ".join(f"{100 * r['word_accuracy'] / max(1e-9, f['word_accuracy']):.1f}%" for r, f in zip(rows, flats)) + " | "
                       + " | ".join(f"{r['cpu_s']:.2f}" for r in rows) + " |")
    unlv = [r for r in data["rows"] if r["set"] == "unlv"]
    if unlv:
        out += ["", "UNLV-ISRI magazine pages (real 300-dpi bilevel scans; plain-text truth, so words right in any order and CER in"
                " each variant's reading order):", "",
                "| page | words | " + " | ".join(f"{v} words right" for v in variants) + " | " + " | ".join(f"{v} CER" for v in variants)
                + " | " + " | ".join(f"{v} CPU s" for v in variants) + " |", "|" + " --- |" * (2 + 3 * len(variants))]
        ub = {(r["page"], r["variant"]): r for r in unlv}
        for page in sorted({r["page"] for r in unlv}):
            rows = [ub[(page, v)] for v in variants]
            out.append(f"| {page} | {rows[0]['words']} | " + " | ".join(f"{100 * r['word_accuracy']:.1f}%" for r in rows) + " | "
                       + " | ".join(f"{100 * r['cer']:.1f}%" for r in rows) + " | " + " | ".join(f"{r['cpu_s']:.2f}" for r in rows) + " |")
    uw3 = [r for r in data["rows"] if r["set"] == "uw3"]
    if uw3:
        out += ["", f"UW3 lines ({uw3[0]['lines']} real scanned lines, `--psm 7`): "
                + ", ".join(f"{r['variant']} CER {100 * r['cer']:.2f}% ({r['cpu_s_per_line']:.2f} CPU s/line)" for r in uw3) + "."]
    out += ["", END]
    text = open(path).read()
    if BEGIN in text:
        text = text[:text.index(BEGIN)] + "\n".join(out) + text[text.index(END) + len(END):]
    else:
        text = text.rstrip() + "\n\n## Accuracy (issue 14)\n\n" + "\n".join(out) + "\n"
    open(path, "w").write(text)


if __name__ == "__main__":
    main()
