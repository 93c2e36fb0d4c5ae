"""The Server-Sent Events reader alone: resumes and duplicates, keepalives, errors."""
from __future__ import annotations

import json

import pytest

from ocr_cluster import Finished, OCRClusterError, PageCompleted
from ocr_cluster._requests import EventStream


def lines(event: str, data: object, id: str = "") -> list[str]:
    out = [f"event: {event}", f"data: {json.dumps(data)}"]
    if id:
        out.append(f"id: {id}")
    return out + [""]


def feed(stream: EventStream, all_lines: list[str]) -> list[object]:
    return [e for e in (stream.feed(line) for line in all_lines) if e is not None]


def test_a_page_replayed_after_a_resume_is_passed_on_once() -> None:
    stream = EventStream()
    first = feed(stream, [": keepalive", ""] + lines("page_completed", {"jobId": "j", "pageIndex": 0, "text": "a"}, "1"))
    assert [e.page.page_index for e in first if isinstance(e, PageCompleted)] == [0]
    assert stream.last_id == "1"
    # The connection dropped; the stream resumes at 1, and the coordinator may send page 0 again.
    again = feed(stream, lines("page_completed", {"jobId": "j", "pageIndex": 0}, "1")
                 + lines("page_completed", {"jobId": "j", "pageIndex": 1, "text": "b"}, "2")
                 + lines("finished", {"state": "SUCCEEDED", "status": {"code": "OK"}}, "2"))
    assert [type(e).__name__ for e in again] == ["PageCompleted", "Finished"]
    assert isinstance(again[-1], Finished) and again[-1].error is None and stream.finished


def test_an_error_event_raises_with_its_code() -> None:
    stream = EventStream()
    with pytest.raises(OCRClusterError) as error:
        feed(stream, lines("error", {"code": "NOT_FOUND", "message": "no job x", "file": None, "pageIndex": None, "details": {}}))
    assert error.value.code == "NOT_FOUND"
