#!/usr/bin/env python3
"""The real-layout corpus: born-digital PDFs of real documents nobody here made (corpus/pdf,
sources and licences in corpus/README.md), their exact word boxes from `pdftotext -bbox-layout`,
rendered and degraded as scanners degrade pages, and read by plain `tesseract` and each level,
side by side, scored box-aligned (score.py).

    real_layout.py build WORK_DIR                  renders every page (deterministic) into WORK_DIR/pages
    real_layout.py run BIN_DIR WORK_DIR [--levels fast,accurate] [--half dev|heldout|all] [--jobs 2]
    real_layout.py report WORK_DIR [--half ...]    the BENCHMARKS.md tables of a run

The corpus is split by source document (not by page, so that no document is in both halves):
`dev` is for choosing parameters, `heldout` is only for reporting (BENCHMARKS.md says which
figure is which). Each source page is rendered twice: clean at 300 dpi, and once degraded (one
of: a 200-dpi scan with blur, noise and JPEG; a 300-dpi bilevel threshold; a 200-dpi dithered
fax; a 150-dpi page whose file says 72 dpi).
"""
import argparse
import hashlib
import json
import os
import random
import re
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(__file__))
import run  # noqa: E402  (cpu_of, tesseract_words, cluster_words)
import score  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
DEGRADATIONS = ["scan", "bilevel", "fax", "lowres"]


def half_of(document):
    """dev or heldout, from the document's name alone (stable, and blind to its content)."""
    return "dev" if int(hashlib.sha1(document.encode()).hexdigest(), 16) % 2 == 0 else "heldout"


def truth_words(pdf, page, scale):
    """The page's words with boxes in pixels at `scale` pixels per point (pdftotext -bbox-layout)."""
    html = subprocess.run(["pdftotext", "-bbox-layout", "-f", str(page), "-l", str(page), pdf, "-"],
                          capture_output=True, check=True).stdout.decode("utf-8", "replace")
    words = []
    for m in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', html):
        x0, y0, x1, y1 = (float(v) * scale for v in m.groups()[:4])
        text = (m.group(5).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
                .replace("&quot;", '"').replace("&apos;", "'"))
        if text.strip():
            words.append({"text": text, "box": [round(x0), round(y0), max(1, round(x1 - x0)), max(1, round(y1 - y0))]})
    return words


def render(pdf, page, dpi, out_png):
    base = out_png[:-4]
    # The media box: pdftotext -bbox-layout gives coordinates in it, whatever the crop box.
    subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", "-png", "-singlefile", "-f", str(page), "-l", str(page),
                    pdf, base], check=True)


def degrade(kind, png, seed):
    """Degrades the rendered page in place, deterministically (PIL, seeded)."""
    from PIL import Image, ImageFilter
    rng = random.Random(seed)
    image = Image.open(png).convert("L")
    if kind == "scan":
        image = image.filter(ImageFilter.GaussianBlur(0.7))
        # Gaussian noise around mid-gray, sigma 10, as PIL's effect_noise makes it but from the
        # seeded generator (effect_noise draws from C's rand(), unseeded): uniform bytes through
        # the normal distribution's quantiles.
        quantiles = statistics.NormalDist(128, 10)
        table = [max(0, min(255, round(quantiles.inv_cdf((u + 0.5) / 256)))) for u in range(256)]
        noise = Image.frombytes("L", image.size, rng.randbytes(image.size[0] * image.size[1])).point(table)
        image = Image.blend(image, noise, 0.12)
        out = png[:-4] + ".jpg"
        image.save(out, quality=55, dpi=(200, 200))
        os.remove(png)
        return out, 200
    if kind == "bilevel":
        threshold = 150 + rng.randint(-15, 15)
        image.point(lambda v: 255 if v > threshold else 0).convert("1", dither=Image.Dither.NONE).save(png, dpi=(300, 300))
        return png, 300
    if kind == "fax":
        image.convert("1").save(png, dpi=(200, 200))  # Floyd-Steinberg dithering
        return png, 200
    if kind == "lowres":
        image.save(png, dpi=(72, 72))  # rendered at 150 dpi; the file says 72
        return png, 150
    raise ValueError(kind)


