"""An example engine for the worker SDK: RapidOCR (PP-OCRv4 models in ONNX, inside the
`rapidocr-onnxruntime` wheel: installs and runs offline), as an ocr-cluster worker.

    pip install ./clients/python rapidocr-onnxruntime
    python clients/python/examples/rapidocr_engine.py tcp://127.0.0.1:5556 [--slots 2]
    ocr-submit --coordinator tcp://127.0.0.1:5555 --ocr-engine rapidocr receipt.jpg

Optional: nothing in the cluster needs it. It reads images (PNG, JPEG, TIFF, BMP: what OpenCV
decodes); a PDF page is refused with INVALID_ARGUMENT (send PDFs to Tesseract workers). Words and
their boxes come from RapidOCR's character boxes (`return_word_box`), a word being the
characters between spaces; confidences are RapidOCR's. Figures against Tesseract:
clients/python/examples/measure_rapidocr.py, and BENCHMARKS.md.
"""
from __future__ import annotations

import argparse
import signal
import threading
from typing import Any, List, Sequence, Tuple

import numpy as np
from rapidocr_onnxruntime import RapidOCR

from ocr_cluster.worker import EngineError, Recognized, Task, Word, Worker

Box = Tuple[int, int, int, int]


def quad_box(quad: Sequence[Sequence[float]]) -> Box:
    xs, ys = [p[0] for p in quad], [p[1] for p in quad]
    left, top = int(min(xs)), int(min(ys))
    return left, top, max(1, int(max(xs)) - left), max(1, int(max(ys)) - top)


def words_of(line: Sequence[Any]) -> List[Word]:
    """One RapidOCR line (quad, text, score, character quads, characters, character scores) as
    words: runs of characters between spaces, their boxes the union of their characters'."""
    quad, text, score = line[0], str(line[1]), float(line[2])
    if len(line) < 6 or not line[4]:
        return [Word(text, score, quad_box(quad))] if text.strip() else []
    words, current = [], []  # type: ignore[var-annotated]
    for char, char_quad, char_score in zip(line[4], line[3], line[5]):
        if char.isspace():
            if current:
                words.append(current)
            current = []
        else:
            current.append((char, quad_box(char_quad), float(char_score)))
    if current:
        words.append(current)
    out = []
    for chars in words:
        boxes = [c[1] for c in chars]
        left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
        right, bottom = max(b[0] + b[2] for b in boxes), max(b[1] + b[3] for b in boxes)
        out.append(Word("".join(c[0] for c in chars), sum(c[2] for c in chars) / len(chars), (left, top, right - left, bottom - top)))
    return out


class RapidOCREngine:
    """One RapidOCR per engine thread (its sessions are not shared between threads)."""

    def __init__(self) -> None:
        self.local = threading.local()

    def read_image(self, image: Any) -> Recognized:
        engine = getattr(self.local, "engine", None)
        if engine is None:
            engine = self.local.engine = RapidOCR()
        lines, _ = engine(image, return_word_box=True)
        height, width = image.shape[:2]
        return Recognized(words=[words_of(line) for line in lines or []], width=width, height=height)

    def __call__(self, task: Task) -> Recognized:
        if task.content[:5] == b"%PDF-":
            raise EngineError("INVALID_ARGUMENT", f"{task.file} page {task.file_page}: rapidocr reads images, not PDF pages")
        import cv2  # the wheel's dependency
        image = cv2.imdecode(np.frombuffer(task.content, dtype=np.uint8), cv2.IMREAD_COLOR)
        if image is None:
            raise EngineError("INVALID_ARGUMENT", f"{task.file} page {task.file_page}: not an image OpenCV can decode")
        return self.read_image(image)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("coordinator", help="the coordinator's worker endpoint(s), comma-separated")
    parser.add_argument("--slots", type=int, default=1)
    args = parser.parse_args()
    worker = Worker(args.coordinator, RapidOCREngine(), engine_name="rapidocr", slots=args.slots)
    signal.signal(signal.SIGTERM, lambda *_: worker.stop())
    signal.signal(signal.SIGINT, lambda *_: worker.stop())
    worker.run()


if __name__ == "__main__":
    main()
