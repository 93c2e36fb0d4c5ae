"""The document's structure put together from page layouts (`_assembly`, as `ZMQClient` does):
running lines, heading levels, continued tables, turned pages and layouts that do not hold
together, on layouts written here as a worker sends them (`PageResult` as JSON)."""
from __future__ import annotations

from typing import Any, Dict, List

from ocr_cluster import Box, Heading, Table, TextBlock
from ocr_cluster._assembly import document_structure, is_page_number, running_key


def box(x: int, y: int, w: int, h: int) -> Dict[str, int]:
    return {"x": x, "y": y, "width": w, "height": h}


def page(elements: List[Dict[str, Any]], top: List[Dict[str, Any]] = [], bottom: List[Dict[str, Any]] = [],
         rotation: int = 0, width: int = 1000, height: int = 2000) -> Dict[str, Any]:
    return {"width": width, "height": height, "rotationDegrees": rotation,
            "layout": {"elements": elements, "topLines": top, "bottomLines": bottom}}


def paragraph(text: str, b: Dict[str, int]) -> Dict[str, Any]:
    return {"paragraph": {"text": text, "box": b}}


def table(columns: int, b: Dict[str, int], cells: List[List[Dict[str, Any]]]) -> Dict[str, Any]:
    return {"table": {"columnCount": columns, "box": b, "rows": [{"cells": row} for row in cells]}}


def test_a_line_repeated_at_the_foot_of_the_pages_is_their_footer() -> None:
    footer_box = box(100, 1900, 400, 30)
    pages = {i: page([paragraph(f"Body {i}", box(100, 200, 800, 300)), paragraph("Annual Report 2024", footer_box)],
                     bottom=[{"text": "Annual Report 2024", "box": footer_box}]) for i in range(3)}
    structure = document_structure(pages)
    for i in range(3):
        elements, _ = structure[i]
        assert elements == [TextBlock("paragraph", f"Body {i}", Box(100, 200, 800, 300)),
                            TextBlock("pageFooter", "Annual Report 2024", Box(100, 1900, 400, 30))]


def test_a_page_number_alone_is_a_header_on_any_page() -> None:
    number_box = box(480, 50, 40, 20)
    elements, _ = document_structure({0: page([paragraph("- 7 -", number_box), paragraph("Text", box(100, 200, 800, 300))],
                                              top=[{"text": "- 7 -", "box": number_box}])})[0]
    assert elements[0] == TextBlock("pageHeader", "- 7 -", Box(480, 50, 40, 20)) and len(elements) == 2
    assert [is_page_number(t) for t in ("7", "Page 7", "7 of 12", "7/12", "vii", "p. 12", "Chapter 7", "12345")] == \
        [True, True, True, True, True, True, False, False]
    assert running_key("Report  2024, page 12") == "report#,page#"


def test_heading_levels_rank_sizes_over_the_whole_document() -> None:
    def heading(text: str, ratio: float, depth: int = 0) -> Dict[str, Any]:
        return {"heading": {"text": text, "box": box(100, 100, 500, 60), "sizeRatio": ratio, "numberingDepth": depth}}
    structure = document_structure({0: page([heading("Title", 2.0), heading("Part", 1.5)]),
                                    1: page([heading("Section", 1.45), heading("2.1 Detail", 1.0, 2)])})
    assert [(e.level, e.text) for e in structure[0][0] + structure[1][0] if isinstance(e, Heading)] == \
        [(1, "Title"), (2, "Part"), (2, "Section"), (4, "2.1 Detail")]


def test_a_table_ending_one_page_and_starting_the_next_continues_there() -> None:
    def cells(*texts: str) -> List[Dict[str, Any]]:
        return [{"text": t, "column": c, "box": box(100 + 200 * c, 0, 150, 30)} for c, t in enumerate(texts)]
    first = page([paragraph("Intro", box(100, 100, 800, 50)), table(2, box(100, 1500, 700, 400), [cells("a", "1")])])
    second = page([table(2, box(110, 100, 690, 400), [cells("b", "2")]), paragraph("After", box(100, 600, 800, 50))])
    third = page([table(3, box(100, 100, 700, 400), [cells("c", "3", "x")])])
    structure = document_structure({0: first, 1: second, 2: third})
    tables = [e for i in range(3) for e in structure[i][0] if isinstance(e, Table)]
    assert [t.continues_previous_page for t in tables] == [False, True, False]
    assert tables[1].grid() == [["b", "2"]]


def test_a_turned_page_is_put_together_upright_and_its_boxes_come_back_in_the_image() -> None:
    # Upright the page is 2000 wide and 1000 tall; the image holds it turned a quarter clockwise.
    footer_box = box(200, 900, 400, 40)  # upright, in the bottom tenth
    turned = {"x": 1000 - 940, "y": 200, "width": 40, "height": 400}  # the same box in the image (turned 90 clockwise)
    pages = {i: page([paragraph("Body", {"x": 500, "y": 300, "width": 300, "height": 1000})],
                     bottom=[{"text": "Confidential", "box": turned}], rotation=90, width=1000, height=2000) for i in range(2)}
    for i in range(2):
        elements, _ = document_structure(pages)[i]
        assert elements[-1] == TextBlock("pageFooter", "Confidential", Box(**turned)), (elements, footer_box)


def test_a_layout_that_does_not_hold_together_gives_the_page_no_structure() -> None:
    overlapping = table(2, box(0, 0, 100, 100), [[{"text": "a", "column": 0, "columnSpan": 2}, {"text": "b", "column": 1}]])
    no_box = {"paragraph": {"text": "x"}}
    good = page([paragraph("Fine", box(0, 0, 10, 10))])
    structure = document_structure({0: page([overlapping]), 1: page([no_box]), 2: {"width": 10, "height": 10}, 3: good})
    assert sorted(structure) == [3] and structure[3][0] == [TextBlock("paragraph", "Fine", Box(0, 0, 10, 10))]
