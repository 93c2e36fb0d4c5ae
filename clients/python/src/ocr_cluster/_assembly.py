"""The document's structure put together from its pages' `PageResult.layout`, for documents a
`ZMQClient` merges itself: the same steps as the Swift client library's `DocumentStructure`
(PROTOCOL.md, "Document structure"), so that a job's structure is the same whether it comes from
the coordinator's HTTP API or from the pages over ZeroMQ.

Each worker sends what its page shows alone (elements in reading order, headings not yet
levelled, the lines where running headers and footers are looked for, detected data). Across the
job: lines that come back at the top or bottom of the pages (digits aside), and page numbers, are
running headers and footers; heading sizes are ranked over the whole document; a table that ends
one page and starts the next with as many columns at the same place continues there. Every rule
holds on the page as it reads, so a page the worker turned (`rotationDegrees`) is put together
upright and its boxes given back in the original image's pixels.

One difference, where the Swift library analyses a page's words again: a running line that a
paragraph or table took in stays inside it here (the header or footer is still set apart). A page
without a layout (from a worker older than the layout, or one whose layout does not hold
together) has no structure here."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Callable, Dict, List, Mapping, Optional, Set, Tuple, Union

from .geometry import JSON, Box
from .structure import DetectedData, Element, Heading, ListBlock, ListItem, Table, TableCell, TextBlock

#: The largest grid a table from the wire may have (as the Swift library's).
MAXIMUM_COLUMNS = 1024
MAXIMUM_CELLS = 1 << 20

_KINDS = {"DETECTED_DATA_KIND_DATE": "date", "DETECTED_DATA_KIND_MONEY": "money", "DETECTED_DATA_KIND_PHONE_NUMBER": "phoneNumber",
          "DETECTED_DATA_KIND_EMAIL_ADDRESS": "emailAddress", "DETECTED_DATA_KIND_LINK": "link"}


@dataclass(frozen=True)
class _HeadingCandidate:
    """A heading before its level is known (`LayoutHeading`)."""
    text: str
    box: Box
    size_ratio: float
    numbering_depth: Optional[int]


_Part = Union[_HeadingCandidate, Element]


@dataclass
class _PageParts:
    """One page's layout, its boxes on the upright page."""
    page_index: int
    width: int  # upright
    elements: List[_Part]
    top: List[TextBlock]
    bottom: List[TextBlock]
    data: List[DetectedData]


class _Frame:
    """A page's boxes as the page reads, upright (quarter turns clockwise from the original image)."""

    def __init__(self, result: JSON) -> None:
        # From `rotationDegrees` as the Swift library's UprightFrame reads it (divided with
        # truncation and the remainder's sign as Swift's, for a peer's odd values).
        quarters = int(int(result.get("rotationDegrees", 0)) / 90)
        turns = abs(quarters) % 4 * (1 if quarters >= 0 else -1)
        self.quarter_turns = ((4 - turns) % 4 + 4) % 4
        self.width, self.height = int(result.get("width", 0)), int(result.get("height", 0))

    @property
    def upright_size(self) -> Tuple[int, int]:
        return (self.width, self.height) if self.quarter_turns % 2 == 0 else (self.height, self.width)

    def upright(self, box: Box) -> Box:
        return _turned(box, self.quarter_turns, self.width, self.height)

    def original(self, box: Box) -> Box:
        width, height = self.upright_size
        return _turned(box, (4 - self.quarter_turns) % 4, width, height)


def _turned(box: Box, quarter_turns: int, width: int, height: int) -> Box:
    """`box` in a `width` x `height` image turned `quarter_turns` clockwise."""
    turns = quarter_turns % 4
    if turns == 1:
        return Box(height - (box.y + box.height), box.x, box.height, box.width)
    if turns == 2:
        return Box(width - (box.x + box.width), height - (box.y + box.height), box.width, box.height)
    if turns == 3:
        return Box(box.y, width - (box.x + box.width), box.height, box.width)
    return box


