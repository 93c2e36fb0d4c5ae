#!/usr/bin/env python3
"""Renders the accuracy set: pages with exact word-level ground truth, each a case stock
Tesseract is known to lose words on (issue 14). Deterministic (fixed seed, fonts from Debian's
fonts-dejavu-core and fonts-liberation). For each page NAME it writes NAME.png (or .tif) and
NAME.json: {"image", "dpi_tag", "kind", "words": [{"text", "box": [x, y, w, h]}]} in the pixels
of the written image, words in reading order.

    make_pages.py OUT_DIR
"""
import json
import os
import random
import sys

from PIL import Image, ImageDraw, ImageFont

FONTS = {
    "serif": "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "sans": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "liberation": "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf",
    "liberation-sans": "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "mono": "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
}

# Ordinary English, so that the dictionary helps as it does on real documents.
WORDS = """the of and to in a is that for it as was with be by on not he this are or his from at which but
have an they you were her she there been one all we their has would when if so no will more can who said out
up about into than them some could time these two may first then do any like my now over such our man me even
most made after also did many before must through back years where much your way well down should because each
just those people how too little state good very make world still own see men work long get here between both
life being under never day same another know while last might us great old year off come since against go came
right used take three states himself few house use during without again place around however home small found
thought went say part once general high upon school every don does got united left number course war until always
away something fact though water less public put think almost hand enough far took head yet government system
better set told nothing night end why called didn find look asked later knew point city business report market
court agreement section page total amount date invoice account payment balance period annual review committee
meeting board member office service company order request notice policy program data table figure results""".split()


def font(name, size):
    return ImageFont.truetype(FONTS[name], size)


class Page:
    def __init__(self, width, height, background=255):
        self.image = Image.new("L", (width, height), background)
        self.draw = ImageDraw.Draw(self.image)
        self.words = []

    def word(self, x, y, text, face, fill=0, record=True):
        """Draws one word with its top-left at (x, y); returns its advance."""
        self.draw.text((x, y), text, font=face, fill=fill)
        left, top, right, bottom = self.draw.textbbox((x, y), text, font=face)
        if record:
            self.words.append({"text": text, "box": [left, top, right - left, bottom - top]})
        return face.getlength(text)

    def paragraph(self, rng, x0, y0, width, lines, face, leading):
        space = face.getlength(" ")
        y = y0
        for _ in range(lines):
            x = x0
            while True:
                text = self.token(rng)
                advance = face.getlength(text)
                if x + advance > x0 + width:
                    break
                self.word(x, y, text, face)
                x += advance + space
            y += leading
        return y

    def grid(self, x0, y0, rows, widths, height, rule):
        """The rules of a table: rows + 1 horizontal, one vertical before each column and after the last."""
        for r in range(rows + 1):
            self.draw.line([(x0, y0 + r * height), (x0 + sum(widths), y0 + r * height)], fill=0, width=rule)
        x = x0
        for w in widths + [0]:
            self.draw.line([(x, y0), (x, y0 + rows * height)], fill=0, width=rule)
            x += w

    @staticmethod
    def token(rng):
        r = rng.random()
        if r < 0.08:
            return f"{rng.randint(1, 9999)}"
        if r < 0.11:
            return f"${rng.randint(1, 999)}.{rng.randint(0, 99):02d}"
        if r < 0.13:
            return f"{rng.randint(1, 12)}/{rng.randint(1, 28)}/20{rng.randint(10, 26)}"
        word = rng.choice(WORDS)
        if rng.random() < 0.1:
            word = word.capitalize()
        if rng.random() < 0.08:
            word += rng.choice([",", ".", ";"])
        return word


def save(page, out, name, kind, dpi_tag, fmt="png", image=None):
    image = image or page.image
    path = os.path.join(out, f"{name}.{fmt}")
    image.save(path, dpi=(dpi_tag, dpi_tag)) if dpi_tag else image.save(path)
    with open(os.path.join(out, f"{name}.json"), "w") as f:
        json.dump({"image": os.path.basename(path), "dpi_tag": dpi_tag, "kind": kind, "words": page.words}, f)


def letter(rng):
    return Page(2550, 3300)


def clean(rng, out):
    page = letter(rng)
    page.paragraph(rng, 250, 250, 2050, 40, font("serif", 42), 70)
    save(page, out, "clean", "clean text, 300 dpi", 300)


