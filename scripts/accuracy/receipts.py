#!/usr/bin/env python3
"""Real shop receipts: how many of their printed lines are read exactly, by plain `tesseract`,
by ocr-cluster's levels and (with --rapidocr) by the example RapidOCR engine, side by side in one
run, with CPU seconds per receipt.

The receipts are scans from ICDAR 2019 SROIE (Robust Reading Challenge on Scanned Receipts OCR
and Information Extraction), as corrected in github.com/zzzDavid/ICDAR-2019-SROIE (data/img,
data/box: each printed text segment's box and transcript). The dataset is distributed for
research, so nothing of it is copied into this repository: the script reads a clone (the
library's `fetch`, or `git clone`) and prints figures. Receipts 000-059 are used, split into a
dev and a held-out half by their names' hash (real_layout.half_of); `--receipts 60-119` takes
others (a fresh set, for checking a choice made on those halves).

A segment is read exactly when the recognised words whose boxes lie mostly in its box (each
word given to the segment it overlaps most), in left-to-right order, equal its transcript
ignoring case and white space (SROIE's transcripts are upper case whatever the print, and space
colons and the like as they please: "DATE:" for "Date :"). Segments transcribed "***" (Chinese
print, not transcribed) are left out. Segment CER: Levenshtein distance of those words against
the transcript, both without white space, summed over the segments, over the transcripts'
length (a segment with no words costs its whole length).

    receipts.py BIN_DIR GIT_DIR [--half dev|heldout|all] [--receipts 0-59] [--levels fast,accurate] [--rapidocr] [--json]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402
import score  # noqa: E402
from real_layout import half_of  # noqa: E402

RECEIPTS = "0-59"


def receipt_names(spec):
    """"60-119" -> ["060", ..., "119"]."""
    first, _, last = spec.partition("-")
    return [f"{i:03d}" for i in range(int(first), int(last or first) + 1)]


def git_show(git_dir, path):
    return subprocess.run(["git", "--git-dir", git_dir, "show", f"HEAD:{path}"], capture_output=True, check=True).stdout


def segments(csv_text):
    """SROIE's box file: x1,y1,...,x4,y4,transcript per line -> [{"text", "box": [x, y, w, h]}]."""
    out = []
    for line in csv_text.splitlines():
        cells = line.split(",", 8)
        if len(cells) < 9 or cells[8].strip() in ("", "***"):
            continue
        xs, ys = [int(c) for c in cells[0:8:2]], [int(c) for c in cells[1:8:2]]
        out.append({"text": cells[8].strip(), "box": [min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)]})
    return out


def read_segments(truth, words):
    """(segments read exactly, segment CER numerator, transcripts' length) of `words` on `truth`."""
    given = [[] for _ in truth]
    for word in words:
        x, y, w, h = word["box"]
        best, best_area = None, 0
        for i, segment in enumerate(truth):
            area = score.overlap(word["box"], segment["box"])
            if area > best_area:
                best, best_area = i, area
        if best is not None and best_area >= 0.5 * max(1, w * h):
            given[best].append(word)
    exact, errors, length = 0, 0, 0
    for segment, chosen in zip(truth, given):
        text = " ".join(w["text"] for w in sorted(chosen, key=lambda w: w["box"][0]))
        want, got = "".join(segment["text"].upper().split()), "".join(text.upper().split())
        exact += want == got
        errors += score.levenshtein(want, got)
        length += len(want)
    return exact, errors, length


def rapidocr_reader():
    """The example engine's reader (clients/python/examples), its models loaded before timing."""
    import cv2
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.path.insert(0, os.path.join(root, "clients", "python", "examples"))
    sys.path.insert(0, os.path.join(root, "clients", "python", "src"))
    from rapidocr_engine import RapidOCREngine
    engine = RapidOCREngine()
    engine.read_image(cv2.imread(os.path.join(root, "Tests", "Fixtures", "text.png")))

    def read(path):
        image = cv2.imread(path, cv2.IMREAD_COLOR)
        start = time.process_time()
        recognized = engine.read_image(image)
        cpu = time.process_time() - start
        return [{"text": w.text, "box": list(w.box)} for line in recognized.words for w in line], cpu
    return read


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bin_dir")
    parser.add_argument("git_dir")
    parser.add_argument("--half", default="dev", choices=["dev", "heldout", "all"])
    parser.add_argument("--receipts", default=RECEIPTS)
    parser.add_argument("--levels", default="fast,accurate")
    parser.add_argument("--rapidocr", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    levels = [level for level in args.levels.split(",") if level]
    rapid = rapidocr_reader() if args.rapidocr else None
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for name in receipt_names(args.receipts):
            if args.half not in ("all", half_of(name)):
                continue
            image = os.path.join(work, name + ".jpg")
            open(image, "wb").write(git_show(args.git_dir, f"data/img/{name}.jpg"))
            truth = segments(git_show(args.git_dir, f"data/box/{name}.csv").decode("utf-8", "replace"))
            runs = {"tesseract": run.tesseract_words(image)}
            for level in levels:
                runs[level] = run.cluster_words(args.bin_dir, image, level)
            if rapid:
                runs["rapidocr"] = rapid(image)
            row = {"receipt": name, "segments": len(truth)}
            for engine, (words, cpu) in runs.items():
                exact, errors, length = read_segments(truth, words)
                row[engine] = {"exact": exact, "errors": errors, "length": length, "cpu_s": round(cpu, 3)}
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    engines = [e for e in rows[0] if e not in ("receipt", "segments")]
    total = sum(r["segments"] for r in rows)
    base_cpu = sum(r["tesseract"]["cpu_s"] for r in rows)
    print(f"| engine | receipts ({args.half}) | segments read exactly | segment CER | CPU s per receipt | CPU vs tesseract |"
          " receipts worse than tesseract by > 2 segments |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for engine in engines:
        exact = sum(r[engine]["exact"] for r in rows)
        cer = sum(r[engine]["errors"] for r in rows) / max(1, sum(r[engine]["length"] for r in rows))
        cpu = sum(r[engine]["cpu_s"] for r in rows)
        worse = sum(1 for r in rows if r[engine]["exact"] < r["tesseract"]["exact"] - 2)
        print(f"| {engine} | {len(rows)} | {exact / total:.3f} ({exact} of {total}) | {cer:.3f} | {cpu / len(rows):.2f} |"
              f" {cpu / base_cpu:.2f}x | {worse} |")


if __name__ == "__main__":
    main()