def _box(data: Optional[JSON]) -> Box:
    """A box that must be there (a layout without it does not hold together)."""
    if data is None:
        raise ValueError("box missing")
    return Box.from_json(data)


def _text_block(kind: str, data: JSON) -> TextBlock:
    return TextBlock(kind, str(data.get("text", "")), _box(data.get("box")))


def _table(data: JSON) -> Table:
    """A table whose cells tile no more than its grid: each cell inside it, none over another."""
    columns, rows_in = int(data.get("columnCount", 0)), data.get("rows") or []
    header_rows = int(data.get("headerRows", 0))
    if not 1 <= columns <= MAXIMUM_COLUMNS or not rows_in or len(rows_in) * columns > MAXIMUM_CELLS or header_rows > len(rows_in):
        raise ValueError("table grid")
    box = _box(data.get("box"))
    taken = set()
    rows: List[List[TableCell]] = []
    for r, row in enumerate(rows_in):
        cells = []
        for cell in row.get("cells") or []:
            column = int(cell.get("column", 0))
            column_span, row_span = max(1, int(cell.get("columnSpan", 0))), max(1, int(cell.get("rowSpan", 0)))
            if column + column_span > columns or r + row_span > len(rows_in):
                raise ValueError("cell outside its table")
            for rr in range(r, r + row_span):
                for c in range(column, column + column_span):
                    if (rr, c) in taken:
                        raise ValueError("cells overlap")
                    taken.add((rr, c))
            cells.append(TableCell(str(cell.get("text", "")), column, column_span, row_span,
                                   Box.from_json(cell["box"]) if cell.get("box") is not None else None))
        rows.append(cells)
    return Table(columns, header_rows, False, rows, box)


def _element(data: JSON) -> _Part:
    if "heading" in data:
        heading = data["heading"]
        ratio, depth = float(heading.get("sizeRatio", 0)), int(heading.get("numberingDepth", 0))
        if not 0 < ratio <= 1000 or depth > 64:
            raise ValueError("heading")
        return _HeadingCandidate(str(heading.get("text", "")), _box(heading.get("box")), ratio, depth or None)
    for kind in ("paragraph", "caption", "footnote"):
        if kind in data:
            return _text_block(kind, data[kind])
    if "list" in data:
        listed = data["list"]
        items = []
        for item in listed.get("items") or []:
            level = int(item.get("level", 0))
            if level > 5:
                raise ValueError("list level")
            items.append(ListItem(str(item.get("marker", "")), str(item.get("text", "")), level, _box(item.get("box"))))
        if not items:
            raise ValueError("empty list")
        return ListBlock(bool(listed.get("ordered", False)), items, _box(listed.get("box")))
    if "table" in data:
        return _table(data["table"])
    raise ValueError("element of no kind")


def _mapped(part: _Part, move: Callable[[Box], Box]) -> _Part:
    """`part` with every box moved by `move`."""
    if isinstance(part, ListBlock):
        return replace(part, box=move(part.box), items=[replace(i, box=move(i.box)) for i in part.items])
    if isinstance(part, Table):
        return replace(part, box=move(part.box),
                       rows=[[replace(c, box=move(c.box) if c.box is not None else None) for c in row] for row in part.rows])
    return replace(part, box=move(part.box))


def _original(element: Element, frame: _Frame) -> Element:
    """`element`, put together upright, with its boxes in the original image."""
    moved = _mapped(element, frame.original)
    assert not isinstance(moved, _HeadingCandidate)
    return moved


