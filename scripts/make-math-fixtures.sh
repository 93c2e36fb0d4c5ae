#!/usr/bin/env bash
# Makes the MathSolver fixtures in Tests/Fixtures/math (committed; re-run only to change them).
# Needs ImageMagick 6 (`convert`) and python3. Deterministic: noise is seeded.
#
# Every expression is rendered once, cycling through fonts, sizes and distortions (a slight
# rotation, speckle noise, a small distracting number in a corner), into math-NN.png.
# manifest.tsv is the ground truth, one row per image:
#   file  group  font  pointsize  distortion  written  expression  expected
# `written` is the text on the image, `expression` is the canonical ASCII expression, `expected` the line MathSolver must print
# (`expression = value`), computed here with Python's exact `fractions.Fraction`, an oracle
# independent of the Swift evaluator.
# group `core`: written with glyphs eng's LSTM model can read (digits . + - * x × / − ( )).
# group `glyph`: written with ÷ or ^, which eng's LSTM character set lacks (÷ reads as +,
# ^ is dropped): measured and reported separately, not part of the accuracy goal.
# lines.png holds several expressions, one per line, for --all-lines (lines.txt: expected lines).
# divzero.png and invalid.png hold a division by zero and an unclosed parenthesis.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/Fixtures/math
mkdir -p "$out"
rm -f "$out"/math-*.png

python3 - "$out" <<'PY'
import subprocess, sys
from fractions import Fraction

out = sys.argv[1]

# (canonical expression, how it is written on the image: None = as is)
core = [
    "1+2", "7-5", "6*7", "8/2", "(1+2)*3/5", "12-7*2", "3.5/0.25", "100-99.5",
    "2*(3+4)", "(8-3)*(2+6)", "45/9+1", "1/3", "2/3+1", "22/7", "10/4", "-5+3",
    "-(4-9)", "3*-2", "0.1+0.2", "1.5*1.5", "(2+3)*(4-1)/5", "999+1", "123*456",
    "7/8", "5-(2-(1-3))", "((1+1)*(2+2))", "64/(4*4)", "1-1/8", "12.75+0.25", "9*9*9",
    "1000/8", "2.5*4-3", "(7-2)/(3+2)", "81/27", "4-6", "1/7", "3*(2.5-0.5)",
    "(10-4)/4", "33*3", "6/(1+2)", "0.5-0.75", "15*(4/3)", "(6+9)/(2+3)", "-8*-8",
    "2/(1-0.5)", "11*11", "31-(4*5)", "4.2*10", "(1+2)*(3+4)*(5+6)", "250/1000",
    "(5*5-5)/5", "17+28", "7*8-56", "1234+4321", "9/6",
]
glyph = [("8/4+1", "8 ÷ 4 + 1"), ("9/3", "9 ÷ 3"), ("15/(2+3)", "15 ÷ (2 + 3)"),
         ("2^10-1", None), ("3^2+4^2", None), ("(1+1)^3", None)]
fonts = ["DejaVu-Sans", "Times-Roman", "Courier-Bold", "Helvetica", "DejaVu-Serif"]
sizes = [12, 16, 24]

def value(text):
    # Python's parser with exact fractions: numbers become Fraction('...'), ^ becomes **.
    import re
    py = re.sub(r"\d+(\.\d+)?", lambda m: f"Fraction('{m.group(0)}')", text).replace("^", "**")
    return eval(py, {"Fraction": Fraction})

