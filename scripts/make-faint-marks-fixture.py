#!/usr/bin/env python3
"""Makes Tests/Fixtures/faint-marks.png (committed; re-run only to change it): six rows of a
price list, item and amount, the amounts right-aligned in Liberation Sans (Arial's metric twin)
at 32 px on white, four of the amounts' points printed in faint gray (235 of 255) as a thermal
receipt's fade, two as dark as the digits, then softened by a 0.6 px Gaussian blur, 200 dpi.
Plain tesseract reads "795", "450", "12 80", "28 45" and the two dark ones right; a faint point
is a few gray levels off the paper. Above them two lines in gray (100) as a thermal receipt
prints, their colons fainter still (225), one beside its word ("Date: 05/03/2018"), one set
apart ("Cashier : USER"): plain tesseract reads neither colon. Deterministic.
"""
import os

from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONT = "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"
ROWS = [("Item", "7.95", 235), ("Coffee", "4.50", 235), ("Tea", "3.20", 60), ("Cake", "12.80", 235), ("Milk", "1.15", 60),
        ("Total", "28.45", 235)]


def main():
    font = ImageFont.truetype(FONT, 32)
    image = Image.new("L", (700, 160 + 50 * len(ROWS)), 255)
    draw = ImageDraw.Draw(image)
    for y, (label, gap, value) in [(30, ("Date", 0, "05/03/2018")), (80, ("Cashier", 14, "USER"))]:
        draw.text((40, y), label, font=font, fill=100)
        x = 40 + draw.textlength(label, font=font) + gap
        draw.text((x, y), ":", font=font, fill=225)
        draw.text((x + draw.textlength(": ", font=font) + gap, y), value, font=font, fill=100)
    for row, (name, amount, point) in enumerate(ROWS):
        y = 130 + 50 * row
        draw.text((40, y), name, font=font, fill=60)
        whole, decimals = amount.split(".")
        x = 620 - draw.textlength(decimals, font=font)
        draw.text((x, y), decimals, font=font, fill=60)
        x -= draw.textlength(".", font=font)
        draw.text((x, y), ".", font=font, fill=point)
        draw.text((x - draw.textlength(whole, font=font), y), whole, font=font, fill=60)
    out = os.path.join(os.path.dirname(__file__), "..", "Tests", "Fixtures", "faint-marks.png")
    image.filter(ImageFilter.GaussianBlur(0.6)).save(out, dpi=(200, 200))


if __name__ == "__main__":
    main()
