#!/usr/bin/env python3
"""`make accuracy`: word accuracy, CER and CPU seconds per page of plain `tesseract` and of
ocr-cluster's levels, side by side in one run, on the rendered set (make_pages.py: exact word
boxes), on the UNLV pages (bag of words, CER) and the UW3 lines
(CER, --psm 7).

    run.py BIN_DIR WORK_DIR [--levels fast,accurate,best] [--uw3 N]

Prints one JSON object per measurement and writes WORK_DIR/accuracy.json; report.py turns that
into the BENCHMARKS.md section.
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tarfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
import score  # noqa: E402

ENV = dict(os.environ, OMP_THREAD_LIMIT="1")


def cpu_of(command, **kwargs):
    """Runs command; returns (completed process, its CPU seconds, wall seconds). The CPU is the
    child's own (os.wait4), so runs on several threads at once are each measured exactly (the
    process-wide RUSAGE_CHILDREN would mix them)."""
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV, **kwargs)
    out, err = [], []
    readers = [threading.Thread(target=lambda s, b: b.append(s.read()), args=(stream, sink)) for stream, sink in
               ((process.stdout, out), (process.stderr, err))]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    done = subprocess.CompletedProcess(command, process.returncode, out[0], err[0])
    return done, usage.ru_utime + usage.ru_stime, time.monotonic() - start


def tesseract_words(image, psm=None):
    # Options before the "tsv" config name: the CLI ignores options that follow a config.
    command = ["tesseract", image, "-"] + (["--psm", str(psm)] if psm else []) + ["tsv"]
    done, cpu, _ = cpu_of(command)
    return score.tesseract_tsv_words(done.stdout.decode("utf-8", "replace")), cpu


def cluster_words(bin_dir, image, level, psm=None, steps=None):
    """The words ocr-submit reads on `image` at `level`, and its CPU seconds; `steps` (a dict),
    when given, receives each pipeline step's CPU seconds (the page's Timings.steps)."""
    # A level may name an engine mode too: "accurate+combined".
    level, _, mode = level.partition("+")
    command = [os.path.join(bin_dir, "ocr-submit"), "--local", "--workers", "1", "--quiet", "--format", "json",
               "--level", level] + (["--engine-mode", mode] if mode else []) + (["--psm", str(psm)] if psm else []) + [image]
    done, cpu, _ = cpu_of(command)
    if done.returncode not in (0, 2):
        raise SystemExit(f"ocr-submit failed on {image}: {done.stderr.decode()}")
    document = json.loads(done.stdout.decode())
    if steps is not None:
        for page in document["pages"]:
            for step in ((page.get("result") or {}).get("timings") or {}).get("steps", []):
                steps[step["step"]] = steps.get(step["step"], 0) + int(step["cpuUs"]) / 1e6
    return score.document_words(document), cpu


def rendered_set(bin_dir, pages_dir, levels):
    rows = []
    for name in sorted(f for f in os.listdir(pages_dir) if f.endswith(".json")):
        truth = json.load(open(os.path.join(pages_dir, name)))
        image = os.path.join(pages_dir, truth["image"])
        runs = {"tesseract": tesseract_words(image)}
        for level in levels:
            runs[level] = cluster_words(bin_dir, image, level)
        for variant, (words, cpu) in runs.items():
            row = {"set": "photo" if "flat" in truth else "rendered", "page": name[:-5], "kind": truth["kind"],
                   "variant": variant, "cpu_s": round(cpu, 2)}
            if "flat" in truth:
                row["flat"] = truth["flat"]
            row.update(score.score(truth["words"], words))
            print(json.dumps(row), flush=True)
            rows.append(row)
    return rows


def uw3_lines(bin_dir, work, levels, count):
    archive = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "Fixtures", "real", "uw3-lines", "uw3-500.tgz")
    if not os.path.exists(archive):
        return []
    target = os.path.join(work, "uw3")
    if not os.path.isdir(target):
        os.makedirs(target)
        with tarfile.open(archive) as tar:
            tar.extractall(target, filter="data")
    images = sorted(os.path.join(root, f) for root, _, files in os.walk(target) for f in files if f.endswith(".bin.png"))[:count]
    rows = []
    variants = {"tesseract": None, **{level: level for level in levels}}
    for variant, level in variants.items():
        distance = length = 0
        cpu_total = 0.0
        for image in images:
            truth = open(image.replace(".bin.png", ".gt.txt"), encoding="utf-8").read().strip()
            if level is None:
                words, cpu = tesseract_words(image, psm=7)
            else:
                words, cpu = cluster_words(bin_dir, image, level, psm=7)
            text = " ".join(w["text"] for w in words)
            distance += score.levenshtein(truth, text)
            length += len(truth)
            cpu_total += cpu
        row = {"set": "uw3", "lines": len(images), "variant": variant, "cer": distance / max(1, length),
               "cpu_s_per_line": round(cpu_total / max(1, len(images)), 3)}
        print(json.dumps(row), flush=True)
        rows.append(row)
    return rows


def unlv_pages(bin_dir, levels):
    """The real UNLV-ISRI magazine pages (300 dpi bilevel): plain-text ground truth without boxes, so
    a bag-of-words measure (words right in any order, extra words counting as errors) and CER in
    each variant's own reading order (dominated by column order, the same for every variant)."""
    folder = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "Fixtures", "real", "unlv-isri")
    if not os.path.isdir(folder):
        return []
    rows = []
    for name in sorted(f for f in os.listdir(folder) if f.endswith(".3B.tif")):
        image = os.path.join(folder, name)
        truth = open(image[:-4] + ".txt", encoding="latin-1").read()
        runs = {"tesseract": tesseract_words(image), **{level: cluster_words(bin_dir, image, level) for level in levels}}
        for variant, (words, cpu) in runs.items():
            row = {"set": "unlv", "page": name[:-4], "variant": variant, "cpu_s": round(cpu, 2)}
            row.update(score.bag_of_words(truth, [w["text"] for w in words]))
            print(json.dumps(row), flush=True)
            rows.append(row)
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bin_dir")
    parser.add_argument("work")
    parser.add_argument("--levels", default="fast,accurate,best")
    parser.add_argument("--uw3", type=int, default=60)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    pages = os.path.join(args.work, "pages")
    subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "make_pages.py"), pages], check=True)
    levels = [level for level in args.levels.split(",") if level]
    rows = rendered_set(args.bin_dir, pages, levels) + unlv_pages(args.bin_dir, levels) + uw3_lines(args.bin_dir, args.work, levels, args.uw3)
    with open(os.path.join(args.work, "accuracy.json"), "w") as f:
        json.dump({"levels": levels, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
