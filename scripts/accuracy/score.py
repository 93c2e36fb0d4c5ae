"""Word accuracy and CER of recognised words against ground truth with word boxes.

Word accuracy (box-aligned): each ground-truth word is matched with the recognised word whose box
overlaps it most; it is right when the two texts are equal after Unicode NFC normalisation, with
typographic ligatures ("ﬁ") as their letters.
Recognised words that overlap no ground-truth word were invented: each counts as one more error,
as a reader would count it. accuracy = right / (ground-truth words + invented words).

CER: Levenshtein distance between the ground truth's words joined by spaces (reading order) and
the recognised words joined by spaces (their order), over the ground truth's length.
"""
import json
import unicodedata


# Typographic ligatures ("ﬁ", "ﬀ", U+FB00-FB06) as their letters: pdftotext gives a LaTeX paper's
# "ﬁndings" as one character where a reader, and any OCR, reads "findings".
LIGATURES = {chr(c): unicodedata.normalize("NFKC", chr(c)) for c in range(0xFB00, 0xFB07)}


def norm(text):
    return unicodedata.normalize("NFC", "".join(LIGATURES.get(c, c) for c in text)).strip()


def overlap(a, b):
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    w = min(ax + aw, bx + bw) - max(ax, bx)
    h = min(ay + ah, by + bh) - max(ay, by)
    return w * h if w > 0 and h > 0 else 0


def levenshtein(a, b):
    try:
        from rapidfuzz.distance import Levenshtein  # PyPI; C speed for whole pages
        return Levenshtein.distance(a, b)
    except ImportError:
        pass
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def score(truth, hypothesis):
    """truth, hypothesis: lists of {"text", "box": [x, y, w, h]}. Returns a dict of figures."""
    right = 0
    used = set()
    for word in truth:
        best, best_area = None, 0
        for i, candidate in enumerate(hypothesis):
            area = overlap(word["box"], candidate["box"])
            if area > best_area:
                best, best_area = i, area
        if best is not None:
            used.add(best)
            if norm(hypothesis[best]["text"]) == norm(word["text"]):
                right += 1
    invented = sum(1 for i, candidate in enumerate(hypothesis)
                   if i not in used and not any(overlap(candidate["box"], w["box"]) for w in truth))
    reference = " ".join(norm(w["text"]) for w in truth)
    recognised = " ".join(norm(w["text"]) for w in hypothesis if norm(w["text"]))
    return {
        "words": len(truth),
        "right": right,
        "invented": invented,
        "word_accuracy": right / max(1, len(truth) + invented),
        "cer": levenshtein(reference, recognised) / max(1, len(reference)),
    }


def bag_of_words(truth_text, recognised):
    """Ground truth as plain text (no boxes) against recognised words in any order: words right
    is the size of the multiset intersection; accuracy = right / max(truth words, recognised
    words), so invented words count as errors. CER in the recognised order."""
    from collections import Counter
    truth = [norm(w) for w in truth_text.split()]
    words = [norm(w) for w in recognised if norm(w)]
    right = sum((Counter(truth) & Counter(words)).values())
    return {
        "words": len(truth),
        "right": right,
        "word_accuracy": right / max(1, len(truth), len(words)),
        "cer": levenshtein(" ".join(truth), " ".join(words)) / max(1, len(" ".join(truth))),
    }


def tesseract_tsv_words(tsv):
    """Words of `tesseract IMAGE - tsv` output."""
    words = []
    for line in tsv.splitlines()[1:]:
        cells = line.split("\t")
        if len(cells) == 12 and cells[0] == "5" and cells[11].strip():
            words.append({"text": cells[11], "box": [int(cells[6]), int(cells[7]), int(cells[8]), int(cells[9])]})
    return words


def document_words(document):
    """Words of an ocr-cluster JSON document (one page) that have text, in reading order."""
    data = json.loads(document) if isinstance(document, str) else document
    words = []
    for page in data["pages"]:
        result = page.get("result") or {}
        for block in result.get("blocks", []):
            for paragraph in block.get("paragraphs", []):
                for line in paragraph.get("lines", []):
                    for word in line.get("words", []):
                        if not word["text"].strip():
                            continue  # as tesseract's TSV rows without text are skipped
                        box = word["box"]
                        words.append({"text": word["text"], "box": [box["x"], box["y"], box["width"], box["height"]]})
    return words


if __name__ == "__main__":
    # score.py TRUTH.json HYPOTHESIS (an ocr-cluster JSON document, or `tesseract ... tsv` output)
    import sys
    truth = json.load(open(sys.argv[1]))["words"]
    text = open(sys.argv[2], encoding="utf-8").read()
    words = document_words(text) if text.lstrip().startswith("{") else tesseract_tsv_words(text)
    print(json.dumps(score(truth, words)))
