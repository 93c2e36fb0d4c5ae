"""`ZMQClient`: the same calls over the coordinator's ZeroMQ protocol, and with CURVE."""
from __future__ import annotations

import subprocess
import threading
import time
from pathlib import Path

import pytest
import zmq
from conftest import BIN, FIXTURES, Cluster

from ocr_cluster import Finished, OCRClusterError, Options, PageCompleted
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
        client.cancel(long.id)
        assert client.wait(long.id).state == "CANCELLED"


def test_over_curve_with_the_coordinators_key(tmp_path: Path) -> None:
    keys = tmp_path / "coordinator.key"
    subprocess.run([str(BIN / "ocr-coordinator"), "keygen", str(keys)], check=True, stdout=subprocess.DEVNULL)
    server_key = (tmp_path / "coordinator.key.pub").read_text().strip().encode()
    cluster = Cluster(tmp_path / "curve", ["--curve-secret-key", str(keys), "--allow-any-worker",
                                           "--client-endpoint", "tcp://127.0.0.1:*", "--worker-endpoint", "tcp://127.0.0.1:*"],
                      engine=None)
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
