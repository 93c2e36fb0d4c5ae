#!/usr/bin/env python3
"""Real phone photographs against the same pages flat, for issue 14's photo goal (at least 90%
of the words of the same page scanned flat).

The pages are French school worksheets from github.com/dataforgoodfr/batch9_dyslexia
(Exemples/): 4000 x 3000 phone JPEGs with EXIF orientation (6 or 3), each page's text, and
the page as a flat scan (Histoire_scan.pdf) or as its digital original (SVT.pdf, rasterised
and OCRed with --force-ocr). The repository states no licence, so nothing of it is copied into
ours: this script reads it from a clone (the library's `fetch`, or `git clone`) and prints
figures. Words right are counted in any order against the plain-text truth (score.bag_of_words);
Tesseract needs its French model (Debian: tesseract-ocr-fra).

    real_photos.py BIN_DIR GIT_DIR [LEVELS]   (LEVELS: comma-separated, default accurate)
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import run  # noqa: E402
import score  # noqa: E402

PAGES = {
    "hist_geo": ("Exemples/Histoire_Geo/Histoire_scan.pdf",
                 ["Exemples/Histoire_Geo/IMG_20210329_122524.jpg", "Exemples/Histoire_Geo/IMG_20210329_122536.jpg",
                  "Exemples/Histoire_Geo/IMG_20210329_122543.jpg"]),
    "svt": ("Exemples/SVT.pdf",
            ["Exemples/SVT/IMG_20210329_122614.jpg", "Exemples/SVT/IMG_20210329_122617.jpg",
             "Exemples/SVT/IMG_20210329_122629.jpg", "Exemples/SVT/IMG_20210329_122633.jpg"]),
}


def show(git_dir, path, work):
    data = subprocess.run(["git", "--git-dir", git_dir, "show", f"HEAD:{path}"], capture_output=True, check=True).stdout
    out = os.path.join(work, path.replace("/", "_"))
    open(out, "wb").write(data)
    return out


def ours(bin_dir, image, level):
    command = [os.path.join(bin_dir, "ocr-submit"), "--local", "--workers", "1", "--quiet", "--format", "json",
               "--lang", "fra", "--level", level, "--force-ocr", "--auto-rotate", image]
    done, cpu, _ = run.cpu_of(command)
    if done.returncode not in (0, 2):
        raise SystemExit(f"ocr-submit failed on {image}: {done.stderr.decode()}")
    return [w["text"] for w in score.document_words(done.stdout.decode())], cpu


def cli(image):
    done, _, _ = run.cpu_of(["tesseract", image, "-", "-l", "fra"])
    return done.stdout.decode("utf-8", "replace").split()


def main():
    bin_dir, git_dir = sys.argv[1], sys.argv[2]
    levels = (sys.argv[3] if len(sys.argv) > 3 else "accurate").split(",")
    with tempfile.TemporaryDirectory() as work:
        for name, (flat, photos) in PAGES.items():
            truth = open(show(git_dir, f"Exemples/truth/{name}.txt", work), encoding="utf-8").read()
            flat_path = show(git_dir, flat, work)
            flat_scores = {level: score.bag_of_words(truth, ours(bin_dir, flat_path, level)[0]) for level in levels}
            for photo in photos:
                path = show(git_dir, photo, work)
                row = {"page": name, "photo": os.path.basename(photo)}
                words = cli(path)
                row["tesseract"] = round(score.bag_of_words(truth, words)["word_accuracy"], 3)
                for level in levels:
                    words, cpu = ours(bin_dir, path, level)
                    got = score.bag_of_words(truth, words)["word_accuracy"]
                    row[level] = round(got, 3)
                    row[f"{level}_flat"] = round(flat_scores[level]["word_accuracy"], 3)
                    row[f"{level}_of_flat"] = round(got / max(1e-9, flat_scores[level]["word_accuracy"]), 3)
                    row[f"{level}_cpu_s"] = round(cpu, 2)
                print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