def _page_parts(page_index: int, result: JSON) -> Optional[_PageParts]:
    """The page's layout, upright; None when it has none or it does not hold together."""
    layout = result.get("layout")
    if not isinstance(layout, dict):
        return None
    frame = _Frame(result)
    try:
        top, bottom = layout.get("topLines") or [], layout.get("bottomLines") or []
        if len(top) > 2 or len(bottom) > 2:
            raise ValueError("too many band lines")
        data = []
        for item in layout.get("detectedData") or []:
            kind = _KINDS.get(str(item.get("kind", "")))
            if kind is None:
                raise ValueError("data kind")
            data.append(DetectedData(kind, str(item.get("text", "")), _box(item.get("box"))))
        parts = _PageParts(page_index, frame.upright_size[0], [_element(e) for e in layout.get("elements") or []],
                           [_text_block("line", line) for line in top], [_text_block("line", line) for line in bottom], data)
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    parts.elements = [_mapped(e, frame.upright) for e in parts.elements]
    parts.top = [replace(line, box=frame.upright(line.box)) for line in parts.top]
    parts.bottom = [replace(line, box=frame.upright(line.box)) for line in parts.bottom]
    parts.data = [replace(d, box=frame.upright(d.box)) for d in parts.data]
    return parts


def running_key(text: str) -> str:
    """Lower case, every run of digits one `#`, spaces taken out."""
    out, last_was_digit = [], False
    for character in text.lower():
        if character.isspace():
            continue
        if character.isnumeric():
            if not last_was_digit:
                out.append("#")
            last_was_digit = True
        else:
            out.append(character)
            last_was_digit = False
    return "".join(out)


def is_page_number(text: str) -> bool:
    """`7`, `- 7 -`, `Page 7`, `p. 7`, `7 of 12`, `7/12`, `vii`."""
    words = [w for w in re.split(r"[\s\-–—]+", text.lower()) if w]
    if words and words[0] in ("page", "p.", "seite", "pág.", "página"):
        words = words[1:]
    if len(words) == 3 and words[1] in ("of", "/", "von", "de"):
        words = [words[0], words[2]]
    if len(words) == 1 and "/" in words[0]:
        words = [w for w in words[0].split("/") if w]
    if not 1 <= len(words) <= 2:
        return False
    return all((0 < len(w) <= 4 and all(c in "0123456789" for c in w)) or
               (len(w) <= 6 and all(c in "ivxl" for c in w) and len(words) == 1) for w in words)


