"""`ZMQClient`: the same calls over the coordinator's ZeroMQ protocol, and with CURVE."""
from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import List, Optional

import pytest
import zmq
from conftest import FIXTURES, Cluster, curve_cluster, free_port

from ocr_cluster import AsyncZMQClient, Client, Event, Finished, OCRClusterError, Options, PageCompleted
from ocr_cluster.worker import Worker
from ocr_cluster.zmq_client import ZMQClient


def test_the_calls_over_zeromq(cluster: Cluster) -> None:
    with ZMQClient(cluster.clients_endpoint) as client:
        job = client.submit([FIXTURES / "multipage.tif"], Options(languages="eng", candidates=2), job_key="zmq-1")
        assert job.page_count == 3 and job.files == ["multipage.tif"] and job.created_at.endswith("Z")
        assert client.submit([FIXTURES / "multipage.tif"], Options(languages="eng", candidates=2), job_key="zmq-1").id == job.id
        with pytest.raises(OCRClusterError) as reused:
            client.submit([FIXTURES / "multipage.tif"], job_key="zmq-1")
        assert reused.value.code == "ALREADY_EXISTS" and reused.value.page_index is None
        events = list(client.events(job.id))
        assert sorted(e.page.page_index for e in events if isinstance(e, PageCompleted)) == [0, 1, 2]
        assert isinstance(events[-1], Finished) and events[-1].state == "SUCCEEDED"
        document = client.document(job.id)
        assert "Second page of the multipage file" in document.pages[1].text and document.gaps == []
        words = document.pages[1].words
        assert words and all(w.box.width > 0 for w in words) and any(w.candidates for w in words)
        assert client.fetch(job.id, "txt", page=2).decode().startswith("Second page")
        with pytest.raises(OCRClusterError) as unrendered:
            client.fetch(job.id, "pdf")
        assert unrendered.value.code == "UNIMPLEMENTED"
        finished = client.job(job.id, page_states=True)
        assert finished.state == "SUCCEEDED" and finished.page_states == ["DONE"] * 3
        assert job.id in [j.id for j in client.all_jobs(states=["SUCCEEDED"], page_size=1)]
        assert client.cluster().workers[0].engines == ["tesseract"]
        client.delete(job.id)
        with pytest.raises(OCRClusterError) as gone:
            client.job(job.id)
        assert gone.value.code == "NOT_FOUND"
        with pytest.raises(OCRClusterError) as bad:
            client.submit([("notes.txt", b"not an image")])
        assert bad.value.code == "INVALID_ARGUMENT" and bad.value.file == "notes.txt"
        with pytest.raises(OCRClusterError) as option:
            client.submit([FIXTURES / "text.png"], level="sloppy")
        assert option.value.code == "INVALID_ARGUMENT" and option.value.details["field"] == "level"
        long = client.submit([(f"p{i}.tif", (FIXTURES / "multipage.tif").read_bytes()) for i in range(5)], level="best")
        # Without waiting: the pages done now, the others gaps, while the job runs on.
        early = client.document(long.id, wait=False)
        assert len(early.pages) == 15 and client.job(long.id).state in ("QUEUED", "RUNNING")
        assert early.gaps == [p.page_index for p in early.pages if p.state != "OK"] and len(early.gaps) >= 12
        client.cancel(long.id)
        assert client.wait(long.id).state == "CANCELLED"


def test_over_curve_with_the_coordinators_key(tmp_path: Path) -> None:
    cluster, server_key = curve_cluster(tmp_path)
    public, secret = zmq.curve_keypair()
    worker = Worker(cluster.workers_endpoint, lambda task: f"sealed {task.file}", engine_name="tesseract",
                    curve=(server_key, *zmq.curve_keypair()[::-1]))
    thread = threading.Thread(target=worker.run, daemon=True)
    thread.start()
    try:
        with ZMQClient(cluster.clients_endpoint, curve=(server_key, secret, public)) as client:
            deadline = time.time() + 20
            while not client.cluster().workers and time.time() < deadline:
                time.sleep(0.05)
            document = client.recognize([("a.png", (FIXTURES / "tiny.png").read_bytes())])
            assert document.pages[0].text == "sealed a.png"
        # Without CURVE the coordinator is not reachable at all: the call finds no one to answer.
        with ZMQClient(cluster.clients_endpoint, timeout=2) as plain, pytest.raises(OCRClusterError) as refused:
            plain.cluster()
        assert refused.value.code == "UNAVAILABLE"
    finally:
        worker.stop()
        thread.join(timeout=40)
        cluster.stop()