def two_columns(rng, out):
    page = letter(rng)
    face = font("liberation", 40)
    page.paragraph(rng, 220, 220, 980, 44, face, 64)
    page.paragraph(rng, 1350, 220, 980, 44, face, 64)
    save(page, out, "two-columns", "two columns", 300)


def ruled_table(rng, out, name="ruled-table", dpi_tag=300, kind="ruled table"):
    page = letter(rng)
    face = font("liberation-sans", 34)
    page.paragraph(rng, 220, 200, 2100, 4, font("liberation-sans", 40), 64)
    x0, y0, rows, widths, height = 220, 520, 28, [700, 420, 420, 560], 90
    page.grid(x0, y0, rows, widths, height, 3)
    for r in range(rows):
        x = x0
        for c, w in enumerate(widths):
            text = rng.choice(WORDS).capitalize() if c == 0 else (f"{rng.randint(1, 99999):,}" if c < 3 else f"{rng.randint(1, 12)}/{rng.randint(1, 28)}/2025")
            page.word(x + 18, y0 + r * height + 24, text, face)
            x += w
    save(page, out, name, kind, dpi_tag)


def wrong_dpi(rng, out):
    page = letter(rng)
    page.paragraph(rng, 250, 250, 2050, 38, font("liberation", 40), 72)
    save(page, out, "wrong-dpi-tag", "clean text tagged 72 dpi (really 300)", 72)


def banner(rng, out):
    page = letter(rng)
    page.draw.rectangle([200, 200, 2350, 420], fill=0)
    x = 260
    for text in ["Quarterly", "Report", "to", "the", "Board", "of", "Directors"]:
        x += page.word(x, 260, text, font("sans", 80), fill=255) + 30
    page.draw.rectangle([200, 520, 2350, 700], fill=200)
    x = 260
    for text in ["Summary", "of", "annual", "results", "and", "outlook"]:
        x += page.word(x, 570, text, font("sans", 56), fill=0) + 22
    page.paragraph(rng, 250, 820, 2050, 30, font("serif", 40), 70)
    save(page, out, "banners", "inverted and shaded banners", 300)


def small_text(rng, out):
    page = letter(rng)
    page.paragraph(rng, 200, 200, 2150, 90, font("liberation", 24), 34)
    save(page, out, "small-text", "small text (6 pt at 300 dpi)", 300)


def dithered(rng, out):
    page = letter(rng)
    page.paragraph(rng, 250, 250, 2050, 36, font("serif", 40), 72)
    gray = page.image.point(lambda v: 120 if v < 128 else 235)  # faint toner on gray paper
    save(page, out, "dithered", "gray page dithered to 1 bit (fax-like)", 300, fmt="tif",
         image=gray.convert("1", dither=Image.Dither.FLOYDSTEINBERG))


def screenshot(rng, out):
    page = Page(1600, 1000)
    page.paragraph(rng, 40, 40, 1500, 26, font("liberation-sans", 22), 34)
    save(page, out, "screenshot", "screen text, 22 px, tagged 96 dpi", 96)


# Harder pages: each a degradation that a single pass of Tesseract loses words on (issue 14's
# "degraded regions"); the `best` level's extra passes are chosen on these.

def shaded_table(rng, out):
    """Zebra-shaded rows, thin rules, small figures whose bottoms touch the row's rule."""
    page = letter(rng)
    face = font("liberation-sans", 26)
    page.paragraph(rng, 200, 160, 2150, 2, font("liberation-sans", 36), 56)
    x0, y0, rows, widths, height = 200, 320, 44, [620, 380, 380, 380, 400], 52
    right = x0 + sum(widths)
    for r in range(rows):
        if r % 2:
            page.draw.rectangle([x0, y0 + r * height, right, y0 + (r + 1) * height], fill=190)
    page.grid(x0, y0, rows, widths, height, 2)
    for r in range(rows):
        x = x0
        for c, w in enumerate(widths):
            text = rng.choice(WORDS).capitalize() if c == 0 else f"{rng.randint(1, 99999):,}"
            bottom = face.getbbox(text)[3]
            # The figures sit on the next rule (their bottom row on it); the words have a gap.
            y = y0 + (r + 1) * height - bottom + (1 if c else -10)
            page.word(x + 14, y, text, face)
            x += w
    save(page, out, "shaded-table", "shaded table, figures touching the rules", 300)


