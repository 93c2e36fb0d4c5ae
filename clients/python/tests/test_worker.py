"""The worker SDK: an engine written as one Python function joins a real coordinator beside a
Swift Tesseract worker; jobs for its engine go to it alone; killed mid-job, nothing is lost."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import zmq
from conftest import FIXTURES, Cluster, curve_cluster

from ocr_cluster import Client, Options, PageCompleted
from ocr_cluster.worker import Recognized, Task, Word, Worker


def test_an_engine_function_serves_the_jobs_that_ask_for_it(cluster: Cluster) -> None:
    def shout(task: Task) -> Recognized:
        words = [Word(task.file.upper(), 0.9, (10, 20, 100, 30), candidates=[(task.file, 0.5)]),
                 Word(str(task.page_index), 0.8, (120, 20, 20, 30))]
        return Recognized(words=[words], width=640, height=480)

    worker = Worker(cluster.workers_endpoint, shout, engine_name="shout", slots=2, labels={"sdk": "yes"})
    thread = threading.Thread(target=worker.run, daemon=True)
    thread.start()
    try:
        with Client(cluster.url) as client:
            deadline = time.time() + 20
            while not any("shout" in w.engines for w in client.cluster().workers) and time.time() < deadline:
                time.sleep(0.05)
            engines = {w.labels.get("sdk", "swift"): w.engines for w in client.cluster().workers}
            assert engines["yes"] == ["shout"] and engines["swift"] == ["tesseract"], engines
            png = (FIXTURES / "text.png").read_bytes()
            job = client.submit([(f"page{i}.png", png) for i in range(4)], Options(engine="shout"))
            document = client.document(job.id)
            assert [p.text for p in document.pages] == [f"PAGE{i}.PNG {i}\n" for i in range(4)]
            word = document.pages[2].words[0]
            assert (word.text, word.box.x, word.box.width, word.candidates[0].text) == ("PAGE2.PNG", 10, 100, "page2.png")
            assert document.pages[0].width == 640
            # A job for the default engine is not the SDK worker's.
            plain = client.document(client.submit([("plain.png", png)]).id)
            assert "PLAIN" not in plain.pages[0].text and plain.pages[0].text.strip()
    finally:
        worker.stop()
        thread.join(timeout=40)
    assert not thread.is_alive(), "stop() drains and returns"


def test_a_worker_killed_mid_job_loses_nothing(cluster: Cluster, tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))

    def start() -> subprocess.Popen[bytes]:
        return subprocess.Popen([sys.executable, "-m", "ocr_cluster.worker", cluster.workers_endpoint, "--engine", "slowecho",
                                 "--page-seconds", "0.4"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    first = start()
    second = None
    try:
        with Client(cluster.url) as client:
            deadline = time.time() + 20
            while not any("slowecho" in w.engines for w in client.cluster().workers) and time.time() < deadline:
                time.sleep(0.05)
            png = (FIXTURES / "tiny.png").read_bytes()
            job = client.submit([(f"p{i}.png", png) for i in range(6)], Options(engine="slowecho"))
            done = 0
            for event in client.events(job.id):
                if isinstance(event, PageCompleted):
                    done += 1
                    if done == 2:
                        break
            first.send_signal(signal.SIGKILL)
            first.wait()
            second = start()
            document = client.document(job.id)
            assert [p.state for p in document.pages] == ["OK"] * 6 and document.gaps == []
            pids = {p.text.rsplit("pid ", 1)[-1] for p in document.pages}
            assert str(first.pid) in pids and str(second.pid) in pids, pids
            assert all(p.text.startswith(f"slowecho read p{p.page_index}.png page {p.page_index}") for p in document.pages)
            finished = client.job(job.id)
            assert finished.state == "SUCCEEDED" and finished.pages_done == 6
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.terminate()
                process.wait(timeout=40)


def test_over_curve_only_a_worker_with_the_coordinators_key_joins(tmp_path: Path) -> None:
    cluster, server_key = curve_cluster(tmp_path)
    public, secret = zmq.curve_keypair()
    encrypted = Worker(cluster.workers_endpoint, lambda task: f"sealed {task.page_index}", engine_name="sealed",
                       curve=(server_key, secret, public))
    plain = Worker(cluster.workers_endpoint, lambda task: "plain", engine_name="plain")
    threads = [threading.Thread(target=w.run, daemon=True) for w in (encrypted, plain)]
    for thread in threads:
        thread.start()
    try:
        with Client(cluster.url) as client:
            deadline = time.time() + 20
            while not client.cluster().workers and time.time() < deadline:
                time.sleep(0.05)
            time.sleep(1.0)  # the plain worker has had time to try
            assert [w.engines for w in client.cluster().workers] == [["sealed"]]
            document = client.recognize([("a.png", (FIXTURES / "tiny.png").read_bytes())], engine="sealed")
            assert document.pages[0].text == "sealed 0"
    finally:
        for worker in (encrypted, plain):
            worker.stop()
        for thread in threads:
            thread.join(timeout=40)
        cluster.stop()