def variant_pages(pdf, pages, variant, name, out):
    """Pages 1...`pages` of `pdf` rendered as `variant` (clean at 300 dpi, or degraded as
    `degrade` does, seeded by `name` and the page) into `out`: their image paths."""
    dpi = 300 if variant in ("clean", "bilevel") else (150 if variant == "lowres" else 200)
    images = []
    for page in range(1, pages + 1):
        png = os.path.join(out, f"{name}-p{page}.png")
        render(pdf, page, dpi, png)
        image = png
        if variant != "clean":
            image, _ = degrade(variant, png, seed=int(hashlib.sha1(f"{name}-{page}".encode()).hexdigest()[:8], 16))
        images.append(image)
    return images


def multipage_tiff(images, variant, target):
    """`images` as one TIFF of as many pages, with the resolution tag `variant`'s files carry."""
    from PIL import Image
    first, *rest = [Image.open(i) for i in images]
    dpi = {"clean": 300, "bilevel": 300, "lowres": 72}.get(variant, 200)
    first.save(target, save_all=True, append_images=rest, dpi=(dpi, dpi), compression="group4" if first.mode == "1" else "tiff_lzw")


def build(work):
    manifest = json.load(open(os.path.join(CORPUS, "manifest.json")))
    pages_dir = os.path.join(work, "pages")
    os.makedirs(pages_dir, exist_ok=True)
    index = 0
    for entry in manifest["documents"]:
        pdf = os.path.join(CORPUS, "pdf", entry["file"])
        count = int(re.search(r"Pages:\s+(\d+)", subprocess.run(["pdfinfo", pdf], capture_output=True, check=True).stdout.decode()).group(1))
        for page in range(1, count + 1):
            stem = f"{entry['file'][:-4]}-p{page}"
            degradation = DEGRADATIONS[index % len(DEGRADATIONS)]
            index += 1
            for variant, dpi in (("clean", 300), (degradation, {"scan": 200, "bilevel": 300, "fax": 200, "lowres": 150}[degradation])):
                name = f"{stem}-{variant}"
                png = os.path.join(pages_dir, name + ".png")
                render(pdf, page, dpi, png)
                image = png
                if variant != "clean":
                    image, dpi = degrade(variant, png, seed=int(hashlib.sha1(name.encode()).hexdigest()[:8], 16))
                words = truth_words(pdf, page, dpi / 72)
                json.dump({"image": os.path.basename(image), "document": entry["file"], "page": page, "kind": entry["kind"],
                           "variant": variant, "half": half_of(entry["file"]), "words": words},
                          open(os.path.join(pages_dir, name + ".json"), "w"))
                print(f"{name}: {len(words)} words", flush=True)


def run_pages(bin_dir, work, levels, half, jobs):
    pages_dir = os.path.join(work, "pages")
    truths = []
    for name in sorted(f for f in os.listdir(pages_dir) if f.endswith(".json")):
        truth = json.load(open(os.path.join(pages_dir, name)))
        if half in ("all", truth["half"]):
            truths.append((name[:-5], truth))

    def one(item):
        name, truth = item
        image = os.path.join(pages_dir, truth["image"])
        runs = {"tesseract": run.tesseract_words(image)}
        steps = {level: {} for level in levels}
        for level in levels:
            runs[level] = run.cluster_words(bin_dir, image, level, steps=steps[level])
        rows = []
        for variant, (words, cpu) in runs.items():
            row = {"set": "real-layout", "page": name, "kind": truth["kind"], "degradation": truth["variant"], "half": truth["half"],
                   "variant": variant, "cpu_s": round(cpu, 2)}
            if variant in steps:
                row["steps"] = {step: round(seconds, 3) for step, seconds in steps[variant].items()}
            row.update(score.score(truth["words"], words))
            rows.append(row)
        return rows

    out = []
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for rows in pool.map(one, truths):
            for row in rows:
                print(json.dumps(row), flush=True)
            out += rows
    json.dump(out, open(os.path.join(work, f"real-layout-{half}.json"), "w"), indent=1)
    return out