def show(v):
    v = Fraction(v)
    if v.denominator == 1:
        return str(v.numerator)
    d = v.denominator
    for p in (2, 5):
        while d % p == 0: d //= p
    sign = "-" if v < 0 else ""
    a = abs(v)
    whole, rest = divmod(a.numerator, a.denominator)
    if d == 1:  # terminating
        digits = ""
        while rest:
            rest *= 10; digits += str(rest // a.denominator); rest %= a.denominator
        return f"{sign}{whole}.{digits}"
    digits = ""
    significant = 0
    while len(digits) < 4 or (whole == 0 and significant < 4):
        rest *= 10; q = rest // a.denominator; rest %= a.denominator
        digits += str(q)
        if q or significant: significant += 1
    return f"{v.numerator}/{v.denominator} ({sign}{whole}.{digits}...)"

def tokens(expr):
    import re
    return re.findall(r"\d+(?:\.\d+)?|.", expr)

def written(expr, i):
    # Spell operators as people print them: *, × or x for products, − (U+2212) for some minus
    # signs; binary + - × with spaces around them as typeset (every sixth expression tight),
    # / and ^ tight, a unary minus attached to its operand.
    out, previous = [], None
    for t in tokens(expr):
        binary = t in "+-*" and previous is not None and previous not in "+-*/^("
        if t == "*": t = ["*", "×", "x"][i % 3]
        if t == "-" and i % 4 == 3: t = "−"
        out.append(f" {t} " if binary and i % 6 != 5 else t)
        previous = t if t not in "×x−" else {"×": "*", "x": "*", "−": "-"}[t]
    return "".join(out).replace("  ", " ").strip()

rows = []
items = [(e, written(e, i), "core") for i, e in enumerate(core)] + [(e, w or e, "glyph") for e, w in glyph]
for i, (expr, text, group) in enumerate(items):
    font = fonts[i % len(fonts)]
    size = sizes[(i // len(fonts)) % len(sizes)]
    distortion = ["none", "rotate", "none", "noise", "distractor", "none", "rotate-neg"][i % 7]
    name = f"math-{i + 1:02d}.png"
    path = f"{out}/{name}"
    label = ["convert", "-density", "300", "-units", "PixelsPerInch", "-background", "white", "-fill", "black",
             "-font", font, "-pointsize", str(size), f"label:{text}", "-bordercolor", "white", "-border", "50"]
    if distortion == "rotate": post = ["-background", "white", "-rotate", "1.5"]
    elif distortion == "rotate-neg": post = ["-background", "white", "-rotate", "-2"]
    elif distortion == "noise": post = ["-seed", str(100 + i), "-attenuate", "0.15", "+noise", "Impulse"]
    elif distortion == "distractor":
        # A small question number in the top-left corner: the largest region is still the expression.
        post = ["-gravity", "NorthWest", "-font", "DejaVu-Sans", "-pointsize", "8", "-annotate", "+10+8", f"{i + 1}."]
    else: post = []
    subprocess.run(label + post + ["-colorspace", "Gray", "-depth", "8", "-strip", path], check=True)
    rows.append((name, group, font, str(size), distortion, text, expr, f"{expr} = {show(value(expr))}"))

with open(f"{out}/manifest.tsv", "w") as f:
    f.write("file\tgroup\tfont\tpointsize\tdistortion\twritten\texpression\texpected\n")
    for r in rows: f.write("\t".join(r) + "\n")

# Several expressions on one page, one per line, for --all-lines.
lines = ["(1+2)*3/5", "1/3", "12-7*2"]
subprocess.run(["convert", "-density", "300", "-units", "PixelsPerInch", "-background", "white", "-fill", "black",
                "-font", "DejaVu-Sans", "-pointsize", "24", "-interline-spacing", "30", "label:" + "\n".join(lines),
                "-bordercolor", "white", "-border", "50", "-colorspace", "Gray", "-depth", "8", "-strip",
                f"{out}/lines.png"], check=True)
with open(f"{out}/lines.txt", "w") as f:
    for e in lines: f.write(f"{e} = {show(value(e))}\n")
# Pages whose expression has no value: a division by zero and an unclosed parenthesis.
for name, text in [("divzero.png", "7 / (2 − 2)"), ("invalid.png", "(1 + 2 × 3")]:
    subprocess.run(["convert", "-density", "300", "-units", "PixelsPerInch", "-background", "white", "-fill", "black",
                    "-font", "DejaVu-Sans", "-pointsize", "16", "label:" + text, "-bordercolor", "white", "-border", "50",
                    "-colorspace", "Gray", "-depth", "8", "-strip", f"{out}/{name}"], check=True)
print(f"{len(rows)} expressions ({len(core)} core, {len(glyph)} glyph) in {out}")
PY