def tiny_text(rng, out):
    """A 150 dpi scan of 8 pt text: x-height about 8 px, slightly blurred."""
    from PIL import ImageFilter
    page = Page(1275, 1650)
    page.paragraph(rng, 110, 110, 1050, 70, font("liberation", 14), 20)
    save(page, out, "tiny-text", "7 pt text scanned at 150 dpi", 150,
         image=page.image.filter(ImageFilter.GaussianBlur(0.7)))


def noisy_scan(rng, out):
    """Speckle, blur and heavy JPEG compression."""
    from PIL import ImageFilter
    page = letter(rng)
    page.paragraph(rng, 250, 250, 2050, 36, font("serif", 38), 72)
    image = page.image.filter(ImageFilter.GaussianBlur(1.2))
    noise = Image.effect_noise(image.size, 60)
    image = Image.blend(image, noise, 0.25)
    draw = ImageDraw.Draw(image)
    for _ in range(6000):
        x, y = rng.randrange(image.width), rng.randrange(image.height)
        draw.rectangle([x, y, x + rng.randint(1, 3), y + rng.randint(1, 3)], fill=rng.choice([0, 60]))
    save(page, out, "noisy-scan", "speckled, blurred, JPEG quality 20", 300, fmt="jpg", image=image)


def faded(rng, out):
    """Light gray text on gray paper, lit unevenly (a third darker at one side)."""
    from PIL import ImageChops
    page = letter(rng)
    page.paragraph(rng, 250, 250, 2050, 36, font("liberation", 38), 72)
    image = page.image.point(lambda v: 150 if v < 128 else 225)
    light = Image.linear_gradient("L").rotate(90).resize(image.size).point(lambda v: 150 + v * 105 // 255)
    save(page, out, "faded", "faded text, uneven lighting", 300, image=ImageChops.multiply(image, light))


def slide(rng, out):
    """A presentation slide: light text on a dark gradient, a pale box of dark text."""
    page = Page(1920, 1080)
    gradient = Image.linear_gradient("L").rotate(90).resize(page.image.size)
    rgb = Image.merge("RGB", [gradient.point(lambda v: 20 + v // 5), gradient.point(lambda v: 30 + v // 6), gradient.point(lambda v: 90 + v // 3)])
    page.image = rgb
    page.draw = ImageDraw.Draw(rgb)
    x = 120
    for text in ["Annual", "Review", "and", "Outlook"]:
        x += page.word(x, 80, text, font("sans", 84), fill=(255, 255, 255)) + 34
    y = 260
    for _ in range(6):
        x = 160
        for _ in range(rng.randint(4, 7)):
            x += page.word(x, y, page.token(rng), font("sans", 44), fill=(250, 230, 140)) + 20
        y += 84
    page.draw.rectangle([1080, 780, 1840, 1000], fill=(235, 235, 220))
    y = 800
    for _ in range(3):
        x = 1110
        for _ in range(4):
            x += page.word(x, y, rng.choice(WORDS), font("liberation-sans", 40), fill=(30, 30, 60)) + 18
        y += 62
    save(page, out, "slide", "slide, light text on a dark gradient", 72)


def tight_words(rng, out):
    """Tightly set text (word spaces a third of the font's): tokens run together."""
    page = letter(rng)
    face = font("liberation", 38)
    space = face.getlength(" ") / 3
    y = 250
    for _ in range(36):
        x = 250
        while True:
            text = page.token(rng) if rng.random() < 0.7 else f"{rng.randint(1, 99)}{rng.choice('ABCDEF')}"
            if x + face.getlength(text) > 2300:
                break
            x += page.word(x, y, text, face) + space
        y += 72
    save(page, out, "tight-words", "tightly set words and codes like 13 A", 300)


def receipt(rng, out):
    """A thermal receipt: monospaced, narrow, with dropouts in the print."""
    page = Page(640, 2200)
    face = font("mono", 22)
    y = 40
    for _ in range(44):
        x = 30
        for _ in range(rng.randint(1, 2)):
            x += page.word(x, y, rng.choice(WORDS).upper(), face) + face.getlength(" ")
        price = f"{rng.randint(0, 99)}.{rng.randint(0, 99):02d}"
        page.word(600 - face.getlength(price), y, price, face)
        y += 46
    image = page.image.copy()
    pixels = image.load()
    for _ in range(400000):
        x, y = rng.randrange(image.width), rng.randrange(image.height)
        if pixels[x, y] < 128 or rng.random() < 0.02:
            pixels[x, y] = 200
    save(page, out, "receipt", "thermal receipt with print dropouts", 200, image=image)


def numeric_table(rng, out):
    """An upright ruled table of the digits 0 1 6 8 9 (DejaVu Serif): Tesseract's OSD proposes
    turning it upside down, at confidence 2.2 (the --auto-rotate hazard of issue 14)."""
    page = letter(rng)
    face = font("serif", 34)
    for r in range(30):
        y = 300 + r * 90
        page.draw.line([(200, y), (2300, y)], fill=0, width=3)
        for c in range(5):
            page.word(230 + c * 420, y + 25, "".join(rng.choice("01689") for _ in range(rng.randint(3, 7))), face)
    save(page, out, "numeric-table", "upright table of digits OSD would turn", 300)


# Phone photographs of rendered pages (issue 14, item 6), as a document camera gets them: the
# page bent (a book's sag) or flat, seen in perspective on a dark desk in a 3024 x 4032 frame,
# lit unevenly (light falling off from one corner, a soft shadow across it), slightly out of
# focus, with sensor noise, saved as JPEG. Each has the words of its flat page ("flat" in its
# JSON names it) with their boxes carried through the same bend and perspective, so a reading's
# words and boxes are scored in the photo's own pixels.

PHOTO_SIZE = (3024, 4032)


def homography(source, target):
    """The 8 coefficients (a..h) of the projective map taking the 4 `source` points to `target`:
    x' = (a x + b y + c) / (g x + h y + 1), y' = (d x + e y + f) / (g x + h y + 1)."""
    import numpy
    rows, rhs = [], []
    for (x, y), (u, v) in zip(source, target):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs += [u, v]
    return list(numpy.linalg.solve(numpy.array(rows, float), numpy.array(rhs, float)))


def project(c, x, y):
    w = c[6] * x + c[7] * y + 1
    return (c[0] * x + c[1] * y + c[2]) / w, (c[3] * x + c[4] * y + c[5]) / w


def photograph(rng, flat, out, name, kind, corners, sag=0, shadow=True, sideways=False):
    """`flat`: the name of a page already written to `out`. `corners`: where the page's top-left,
    top-right, bottom-right and bottom-left corners land in the photo. `sag`: pixels by which the
    middle of each text line bends down (a sine across the page width). `sideways`: stored as a
    phone stores a portrait photo, the pixels turned a quarter counter-clockwise with EXIF
    orientation 6 (show them turned clockwise); boxes and corners are in the stored pixels."""
    import math
    import numpy
    from PIL import ImageFilter
    truth = json.load(open(os.path.join(out, f"{flat}.json")))
    page = Image.open(os.path.join(out, truth["image"])).convert("L")
    w, h = page.size
    bend = lambda x: sag * math.sin(math.pi * x / w)
    if sag:
        bent = Image.new("L", (w, h + sag + 2), 255)
        for x in range(0, w, 2):
            bent.paste(page.crop((x, 0, x + 2, h)), (x, round(bend(x))))
        page = bent.crop((0, 0, w, h))
    to_photo = homography([(0, 0), (w, 0), (w, h), (0, h)], corners)
    to_page = homography(corners, [(0, 0), (w, 0), (w, h), (0, h)])
    warped = page.transform(PHOTO_SIZE, Image.PERSPECTIVE, to_page, Image.BICUBIC, fillcolor=255)
    mask = Image.new("L", (w, h), 255).transform(PHOTO_SIZE, Image.PERSPECTIVE, to_page, Image.BILINEAR, fillcolor=0)
    desk = Image.effect_noise(PHOTO_SIZE, 18).point(lambda v: 40 + v // 4).filter(ImageFilter.GaussianBlur(3))
    gray = Image.composite(warped, desk, mask)
    # Light: full at one corner, down to 55% at the far one; a soft shadow band across.
    xs, ys = numpy.meshgrid(numpy.arange(PHOTO_SIZE[0]), numpy.arange(PHOTO_SIZE[1]))
    light = 1.0 - 0.45 * numpy.hypot(xs, ys) / math.hypot(*PHOTO_SIZE)
    if shadow:
        band = numpy.abs((xs * 0.5 + ys) - PHOTO_SIZE[1] * 0.75) / 260.0
        light *= 1.0 - 0.3 * numpy.exp(-band ** 2)
    pixels = numpy.asarray(gray, float) * light
    pixels += numpy.random.default_rng(rng.randrange(1 << 30)).normal(0, 5, pixels.shape)
    gray = Image.fromarray(numpy.clip(pixels, 0, 255).astype(numpy.uint8)).filter(ImageFilter.GaussianBlur(1.1))
    photo = Image.merge("RGB", [gray.point(lambda v: min(255, v * 1.04)), gray, gray.point(lambda v: v * 0.92)])
    words = []
    for word in truth["words"]:
        x, y, bw, bh = word["box"]
        points = [(x + bw * i / 4, y + bh * j) for i in range(5) for j in (0, 1)]
        points = [project(to_photo, px, py + bend(px)) for px, py in points]
        left, top = min(p[0] for p in points), min(p[1] for p in points)
        right, bottom = max(p[0] for p in points), max(p[1] for p in points)
        words.append({"text": word["text"], "box": [round(left), round(top), round(right - left), round(bottom - top)]})
    path = os.path.join(out, f"{name}.jpg")
    corners = [list(map(round, c)) for c in corners]
    if sideways:
        width = PHOTO_SIZE[0]
        photo = photo.transpose(Image.Transpose.ROTATE_90)  # (x, y) -> (y, width - x)
        for word in words:
            x, y, bw, bh = word["box"]
            word["box"] = [y, width - x - bw, bh, bw]
        corners = [[y, width - x] for x, y in corners]
        corners = corners[1:] + corners[:1]  # the page's top-right corner is now the top-left one
        exif = Image.Exif()
        exif[0x0112] = 6
        photo.save(path, quality=88, exif=exif)
    else:
        photo.save(path, quality=88)
    with open(os.path.join(out, f"{name}.json"), "w") as f:
        json.dump({"image": os.path.basename(path), "dpi_tag": 0, "kind": kind, "flat": flat,
                   "corners": corners, "words": words}, f)


def photos(out):
    rng = random.Random(3000)
    photograph(rng, "clean", out, "photo-clean", "photo of the clean page: perspective, uneven light",
               [(430, 610), (2650, 520), (2790, 3560), (330, 3680)])
    photograph(rng, "two-columns", out, "photo-two-columns", "photo of two columns: stronger perspective, shadow",
               [(560, 700), (2560, 560), (2860, 3700), (250, 3540)])
    photograph(rng, "ruled-table", out, "photo-table", "photo of the ruled table, turned a few degrees, stored sideways (EXIF 6)",
               [(520, 480), (2720, 640), (2560, 3600), (300, 3420)], shadow=False, sideways=True)
    photograph(rng, "clean", out, "photo-curved", "photo of the clean page bent like a book (120 px sag)",
               [(430, 610), (2650, 520), (2790, 3560), (330, 3680)], sag=120)
    # Taken from the page's left, close up: its right edge far away, its lines converging to the
    # right (the top ones steeper), its top-right and bottom corners outside the frame, so no
    # page is found and the lines themselves must be made parallel. Every word stays in frame.
    photograph(rng, "clean", out, "photo-angled", "photo at an angle, page cut off by the frame: lines converge",
               [(120, 420), (2980, -260), (3160, 4300), (-60, 4200)], shadow=False)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for index, make in enumerate([clean, two_columns, ruled_table, wrong_dpi, banner, small_text, dithered, screenshot]):
        make(random.Random(1000 + index), out)
    ruled_table(random.Random(99), out, "ruled-table-72dpi", 72, "ruled table tagged 72 dpi")
    for index, make in enumerate([shaded_table, tiny_text, noisy_scan, faded, slide, tight_words, receipt, numeric_table]):
        make(random.Random(2000 + index), out)
    photos(out)


if __name__ == "__main__":
    main()