def report(work, half):
    """A Markdown summary of real-layout-HALF.json: per level, the mean per-page word accuracy,
    CPU against plain tesseract in the same run, and the pages below plain tesseract by more than
    0.5 point (the worst named); then per kind."""
    own = os.path.join(work, f"real-layout-{half}.json")
    rows = json.load(open(own if os.path.exists(own) else os.path.join(work, "real-layout-all.json")))
    rows = [row for row in rows if half in ("all", row["half"])]
    by_page = {}
    for row in rows:
        by_page.setdefault(row["page"], {})[row["variant"]] = row
    variants = ["tesseract"] + sorted({r["variant"] for r in rows} - {"tesseract"}, key=["fast", "accurate", "best"].index)
    pages = sorted(by_page)
    lines = [f"| level | pages | word accuracy (mean per page) | CPU vs tesseract | pages below tesseract by > 0.5 point | worst page against tesseract |",
             "| --- | ---: | ---: | ---: | ---: | --- |"]
    plain_cpu = sum(by_page[p]["tesseract"]["cpu_s"] for p in pages)
    for variant in variants:
        accuracy = sum(by_page[p][variant]["word_accuracy"] for p in pages) / len(pages)
        cpu = sum(by_page[p][variant]["cpu_s"] for p in pages)
        deltas = sorted((by_page[p][variant]["word_accuracy"] - by_page[p]["tesseract"]["word_accuracy"], p) for p in pages)
        below = [d for d in deltas if d[0] < -0.005]
        worst = "" if variant == "tesseract" else f"{deltas[0][0] * 100:+.1f} ({deltas[0][1]})"
        lines.append(f"| {variant} | {len(pages)} | {accuracy * 100:.1f}% | {cpu / plain_cpu:.2f}x | "
                     f"{'' if variant == 'tesseract' else len(below)} | {worst} |")
    kinds = sorted({by_page[p]["tesseract"]["kind"] for p in pages})
    lines += ["", "| kind | pages | " + " | ".join(variants) + " |", "| --- | ---: |" + " ---: |" * len(variants)]
    for kind in kinds:
        chosen = [p for p in pages if by_page[p]["tesseract"]["kind"] == kind]
        cells = [f"{sum(by_page[p][v]['word_accuracy'] for p in chosen) / len(chosen) * 100:.1f}%" for v in variants]
        lines.append(f"| {kind} | {len(chosen)} | " + " | ".join(cells) + " |")
    print("\n".join(lines))


def command_line(doc, half="all", run_options=lambda run: None):
    """The `build WORK`, `run BIN_DIR WORK`, `report WORK [--json]` command line the corpus
    scripts share, parsed; `run_options` adds a script's own options to `run`."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("build").add_argument("work")
    run = sub.add_parser("run")
    run.add_argument("bin_dir")
    run.add_argument("work")
    run.add_argument("--half", default=half, choices=["dev", "heldout", "all"])
    run.add_argument("--jobs", type=int, default=2)
    run_options(run)
    report = sub.add_parser("report")
    report.add_argument("work")
    report.add_argument("--half", default=half, choices=["dev", "heldout", "all"])
    report.add_argument("--json", action="store_true")
    return parser.parse_args()


def print_rows(rows, as_json, columns, line, summary):
    """A corpus script's report: its rows as JSON, or as a Markdown table (`columns`, each row
    by `line`) followed by the lines of `summary(rows)`."""
    if as_json:
        print(json.dumps(rows, indent=1))
        return
    print("| " + " | ".join(columns) + " |")
    print("|" + " --- |" * len(columns))
    for row in rows:
        print(line(row))
    print()
    for text in summary(rows):
        print(text)


def corpus_main(doc, build, run, report, columns, line, summary):
    """The `main` of a structure corpus script: `build(work)`, `run(bin_dir, work, half, jobs,
    replay)`, or the rows of `report(work, half)` printed by ``print_rows``."""
    args = command_line(doc, run_options=lambda run: run.add_argument(
        "--replay", action="store_true",
        help="recognise each page once (ocr-bench capture into WORK/captured) and make its document with this build's "
             "structure analysis (ocr-bench render): for choosing structure rules in seconds; report figures from a plain run"))
    if args.command == "build":
        build(args.work)
    elif args.command == "run":
        run(args.bin_dir, args.work, args.half, args.jobs, args.replay)
    else:
        print_rows(report(args.work, args.half), args.json, columns, line, summary)


def main():
    args = command_line(__doc__, half="dev", run_options=lambda run: run.add_argument("--levels", default="fast,accurate"))
    if args.command == "build":
        build(args.work)
    elif args.command == "report":
        report(args.work, args.half)
    else:
        run_pages(args.bin_dir, args.work, [l for l in args.levels.split(",") if l], args.half, args.jobs)


if __name__ == "__main__":
    main()
