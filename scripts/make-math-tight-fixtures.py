#!/usr/bin/env python3
"""Makes Tests/Fixtures/math-tight (committed; re-run only to change them): 60 printed
expressions of 2-3 integers joined by + - * /, most unspaced (`65+97`, as typed), every third
with spaced operators, in five common fonts (DejaVu Sans and Serif; Liberation Sans, Serif and
Mono, metric twins of Arial, Times and Courier) at 12, 16, 20 and 28 pt, rendered by Pillow at
300 dpi on white. Deterministic (seeded). These are the expressions whose clean operators the
LSTM model reads as digits (`65+97` -> `654+97`, `/` -> `7`).

manifest.tsv: file  font  pointsize  written  expression  value (Python's exact Fraction)
"""
import os
import random
import sys
from fractions import Fraction

from PIL import Image, ImageDraw, ImageFont

FONTS = {
    "DejaVuSans": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "DejaVuSerif": "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "LiberationSans": "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "LiberationSerif": "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf",
    "LiberationMono": "/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf",
}
SIZES = [12, 16, 20, 28]


def value(expression):
    """Left-to-right with * and / before + and -, in exact fractions (an oracle independent
    of the Swift evaluator)."""
    import re
    py = re.sub(r"\d+", lambda m: f"Fraction({m.group(0)})", expression)
    return eval(py, {"Fraction": Fraction})


def main(out):
    random.seed(7)
    os.makedirs(out, exist_ok=True)
    names = list(FONTS)
    rows = []
    for i in range(60):
        parts = [str(random.randint(1, 999)) for _ in range(random.choice([2, 2, 3]))]
        expression = parts[0]
        for part in parts[1:]:
            expression += random.choice("+-*/") + part
        font, points = names[i % len(names)], SIZES[i % len(SIZES)]
        pixels = int(points * 300 / 72)
        face = ImageFont.truetype(FONTS[font], pixels)
        written = "".join(c if c.isdigit() else f" {c} " for c in expression) if i % 3 == 0 else expression
        width, height = face.getbbox(written)[2] + 2 * pixels, pixels * 3
        image = Image.new("L", (width, height), 255)
        ImageDraw.Draw(image).text((pixels, pixels), written, font=face, fill=0)
        name = f"tight-{i + 1:02d}.png"
        image.save(os.path.join(out, name), dpi=(300, 300), optimize=True)
        rows.append((name, font, str(points), written, expression, str(value(expression))))
    with open(os.path.join(out, "manifest.tsv"), "w") as manifest:
        manifest.write("file\tfont\tpointsize\twritten\texpression\tvalue\n")
        for row in rows:
            manifest.write("\t".join(row) + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "Tests", "Fixtures", "math-tight"))
