"""The structure models read every element type of a page's `structure` (shapes as
Sources/OCRClient/Document/StructureJSON.swift writes them) without a cluster."""
from __future__ import annotations

from ocr_cluster import Box, DetectedData, Document, Heading, ListBlock, Table, TextBlock

BOX = {"x": 10, "y": 20, "width": 300, "height": 40}
PAGE = {
    "pageIndex": 0, "state": "OK",
    "result": {"pageIndex": 0, "width": 2480, "height": 3508, "text": "", "blocks": []},
    "structure": [
        {"type": "heading", "level": 2, "text": "2. Results", "box": BOX},
        {"type": "pageHeader", "text": "Annual report 2024", "box": BOX},
        {"type": "list", "ordered": True, "box": BOX, "items": [
            {"marker": "1.", "text": "First", "level": 0, "box": BOX},
            {"marker": "a)", "text": "Inside", "level": 1, "box": BOX}]},
        {"type": "table", "box": BOX, "columns": 3, "headerRows": 1, "continuesPreviousPage": True, "rows": [
            [{"text": "Site", "column": 0, "columnSpan": 1, "rowSpan": 2, "box": BOX},
             {"text": "Measured", "column": 1, "columnSpan": 2, "rowSpan": 1, "box": BOX}],
            [{"text": "2023", "column": 1, "columnSpan": 1, "rowSpan": 1, "box": BOX},
             {"text": "", "column": 2, "columnSpan": 1, "rowSpan": 1, "box": None}]]},
        {"type": "sidebar", "text": "A kind a newer coordinator added", "box": BOX}],
    "detectedData": [{"kind": "money", "text": "$1,240.00", "box": BOX}],
}


def test_every_element_type_is_typed() -> None:
    page = Document.from_json({"pages": [PAGE], "gaps": [], "languages": ["eng"]}).pages[0]
    heading, header, items, table, other = page.structure
    assert heading == Heading(2, "2. Results", Box(10, 20, 300, 40)) and page.headings == [heading]
    assert header == TextBlock("pageHeader", "Annual report 2024", Box(10, 20, 300, 40))
    assert isinstance(items, ListBlock) and items.ordered and [(i.marker, i.level) for i in items.items] == [("1.", 0), ("a)", 1)]
    assert isinstance(table, Table) and page.tables == [table]
    assert (table.columns, table.header_rows, table.continues_previous_page) == (3, 1, True)
    assert table.rows[1][1].box is None
    assert table.grid() == [["Site", "Measured", "Measured"], ["Site", "2023", ""]]
    assert isinstance(other, TextBlock) and other.type == "sidebar"
    assert page.detected_data == [DetectedData("money", "$1,240.00", Box(10, 20, 300, 40))]


def test_a_page_without_structure_has_none() -> None:
    page = Document.from_json({"pages": [{"pageIndex": 0, "state": "OK", "result": {"text": "x"}}]}).pages[0]
    assert page.structure == [] and page.tables == [] and page.detected_data == []
