"""RapidOCR (rapidocr_engine.py) against plain `tesseract` on the repository's real-layout corpus
(scripts/accuracy/real_layout.py: real documents nobody here made, rendered clean and degraded,
exact word boxes), page by page in one run: word accuracy (box-aligned, scripts/accuracy/score.py)
and CPU seconds per page (RapidOCR's process CPU for the call, all its threads; tesseract's as a
child process).

    python3 scripts/accuracy/real_layout.py build WORK
    python3 clients/python/examples/measure_rapidocr.py WORK [--half heldout|dev|all] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

import cv2

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "accuracy"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402
import score  # noqa: E402
from rapidocr_engine import RapidOCREngine  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("work")
    parser.add_argument("--half", default="heldout")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    pages_dir = os.path.join(args.work, "pages")
    engine = RapidOCREngine()
    engine.read_image(cv2.imread(os.path.join(ROOT, "Tests", "Fixtures", "text.png")))  # models loaded before timing
    rows = []
    for name in sorted(f for f in os.listdir(pages_dir) if f.endswith(".json")):
        truth = json.load(open(os.path.join(pages_dir, name)))
        if args.half not in ("all", truth["half"]):
            continue
        image_path = os.path.join(pages_dir, truth["image"])
        image = cv2.imread(image_path, cv2.IMREAD_COLOR)
        start = time.process_time()
        recognized = engine.read_image(image)
        rapid_cpu = time.process_time() - start
        rapid_words = [{"text": w.text, "box": list(w.box)} for line in recognized.words for w in line]
        tess_words, tess_cpu = run.tesseract_words(image_path)
        row = {"page": name[:-5], "kind": truth["kind"], "degradation": truth["variant"],
               "tesseract": score.score(truth["words"], tess_words)["word_accuracy"], "tesseract_cpu_s": round(tess_cpu, 2),
               "rapidocr": score.score(truth["words"], rapid_words)["word_accuracy"], "rapidocr_cpu_s": round(rapid_cpu, 2)}
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps(rows))
        return
    n = len(rows)
    mean = lambda key: sum(r[key] for r in rows) / n  # noqa: E731
    cpu = lambda key: sum(r[key] for r in rows)  # noqa: E731
    better = sum(1 for r in rows if r["rapidocr"] > r["tesseract"] + 0.005)
    worse = sum(1 for r in rows if r["rapidocr"] < r["tesseract"] - 0.005)
    print(f"| engine | pages ({args.half}) | word accuracy (mean per page) | CPU s per page | CPU vs tesseract |")
    print("| --- | ---: | ---: | ---: | ---: |")
    print(f"| tesseract (plain CLI) | {n} | {mean('tesseract') * 100:.1f}% | {cpu('tesseract_cpu_s') / n:.2f} | 1.00x |")
    print(f"| rapidocr (PP-OCRv4, onnxruntime) | {n} | {mean('rapidocr') * 100:.1f}% | {cpu('rapidocr_cpu_s') / n:.2f} | "
          f"{cpu('rapidocr_cpu_s') / cpu('tesseract_cpu_s'):.2f}x |")
    print(f"\nRapidOCR better than tesseract by > 0.5 point on {better} pages, worse on {worse}.")
    kinds = sorted({r["kind"] for r in rows})
    print("\n| kind | pages | tesseract | rapidocr |\n| --- | ---: | ---: | ---: |")
    for kind in kinds:
        chosen = [r for r in rows if r["kind"] == kind]
        print(f"| {kind} | {len(chosen)} | {sum(r['tesseract'] for r in chosen) / len(chosen) * 100:.1f}% | "
              f"{sum(r['rapidocr'] for r in chosen) / len(chosen) * 100:.1f}% |")


if __name__ == "__main__":
    main()
