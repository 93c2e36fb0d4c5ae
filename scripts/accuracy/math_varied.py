#!/usr/bin/env python3
"""MathSolver on a varied set of printed expressions, rendered here (deterministic, seeded):
integers of 1-3 digits joined by + - * / (some with parentheses, some with spaces), in ten
fonts (DejaVu Sans, Serif and Mono; Liberation Sans, Serif and Mono; the URW clones of Times,
Helvetica, Century Schoolbook and Palatino) at 36-64 pt, 300 dpi, turned up to 2 degrees either
way, a third with light noise. Ground truth is Python's exact Fraction arithmetic.

    math_varied.py build WORK_DIR [--count 60]     renders WORK_DIR/{dev,heldout}/*.png + manifest.tsv
    math_varied.py run BIN_DIR WORK_DIR --half dev|heldout    ocr-submit --local --math on each, prints the score

Two halves from different seeds: `dev` is for choosing how MathSolver reads, `heldout` is only
for reporting (BENCHMARKS.md says which figure is which).
"""
import argparse
import os
import random
import re
import subprocess
import sys
from fractions import Fraction

FONTS = {
    "DejaVuSans": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "DejaVuSerif": "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "DejaVuSansMono": "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
    "LiberationSans": "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "LiberationSerif": "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf",
    "LiberationMono": "/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf",
    "NimbusRoman": "/usr/share/fonts/opentype/urw-base35/NimbusRoman-Regular.otf",
    "NimbusSans": "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf",
    "C059": "/usr/share/fonts/opentype/urw-base35/C059-Roman.otf",
    "P052": "/usr/share/fonts/opentype/urw-base35/P052-Roman.otf",
}
SEEDS = {"dev": 2601, "heldout": 2602}


def value(expression):
    py = re.sub(r"\d+", lambda m: f"Fraction({m.group(0)})", expression)
    return eval(py, {"Fraction": Fraction})


def expression_of(rng):
    """2-4 integers joined by + - * /, a pair sometimes in parentheses; no division by zero."""
    while True:
        numbers = [str(rng.randint(1, 999) if rng.random() < 0.8 else rng.randint(1, 9)) for _ in range(rng.choice([2, 2, 3, 3, 4]))]
        operators = [rng.choice("+-*/") for _ in numbers[1:]]
        text = numbers[0]
        for op, n in zip(operators, numbers[1:]):
            text += op + n
        if len(numbers) >= 3 and rng.random() < 0.4:
            # Parentheses around the first pair or the last pair.
            m = re.match(r"(\d+[-+*/]\d+)(.*)", text) if rng.random() < 0.5 else None
            text = f"({m.group(1)}){m.group(2)}" if m else re.sub(r"(\d+[-+*/]\d+)$", r"(\1)", text)
        try:
            return text, value(text)
        except ZeroDivisionError:
            continue


def build(work, count):
    from PIL import Image, ImageDraw, ImageFilter, ImageFont
    missing = [path for path in FONTS.values() if not os.path.exists(path)]
    if missing:
        raise SystemExit(f"math_varied.py: fonts missing ({', '.join(missing)}): "
                         "apt-get install fonts-dejavu-core fonts-liberation fonts-urw-base35")
    for half, seed in SEEDS.items():
        rng = random.Random(seed)
        out = os.path.join(work, half)
        os.makedirs(out, exist_ok=True)
        rows = []
        for i in range(count):
            text, exact = expression_of(rng)
            font = list(FONTS)[i % len(FONTS)]
            points = rng.randint(36, 64)
            pixels = int(points * 300 / 72)
            face = ImageFont.truetype(FONTS[font], pixels)
            written = re.sub(r"([-+*/])", r" \1 ", text) if rng.random() < 0.25 else text
            box = face.getbbox(written)
            image = Image.new("L", (box[2] + 2 * pixels, pixels * 3), 255)
            ImageDraw.Draw(image).text((pixels, pixels), written, font=face, fill=0)
            angle = rng.uniform(-2, 2)
            image = image.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=255)
            noisy = i % 3 == 2
            if noisy:
                noise = Image.effect_noise(image.size, 40)
                image = Image.blend(image, noise, 0.15).filter(ImageFilter.GaussianBlur(0.6))
            name = f"{half}-{i + 1:03d}.png"
            image.save(os.path.join(out, name), dpi=(300, 300), optimize=True)
            rows.append((name, font, str(points), f"{angle:.2f}", "noisy" if noisy else "clean", written, text, str(exact)))
        with open(os.path.join(out, "manifest.tsv"), "w") as manifest:
            manifest.write("file\tfont\tpoints\tangle\tnoise\twritten\texpression\tvalue\n")
            for row in rows:
                manifest.write("\t".join(row) + "\n")
        print(f"{half}: {count} expressions in {out}")


def run(bin_dir, work, half):
    folder = os.path.join(work, half)
    rows = [line.rstrip("\n").split("\t") for line in open(os.path.join(folder, "manifest.tsv"))][1:]
    files = [os.path.join(folder, row[0]) for row in rows]
    done = subprocess.run([os.path.join(bin_dir, "ocr-submit"), "--local", "--workers", "2", "--quiet", "--math"] + files,
                          capture_output=True, text=True)
    answers = {}
    for line in done.stdout.splitlines():
        m = re.match(r"(\S+) page \d+: (.*) = (\S+)", line)
        if m:
            answers[os.path.basename(m.group(1))] = (m.group(2), m.group(3))
    solved = 0
    for row in rows:
        name, exact = row[0], Fraction(row[7])
        read, got = answers.get(name, ("", ""))
        try:
            ok = Fraction(got) == exact
        except (ValueError, ZeroDivisionError):
            ok = False
        solved += ok
        if not ok:
            print(f"  miss {name} {row[1]} {row[2]}pt {row[3]}deg {row[4]}: {row[6]} read {read!r} = {got}")
    print(f"{half}: {solved}/{len(rows)} solved = {100 * solved / len(rows):.1f}%")
    return solved, len(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("work")
    b.add_argument("--count", type=int, default=60)
    r = sub.add_parser("run")
    r.add_argument("bin_dir")
    r.add_argument("work")
    r.add_argument("--half", default="dev", choices=list(SEEDS))
    args = parser.parse_args()
    if args.command == "build":
        build(args.work, args.count)
    else:
        run(args.bin_dir, args.work, args.half)


if __name__ == "__main__":
    sys.exit(main())
