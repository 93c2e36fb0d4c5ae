"""Typed views of a page's structure in the JSON document (`format=json`, each page's
`structure` and `detectedData`): headings, paragraphs, lists and tables in reading order, the
page's running header and footer, captions, footnotes, and the dates, amounts, phone numbers,
e-mail addresses and links in its text. The shapes follow Apple Vision's `DocumentObservation`
(a container of text, paragraphs, lists, tables of rows of cells, detected data); the schema is
`StructureElement` in the repository's `openapi.json`.

Headings' levels and the running header and footer are found across the whole job: they come
with the document the coordinator serves (`Client.document`), and a `ZMQClient` puts them
together from the pages' layouts (`_assembly`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Union

from .geometry import JSON, Box


@dataclass(frozen=True)
class Heading:
    """A title or section heading; `level` 1 is the document's largest."""
    level: int
    text: str
    box: Box
    type: str = "heading"


@dataclass(frozen=True)
class TextBlock:
    """Text in one piece: `type` is "paragraph", "caption", "footnote", "pageHeader" or
    "pageFooter" (or a kind a newer coordinator adds, kept by name)."""
    type: str
    text: str
    box: Box


@dataclass(frozen=True)
class ListItem:
    """One item: its marker as printed ("•", "3.", "b)"), its text and its nesting (0 outermost)."""
    marker: str
    text: str
    level: int
    box: Box


@dataclass(frozen=True)
class ListBlock:
    """A bulleted (`ordered` False) or numbered list, its items in order."""
    ordered: bool
    items: List[ListItem]
    box: Box
    type: str = "list"


@dataclass(frozen=True)
class TableCell:
    """A cell: its text, its first column (0-based) and how many columns and rows it spans;
    `box` is None for an empty cell."""
    text: str
    column: int
    column_span: int
    row_span: int
    box: Optional[Box]


@dataclass(frozen=True)
class Table:
    """A table: rows of cells (a row holds only the cells that start in it), the first
    `header_rows` rows its header; `continues_previous_page` when it goes on from the table at
    the foot of the page before."""
    columns: int
    header_rows: int
    continues_previous_page: bool
    rows: List[List[TableCell]]
    box: Box
    type: str = "table"

    def grid(self) -> List[List[str]]:
        """The table as `columns` strings per row, a spanning cell's text in each column and
        row it covers (for a DataFrame or a CSV writer)."""
        grid = [["" for _ in range(self.columns)] for _ in self.rows]
        for r, row in enumerate(self.rows):
            for cell in row:
                for rr in range(r, min(len(self.rows), r + max(1, cell.row_span))):
                    for c in range(cell.column, min(self.columns, cell.column + max(1, cell.column_span))):
                        grid[rr][c] = cell.text
        return grid


Element = Union[Heading, TextBlock, ListBlock, Table]


@dataclass(frozen=True)
class DetectedData:
    """A date, an amount of money, a phone number, an e-mail address or a link in the page's
    text: `kind` is "date", "money", "phoneNumber", "emailAddress" or "link"."""
    kind: str
    text: str
    box: Box


def element_from_json(data: JSON) -> Element:
    """One element of a page's `structure`."""
    kind = str(data.get("type", ""))
    box = Box.from_json(data.get("box"))
    if kind == "heading":
        return Heading(int(data.get("level", 1)), str(data.get("text", "")), box)
    if kind == "list":
        items = [ListItem(str(i.get("marker", "")), str(i.get("text", "")), int(i.get("level", 0)), Box.from_json(i.get("box")))
                 for i in data.get("items") or []]
        return ListBlock(bool(data.get("ordered", False)), items, box)
    if kind == "table":
        rows = [[TableCell(str(c.get("text", "")), int(c.get("column", 0)), int(c.get("columnSpan", 1)), int(c.get("rowSpan", 1)),
                           Box.from_json(c["box"]) if c.get("box") else None) for c in row]
                for row in data.get("rows") or []]
        return Table(int(data.get("columns", 0)), int(data.get("headerRows", 0)), bool(data.get("continuesPreviousPage", False)),
                     rows, box)
    return TextBlock(kind, str(data.get("text", "")), box)


def detected_data_from_json(data: JSON) -> DetectedData:
    """One entry of a page's `detectedData`."""
    return DetectedData(str(data.get("kind", "")), str(data.get("text", "")), Box.from_json(data.get("box")))
