"""The Python client against a real coordinator and a real Tesseract worker."""
from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, Dict

import pytest
from conftest import FIXTURES, Cluster, free_port

from ocr_cluster import AsyncClient, Client, Finished, OCRClusterError, Options, PageCompleted, Progress


def test_submit_a_path_and_read_the_typed_document(cluster: Cluster) -> None:
    with Client(cluster.url) as client:
        job = client.submit([FIXTURES / "multipage.tif"], languages="eng", candidates=3)
        assert job.page_count == 3 and job.id.startswith("job-")
        document = client.document(job.id)
        assert [p.page_index for p in document.pages] == [0, 1, 2] and document.gaps == []
        assert "Second page of the multipage file" in document.pages[1].text
        words = document.pages[1].words
        numbers = [w for w in words if w.text.rstrip(",") in ("42", "1987", "3.14")]
        assert len(numbers) == 3, [w.text for w in words]
        assert all(w.box.width > 0 and w.box.height > 0 and 0 < w.confidence <= 1 for w in words)
        assert any(w.candidates for w in words), "candidates=3 gives other readings"
        finished = client.job(job.id, page_states=True)
        assert finished.state == "SUCCEEDED" and finished.pages_done == 3 and finished.page_states == ["DONE"] * 3


def test_bytes_options_events_formats_and_listing(cluster: Cluster) -> None:
    text = (FIXTURES / "text.png").read_bytes()
    with Client(cluster.url) as client:
        job = client.submit([("a.png", text), ("b.png", text)], Options(languages="eng", level="fast"), job_key="py-events")
        assert job.page_count == 2 and job.files == ["a.png", "b.png"]
        again = client.submit([("a.png", text), ("b.png", text)], Options(languages="eng", level="fast"), job_key="py-events")
        assert again.id == job.id, "a job key returns the first job"
        events = list(client.events(job.id))
        completed = sorted(e.page.page_index for e in events if isinstance(e, PageCompleted))
        assert completed == [0, 1]
        assert all(e.page.text.strip() and e.page.file in ("a.png", "b.png") for e in events if isinstance(e, PageCompleted))
        assert isinstance(events[-1], Finished) and events[-1].state == "SUCCEEDED" and events[-1].error is None
        assert any(isinstance(e, Progress) for e in events)
        # Following a finished job again replays it; from a page on, only what follows.
        replay = [e.page.page_index for e in client.events(job.id, from_page=1) if isinstance(e, PageCompleted)]
        assert replay == [1]
        assert client.fetch(job.id, "pdf").startswith(b"%PDF-")
        assert client.fetch(job.id, "txt", page=2).decode().strip()
        assert b"ocr_page" in client.fetch(job.id, "hocr")
        assert job.id in [j.id for j in client.all_jobs(page_size=1)]
        assert [j.id for j in client.jobs(states=["SUCCEEDED"], limit=1000).jobs].count(job.id) == 1
        cluster_status = client.cluster()
        assert cluster_status.total_slots >= 1 and cluster_status.workers[0].labels.get("engine") == "tesseract"
        assert cluster_status.workers[0].engines == ["tesseract"]


def test_errors_name_the_code_file_and_page(cluster: Cluster) -> None:
    with Client(cluster.url) as client:
        with pytest.raises(OCRClusterError) as bad:
            client.submit([("notes.txt", b"this is not an image")])
        assert bad.value.code == "INVALID_ARGUMENT" and bad.value.file == "notes.txt" and bad.value.http_status == 400
        with pytest.raises(OCRClusterError) as missing:
            client.job("job-does-not-exist")
        assert missing.value.code == "NOT_FOUND" and missing.value.http_status == 404
        with pytest.raises(OCRClusterError) as no_engine:
            client.submit([FIXTURES / "text.png"], Options(engine="nobody"))
        assert no_engine.value.code == "FAILED_PRECONDITION" and no_engine.value.details.get("engine") == "nobody"
        with pytest.raises(OCRClusterError) as unreadable:
            client.submit(["/nonexistent/scan.tif"])
        assert unreadable.value.code == "INVALID_ARGUMENT" and unreadable.value.file == "/nonexistent/scan.tif"
    with Client("http://127.0.0.1:9", timeout=2) as nobody, pytest.raises(OCRClusterError) as down:
        nobody.cluster()
    assert down.value.code == "UNAVAILABLE"


def test_cancel_then_delete(cluster: Cluster) -> None:
    pages = (FIXTURES / "multipage.tif").read_bytes()
    with Client(cluster.url) as client:
        job = client.submit([(f"p{i}.tif", pages) for i in range(6)], level="best")
        with pytest.raises(OCRClusterError) as running:
            client.delete(job.id)
        assert running.value.code == "FAILED_PRECONDITION"
        cancelled = client.cancel(job.id)
        assert cancelled.state in ("CANCELLED", "RUNNING", "QUEUED")
        assert client.wait(job.id).state == "CANCELLED"
        client.delete(job.id)
        with pytest.raises(OCRClusterError) as gone:
            client.job(job.id)
        assert gone.value.code == "NOT_FOUND"


def test_the_async_client_makes_the_same_calls(cluster: Cluster) -> None:
    async def run() -> None:
        async with AsyncClient(cluster.url) as client:
            document = await client.recognize([FIXTURES / "text.png"], languages="eng")
            assert document.pages[0].text.strip() and document.pages[0].words
            jobs = [job async for job in client.all_jobs(page_size=2)]
            assert jobs, "listing pages through the jobs"
            with pytest.raises(OCRClusterError) as missing:
                await client.document("job-nope", wait=False)
            assert missing.value.code == "NOT_FOUND"
    asyncio.run(run())