def test_the_async_client_makes_the_same_calls_concurrently(cluster: Cluster) -> None:
    async def run() -> None:
        async with AsyncZMQClient(cluster.clients_endpoint) as client:
            names = ["text.png", "tiny.png", "multipage.tif"]
            documents = await asyncio.gather(*(client.recognize([FIXTURES / name], languages="eng") for name in names))
            assert [len(d.pages) for d in documents] == [1, 1, 3] and all(d.gaps == [] for d in documents)
            assert "Second page of the multipage file" in documents[2].pages[1].text
            job = await client.submit([FIXTURES / "multipage.tif"], Options(candidates=2), job_key="async-zmq-1")
            assert (await client.submit([FIXTURES / "multipage.tif"], Options(candidates=2), job_key="async-zmq-1")).id == job.id
            events = [event async for event in client.events(job.id)]
            assert sorted(e.page.page_index for e in events if isinstance(e, PageCompleted)) == [0, 1, 2]
            assert isinstance(events[-1], Finished) and events[-1].state == "SUCCEEDED"
            assert (await client.fetch(job.id, "txt", page=2)).decode().startswith("Second page")
            assert (await client.job(job.id, page_states=True)).page_states == ["DONE"] * 3
            assert job.id in [j.id async for j in client.all_jobs(states=["SUCCEEDED"], page_size=1)]
            assert (await client.cluster()).workers[0].engines == ["tesseract"]
            await client.delete(job.id)
            with pytest.raises(OCRClusterError) as gone:
                await client.job(job.id)
            assert gone.value.code == "NOT_FOUND"
            with pytest.raises(OCRClusterError) as bad:
                await client.submit([("notes.txt", b"not an image")])
            assert bad.value.code == "INVALID_ARGUMENT" and bad.value.file == "notes.txt"
            long = await client.submit([(f"p{i}.tif", (FIXTURES / "multipage.tif").read_bytes()) for i in range(5)], level="best")
            early = await client.document(long.id, wait=False)
            assert len(early.pages) == 15 and len(early.gaps) >= 12 and (await client.job(long.id)).state in ("QUEUED", "RUNNING")
            await client.cancel(long.id)
            assert (await client.wait(long.id)).state == "CANCELLED"
    asyncio.run(run())


@pytest.mark.parametrize("flavour", ["sync", "asyncio"])
def test_events_reattach_across_a_coordinator_restart(tmp_path: Path, flavour: str) -> None:
    """Killed mid-job and restarted on its journal at the same endpoint, the coordinator replays
    from the lowest page not yet seen (WatchJob(from_page)): every page once, then Finished."""
    endpoint = f"tcp://127.0.0.1:{free_port()}"
    arguments = ["--journal", str(tmp_path / "journal.db"), "--client-endpoint", endpoint,
                 "--worker-endpoint", f"tcp://127.0.0.1:{free_port()}"]
    first = Cluster(tmp_path / "first", arguments, engine="sleep:300")
    restarted: List[Cluster] = []
    png = (FIXTURES / "tiny.png").read_bytes()
    seen: List[int] = []
    last: List[Optional[Event]] = [None]

    def on(event: Event) -> None:
        last[0] = event
        if isinstance(event, PageCompleted):
            seen.append(event.page.page_index)
            if len(seen) == 2 and not restarted:
                first.coordinator.kill()
                first.coordinator.wait()
                restarted.append(Cluster(tmp_path / "second", arguments, engine=None))

    try:
        if flavour == "sync":
            with ZMQClient(endpoint, reattach_attempts=20) as client:
                for event in client.events(client.submit([(f"p{i}.png", png) for i in range(8)]).id):
                    on(event)
        else:
            async def run() -> None:
                async with AsyncZMQClient(endpoint, reattach_attempts=20) as client:
                    async for event in client.events((await client.submit([(f"p{i}.png", png) for i in range(8)])).id):
                        on(event)
            asyncio.run(run())
        assert sorted(seen) == list(range(8)) and len(seen) == 8, seen
        assert restarted and isinstance(last[0], Finished) and last[0].state == "SUCCEEDED"
    finally:
        first.stop()
        for cluster in restarted:
            cluster.stop()


def test_a_merged_document_has_the_structure_the_coordinator_serves(cluster: Cluster) -> None:
    """A real six-page PDF (OCRmyPDF's multipage.pdf: prose, a table, a page number, a page with a
    text layer that fails): the structure `ZMQClient` puts together from the pages' layouts is
    the one the coordinator serves over HTTP, page by page, heading levels, the running header
    and detected data included."""
    with Client(cluster.url) as http, ZMQClient(cluster.clients_endpoint) as zmq_client:
        job = http.submit([FIXTURES / "real" / "pdf" / "multipage.pdf"])
        served = http.document(job.id)
        merged = zmq_client.document(job.id)
    assert [p.state for p in merged.pages] == [p.state for p in served.pages] and merged.gaps == served.gaps == [3]
    served_kinds = {e.type for p in served.pages for e in p.structure}
    assert {"table", "pageHeader", "heading", "paragraph"} <= served_kinds, served_kinds
    for zmq_page, http_page in zip(merged.pages, served.pages):
        same_structure, same_data = zmq_page.structure == http_page.structure, zmq_page.detected_data == http_page.detected_data
        assert same_structure, (zmq_page.page_index, zmq_page.structure, http_page.structure)
        assert same_data, (zmq_page.page_index, zmq_page.detected_data, http_page.detected_data)