def _running(pages: List[Optional[_PageParts]]) -> Dict[int, Tuple[List[TextBlock], List[TextBlock]]]:
    """Each page's running header and footer lines, by page index."""
    candidates = [(n, band, line, running_key(line.text)) for n, page in enumerate(pages) if page is not None
                  for band, lines in (("top", page.top), ("bottom", page.bottom)) for line in lines]
    pages_with_key: Dict[Tuple[str, str], Set[int]] = {}
    for n, band, _, key in candidates:
        pages_with_key.setdefault((band, key), set()).add(n)
    needed = max(2, (len(pages) * 2 + 4) // 5)  # on 40% of the pages, at least two
    running: Dict[int, Tuple[List[TextBlock], List[TextBlock]]] = {}
    for n, band, line, key in candidates:
        if len(pages_with_key[(band, key)]) >= needed or is_page_number(line.text):
            page = pages[n]
            assert page is not None
            header, footer = running.setdefault(page.page_index, ([], []))
            (header if band == "top" else footer).append(line)
    return running


def _union(boxes: List[Box]) -> Box:
    """The smallest box holding every one of `boxes` (at least one)."""
    x, y = min(b.x for b in boxes), min(b.y for b in boxes)
    return Box(x, y, max(b.x + b.width for b in boxes) - x, max(b.y + b.height for b in boxes) - y)


def _joined(kind: str, lines: List[TextBlock]) -> Optional[TextBlock]:
    """Running lines as one header or footer, top to bottom."""
    if not lines:
        return None
    lines = sorted(lines, key=lambda line: (line.box.y, line.box.x))
    return TextBlock(kind, " ".join(line.text for line in lines), _union([line.box for line in lines]))


def _contains(box: Box, x: int, y: int) -> bool:
    return box.x <= x < box.x + box.width and box.y <= y < box.y + box.height


def _without_running(elements: List[_Part], running: List[Box]) -> List[_Part]:
    """The elements with those that are nothing but running lines left out (one that took a
    running line in with other lines stays whole)."""
    kept = []
    for element in elements:
        inside = [b for b in running if _contains(element.box, b.x + b.width // 2, b.y + b.height // 2)]
        if inside:
            lines, box = _union(inside), element.box
            if lines.x <= box.x and lines.y <= box.y and lines.x + lines.width >= box.x + box.width and \
                    lines.y + lines.height >= box.y + box.height:
                continue
        kept.append(element)
    return kept


class _HeadingLevels:
    """The larger the type, the higher the heading (sizes within 12% of each other are one
    level); headings of body size come below every larger one, deeper by their numbering."""

    def __init__(self, candidates: List[_HeadingCandidate]) -> None:
        self.tiers: List[float] = []
        for ratio in sorted((c.size_ratio for c in candidates if c.size_ratio > 1), reverse=True):
            if self.tiers and ratio >= self.tiers[-1] / 1.12:
                continue
            self.tiers.append(ratio)

    def level(self, candidate: _HeadingCandidate) -> int:
        if candidate.size_ratio > 1:
            tier = next((i for i, t in enumerate(self.tiers) if candidate.size_ratio >= t / 1.12), len(self.tiers) - 1)
            return min(6, tier + 1)
        return min(6, len(self.tiers) + (candidate.numbering_depth or 1))


def _is_running(element: Element) -> bool:
    return isinstance(element, TextBlock) and element.type in ("pageHeader", "pageFooter")


def _mark_continued(pages: Dict[int, List[Element]], widths: Dict[int, int]) -> None:
    """A table last on a page (its footer aside) whose next page starts with a table of as many
    columns at the same place across the page (edges within a twentieth of its width)."""
    for index, elements in pages.items():
        following = pages.get(index + 1)
        last = next((e for e in reversed(elements) if not _is_running(e)), None)
        if following is None or not isinstance(last, Table):
            continue
        first_at = next((i for i, e in enumerate(following) if not _is_running(e)), None)
        if first_at is None:
            continue
        first = following[first_at]
        if not isinstance(first, Table) or first.columns != last.columns:
            continue
        tolerance = max(1, widths.get(index + 1, 0)) // 20
        if abs(first.box.x - last.box.x) <= tolerance and \
                abs((first.box.x + first.box.width) - (last.box.x + last.box.width)) <= tolerance:
            following[first_at] = replace(first, continues_previous_page=True)


def document_structure(results: Mapping[int, JSON]) -> Dict[int, Tuple[List[Element], List[DetectedData]]]:
    """Each page's structure and detected data, by page index, from the job's page results
    (`PageResult` as JSON, by page index)."""
    indices = sorted(results)
    parts = [_page_parts(i, results[i]) for i in indices]
    running = _running(parts)
    pending: Dict[int, List[_Part]] = {}
    for index, found in zip(indices, parts):
        if found is None:
            continue
        header_lines, footer_lines = running.get(index, ([], []))
        elements = _without_running(found.elements, [line.box for line in header_lines + footer_lines])
        header, footer = _joined("pageHeader", header_lines), _joined("pageFooter", footer_lines)
        pending[index] = ([header] if header else []) + elements + ([footer] if footer else [])
    levels = _HeadingLevels([e for elements in pending.values() for e in elements if isinstance(e, _HeadingCandidate)])
    structures: Dict[int, List[Element]] = {
        index: [Heading(levels.level(e), e.text, e.box) if isinstance(e, _HeadingCandidate) else e for e in elements]
        for index, elements in pending.items()}
    _mark_continued(structures, {p.page_index: p.width for p in parts if p is not None})
    out: Dict[int, Tuple[List[Element], List[DetectedData]]] = {}
    for index, found in zip(indices, parts):
        if found is None:
            continue
        frame = _Frame(results[index])
        out[index] = ([_original(e, frame) for e in structures[index]], [replace(d, box=frame.original(d.box)) for d in found.data])
    return out