def test_a_token_is_required_and_sent(token_cluster: Cluster) -> None:
    with Client(token_cluster.url) as anonymous, pytest.raises(OCRClusterError) as refused:
        anonymous.cluster()
    assert refused.value.code == "UNAUTHENTICATED" and refused.value.http_status == 401
    with Client(token_cluster.url, token="python-client-test-token-0123456789") as client:
        document = client.recognize([FIXTURES / "text.png"])
        assert document.pages[0].text.strip()


def test_the_readme_example_runs_as_written(cluster: Cluster, capsys: pytest.CaptureFixture[str]) -> None:
    """The repository README's Python example, with its URL and file replaced by this cluster's."""
    readme = (FIXTURES.parents[1] / "README.md").read_text()
    example = readme.split("```python\n", 1)[1].split("```", 1)[0]
    assert len(example.strip().splitlines()) <= 6, example
    assert "http://127.0.0.1:8080" in example and '"scan.tiff"' in example
    exec(example.replace("http://127.0.0.1:8080", cluster.url).replace('"scan.tiff"', repr(str(FIXTURES / "multipage.tif"))), {})
    assert "Second page of the multipage file" in capsys.readouterr().out


def openapi_document_schema() -> Dict[str, Any]:
    """openapi.json's Document schema as JSON Schema: OpenAPI 3.0's `nullable` is JSON Schema's
    "or null" (jsonschema ignores `nullable` and `discriminator`; the `oneOf` still decides)."""
    def translate(node: Any) -> Any:
        if isinstance(node, list):
            return [translate(n) for n in node]
        if not isinstance(node, dict):
            return node
        out = {k: translate(v) for k, v in node.items() if k != "nullable"}
        return {"anyOf": [out, {"type": "null"}]} if node.get("nullable") else out
    spec = json.loads((FIXTURES.parents[1] / "openapi.json").read_text())
    return {"$ref": "#/components/schemas/Document", "components": translate(spec["components"])}


def test_a_real_document_matches_the_openapi_schema(cluster: Cluster) -> None:
    """openapi.json's Document schema, checked against what the coordinator serves for a page of
    real text (so that clients generated from it get the right types)."""
    jsonschema = pytest.importorskip("jsonschema")
    with Client(cluster.url) as client:
        job = client.submit([FIXTURES / "text.png"], candidates=2)
        client.wait(job.id)
        served = json.loads(client.fetch(job.id, "json"))
    jsonschema.validate(served, openapi_document_schema())
    assert served["pages"][0]["result"]["blocks"][0]["paragraphs"][0]["lines"][0]["words"], "words to check"
    assert served["pages"][0]["structure"], "structure to check"


def test_a_real_ruled_table_comes_as_a_typed_table(cluster: Cluster) -> None:
    """Seven rows of a real statistical report's ruled table (camelot's agstat.pdf at 300 dpi):
    one `Table` of five columns whose cells are the printed ones, and the served document
    matches the schema's StructureElement and TableCell."""
    jsonschema = pytest.importorskip("jsonschema")
    with Client(cluster.url) as client:
        job = client.submit([FIXTURES / "real" / "camelot" / "agstat-p1-districts.png"])
        document = client.document(job.id)
        served = json.loads(client.fetch(job.id, "json"))
    jsonschema.validate(served, openapi_document_schema())
    tables = document.pages[0].tables
    assert len(tables) == 1, document.pages[0].structure
    table = tables[0]
    assert (table.columns, len(table.rows)) == (5, 7)
    assert table.grid()[3] == ["4", "Subarnapur", "6.70", "5.90", "0.86"]
    assert [row[1].text for row in table.rows] == ["Balasore", "Bhadrak", "Balangir", "Subarnapur", "Cuttack", "Jagatsingpur", "Jajpur"]
    assert all(cell.box is not None and cell.box.width > 0 for row in table.rows for cell in row)


def test_events_resume_across_a_coordinator_restart(tmp_path: Path) -> None:
    """The event stream survives its coordinator: killed mid-job and restarted on its journal,
    the client reconnects with Last-Event-ID and gets every page once, then Finished."""
    port = free_port()
    arguments = ["--journal", str(tmp_path / "journal.db"), "--http-endpoint", f"127.0.0.1:{port}",
                 "--worker-endpoint", f"tcp://127.0.0.1:{free_port()}"]
    first = Cluster(tmp_path / "first", arguments, engine="sleep:300")
    restarted = None
    try:
        with Client(first.url, reattach_attempts=20) as client:
            png = (FIXTURES / "tiny.png").read_bytes()
            job = client.submit([(f"p{i}.png", png) for i in range(8)])
            seen = []
            for event in client.events(job.id):
                if isinstance(event, PageCompleted):
                    seen.append(event.page.page_index)
                    if len(seen) == 2 and restarted is None:
                        first.coordinator.kill()
                        first.coordinator.wait()
                        restarted = Cluster(tmp_path / "second", arguments, engine=None)
                if isinstance(event, Finished):
                    assert event.state == "SUCCEEDED"
            assert sorted(seen) == list(range(8)) and len(seen) == 8, seen
            assert restarted is not None
    finally:
        first.stop()
        if restarted is not None:
            restarted.stop()
