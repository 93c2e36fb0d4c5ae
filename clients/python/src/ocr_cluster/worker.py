"""A worker SDK: the worker side of the cluster's protocol (PROTOCOL.md section 2), so that an
engine is one function from a page to its text.

    from ocr_cluster.worker import Worker, Recognized, Word

    def read(task):                      # task.content: the page's bytes (PNG, TIFF, JPEG, PDF)
        return Recognized(words=[[Word("hello", 0.98, (10, 10, 80, 24))]])

    Worker("tcp://coordinator:5556", read, engine="myengine", slots=2).run()

Jobs that ask for the engine (`engine="myengine"`) go to such workers only. The worker says
`Ready` (with `engines`), answers every task with one result on the connection it came on,
heartbeats while it is busy, stops a page when it is cancelled, gives pages back when it is full
or stopping, and reconnects (to the next coordinator of a comma-separated list) when the
coordinator falls silent; the coordinator's rules (results only for tasks held, quotas, CURVE)
apply to it as to any worker.
"""
from __future__ import annotations

import os
import queue
import random
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import zmq

from ._proto import options_pb2, page_pb2, status_pb2, worker_pb2

SIGNATURE = b"OCRW01"
VERSION = "0.2.0-python"


@dataclass
class Task:
    """A page to read. `content` is the page alone (one image, or a one-page PDF); `options` are
    the job's (`RecognitionOptions`); stop early when `cancelled` is set (the result is then
    discarded)."""
    job_id: str
    page_index: int
    attempt: int
    file: str
    file_page: int
    content: bytes
    options: options_pb2.RecognitionOptions
    deadline: Optional[float]
    cancelled: threading.Event = field(default_factory=threading.Event)

    @property
    def seconds_left(self) -> Optional[float]:
        """Until the page's deadline (None: none)."""
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())


@dataclass(frozen=True)
class Word:
    """A recognised word: text, confidence 0...1, box `(x, y, width, height)` in the page's
    pixels (top-left origin), and other readings with their confidences."""
    text: str
    confidence: float
    box: Tuple[int, int, int, int]
    candidates: Sequence[Tuple[str, float]] = ()


@dataclass(frozen=True)
class Recognized:
    """What an engine read on a page: lines of words, in reading order (the text is made from
    them when not given), and the page's size in pixels when known."""
    words: Sequence[Sequence[Word]] = ()
    text: Optional[str] = None
    width: int = 0
    height: int = 0


class EngineError(Exception):
    """Raised by an engine for a page it cannot read: `code` is the gRPC status code name
    (`INVALID_ARGUMENT` for bytes it cannot decode fails the page at once; `UNAVAILABLE` gives
    it back to be read elsewhere; `INTERNAL` and others are retried up to the job's attempts)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


Engine = Callable[[Task], Union[str, Recognized, page_pb2.PageResult]]


def _box(x: int, y: int, width: int, height: int) -> page_pb2.BoundingBox:
    return page_pb2.BoundingBox(x=x, y=y, width=width, height=height)


def _union(boxes: Sequence[Tuple[int, int, int, int]]) -> Tuple[int, int, int, int]:
    if not boxes:
        return (0, 0, 0, 0)
    left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
    right, bottom = max(b[0] + b[2] for b in boxes), max(b[1] + b[3] for b in boxes)
    return (left, top, right - left, bottom - top)


def page_result(recognized: Recognized) -> page_pb2.PageResult:
    """The wire's `PageResult` of what an engine read: one block, one paragraph, its lines."""
    lines = []
    for words in recognized.words:
        if not words:
            continue
        box = _union([w.box for w in words])
        text = " ".join(w.text for w in words)
        lines.append(page_pb2.TextLine(
            text=text, confidence=sum(w.confidence for w in words) / len(words), box=_box(*box),
            words=[page_pb2.Word(text=w.text, confidence=w.confidence, box=_box(*w.box),
                                 candidates=[page_pb2.Candidate(text=t, confidence=c) for t, c in w.candidates])
                   for w in words]))
    text = recognized.text if recognized.text is not None else "".join(line.text + "\n" for line in lines)
    result = page_pb2.PageResult(width=recognized.width, height=recognized.height, text=text)
    if lines:
        box = _union([(line.box.x, line.box.y, line.box.width, line.box.height) for line in lines])
        confidence = sum(line.confidence for line in lines) / len(lines)
        paragraph = page_pb2.Paragraph(text=text, confidence=confidence, box=_box(*box), lines=lines)
        result.blocks.append(page_pb2.Block(text=text, confidence=confidence, box=_box(*box), paragraphs=[paragraph]))
        result.mean_confidence = confidence
    return result


class Worker:
    """A worker process's link to the coordinator and its engine threads.

    `coordinator`: the worker endpoint (`tcp://host:5556`), or several separated by commas
    (coordinators sharing a journal: each connection tries the next). `engine`: the function that
    reads a page, called on `slots` threads at once. `engine_name`: what jobs ask for.
    `curve`: `(server_public_key, secret_key, public_key)` as Z85 bytes, for a CURVE coordinator.
    """

    def __init__(self, coordinator: str, engine: Engine, *, engine_name: str, slots: int = 1,
                 languages: Sequence[str] = (), labels: Optional[Mapping[str, str]] = None,
                 heartbeat_ms: int = 1000, curve: Optional[Tuple[bytes, bytes, bytes]] = None,
                 drain_seconds: float = 30.0) -> None:
        self.endpoints = [e.strip() for e in coordinator.split(",") if e.strip()]
        if not self.endpoints:
            raise ValueError("no coordinator endpoint")
        self.engine = engine
        self.engine_name = engine_name
        self.slots = max(1, slots)
        self.languages = list(languages)
        self.labels = dict(labels or {})
        self.heartbeat = heartbeat_ms / 1000
        self.curve = curve
        self.drain_seconds = drain_seconds
        self.worker_uid = random.getrandbits(63) | 1
        self.max_tasks = self.slots + 64
        self._stop = threading.Event()
        self._results: "queue.Queue[Tuple[int, Task, page_pb2.PageResult | status_pb2.Status]]" = queue.Queue()
        self._pool = ThreadPoolExecutor(max_workers=self.slots, thread_name_prefix=f"ocr-engine-{engine_name}")
        self._context: zmq.Context[zmq.Socket[bytes]] = zmq.Context.instance()

    def stop(self) -> None:
        """Stops taking pages, finishes the ones held (up to `drain_seconds`), says Disconnect
        and makes `run` return. Safe from any thread (a signal handler, say)."""
        self._stop.set()

    # The loop: one thread owns the socket.

    def run(self) -> None:
        """Serves until `stop()`."""
        connection, backoff = 0, 0.25
        try:
            while not self._stop.is_set():
                connection += 1
                endpoint = self.endpoints[(connection - 1) % len(self.endpoints)]
                if self._serve(connection, endpoint):
                    break  # stopped and drained
                time.sleep(backoff)
                backoff = min(backoff * 2, 8.0)
        finally:
            self._pool.shutdown(wait=False, cancel_futures=True)

    def _socket(self, endpoint: str) -> zmq.Socket[bytes]:
        sock: zmq.Socket[bytes] = self._context.socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 1000)
        if self.curve:
            server, secret, public = self.curve
            sock.curve_serverkey, sock.curve_secretkey, sock.curve_publickey = server, secret, public
        sock.connect(endpoint)
        return sock

    def _serve(self, connection: int, endpoint: str) -> bool:
        """One connection, until the coordinator falls silent or says Disconnect (False: connect
        again), or the worker stopped and drained (True)."""
        sock = self._socket(endpoint)
        held: Dict[Tuple[str, int, int], Task] = {}
        interval, liveness = self.heartbeat, 3
        last_received = last_sent = time.monotonic()
        stopping_since: Optional[float] = None

        def send(message: worker_pb2.WorkerMessage) -> None:
            nonlocal last_sent
            sock.send_multipart([SIGNATURE, message.SerializeToString()])
            last_sent = time.monotonic()

        def answer(task: Task, outcome: "page_pb2.PageResult | status_pb2.Status") -> None:
            result = worker_pb2.TaskResult(job_id=task.job_id, page_index=task.page_index, attempt=task.attempt)
            if isinstance(outcome, page_pb2.PageResult):
                result.result.CopyFrom(outcome)
            else:
                result.error.CopyFrom(outcome)
            send(worker_pb2.WorkerMessage(result=result))

        send(worker_pb2.WorkerMessage(ready=worker_pb2.Ready(
            worker_uid=self.worker_uid, slots=self.slots, languages=self.languages, version=VERSION,
            heartbeat_interval_ms=int(self.heartbeat * 1000), hostname=socket.gethostname(), labels=self.labels,
            max_tasks=self.max_tasks, engines=[self.engine_name])))
        poller = zmq.Poller()
        poller.register(sock, zmq.POLLIN)
        try:
            while True:
                now = time.monotonic()
                if self._stop.is_set() and stopping_since is None:
                    stopping_since = now
                if stopping_since is not None and (not held or now - stopping_since > self.drain_seconds):
                    for task in held.values():  # still running past the drain: given back
                        task.cancelled.set()
                        answer(task, status_pb2.Status(code=status_pb2.UNAVAILABLE, message="worker shutting down"))
                    send(worker_pb2.WorkerMessage(disconnect=worker_pb2.Disconnect(reason="worker shutting down")))
                    return True
                if now - last_received > interval * liveness:
                    return self._lose(held)
                for _ in range(64):  # results of the engine threads
                    try:
                        done_on, task, outcome = self._results.get_nowait()
                    except queue.Empty:
                        break
                    key = (task.job_id, task.page_index, task.attempt)
                    if done_on == connection and held.get(key) is task:
                        del held[key]
                        answer(task, outcome)
                if time.monotonic() - last_sent >= interval:
                    send(worker_pb2.WorkerMessage(heartbeat=worker_pb2.Heartbeat(busy=len(held))))
                if not poller.poll(20):
                    continue
                signature, body = sock.recv_multipart()
                last_received = time.monotonic()
                message = worker_pb2.CoordinatorMessage()
                try:
                    if signature != SIGNATURE:
                        raise ValueError("signature")
                    message.ParseFromString(body)
                except Exception:
                    continue  # a sign of life; never stop on peer input
                kind = message.WhichOneof("command")
                if kind == "welcome":
                    interval = min(self.heartbeat, (message.welcome.heartbeat_interval_ms or 1000) / 1000)
                    liveness = message.welcome.liveness or 3
                elif kind == "task":
                    self._take(message.task, held, connection, stopping_since is not None, answer)
                elif kind == "cancel":
                    for key, task in held.items():
                        if key[0] == message.cancel.job_id and key[1] == message.cancel.page_index:
                            task.cancelled.set()
                elif kind == "disconnect":
                    return self._lose(held)
        finally:
            sock.close(linger=1000 if stopping_since is not None else 0)

    def _take(self, wire: worker_pb2.PageTask, held: Dict[Tuple[str, int, int], Task], connection: int, stopping: bool,
              answer: Callable[[Task, "page_pb2.PageResult | status_pb2.Status"], None]) -> None:
        task = Task(wire.job_id, wire.page_index, wire.attempt, wire.file, wire.file_page, wire.content, wire.options,
                    time.monotonic() + wire.remaining_ms / 1000 if wire.remaining_ms else None)
        key = (task.job_id, task.page_index, task.attempt)
        if key in held:
            return  # a duplicate
        if stopping or len(held) >= self.max_tasks:
            answer(task, status_pb2.Status(code=status_pb2.UNAVAILABLE,
                                           message="worker shutting down" if stopping else "worker full"))
            return
        held[key] = task
        self._pool.submit(self._read, connection, task)

    def _read(self, connection: int, task: Task) -> None:
        """On an engine thread: the engine's answer for the task, as the wire's result."""
        outcome: "page_pb2.PageResult | status_pb2.Status"
        try:
            read = self.engine(task)
            if isinstance(read, page_pb2.PageResult):
                outcome = read
            elif isinstance(read, Recognized):
                outcome = page_result(read)
            else:
                outcome = page_result(Recognized(text=str(read)))
            outcome.page_index, outcome.file, outcome.file_page, outcome.attempt = task.page_index, task.file, task.file_page, task.attempt
        except EngineError as error:
            outcome = status_pb2.Status(code=error.code, message=error.message,
                                        file=task.file, page_index=task.page_index)
        except Exception as error:  # the engine's bug: retried elsewhere, up to the job's attempts
            outcome = status_pb2.Status(code=status_pb2.INTERNAL, message=f"{self.engine_name}: {error!r}",
                                        file=task.file, page_index=task.page_index)
        if task.cancelled.is_set():
            outcome = status_pb2.Status(code=status_pb2.CANCELLED, message="cancelled")
        elif task.deadline is not None and time.monotonic() > task.deadline:
            outcome = status_pb2.Status(code=status_pb2.DEADLINE_EXCEEDED, message="the page's deadline passed",
                                        file=task.file, page_index=task.page_index)
        self._results.put((connection, task, outcome))

    def _lose(self, held: Dict[Tuple[str, int, int], Task]) -> bool:
        """The connection ended: its tasks are stopped and their results never sent."""
        for task in held.values():
            task.cancelled.set()
        held.clear()
        return False


def main(argv: Optional[List[str]] = None) -> None:  # pragma: no cover - exercised by the tests as a process
    """`python -m ocr_cluster.worker ENDPOINT --engine echo`: a worker of the built-in `echo`
    engine (answers each page with its file name and page number), for trying the protocol."""
    import argparse
    import signal
    parser = argparse.ArgumentParser(prog="python -m ocr_cluster.worker")
    parser.add_argument("coordinator")
    parser.add_argument("--engine", default="echo")
    parser.add_argument("--slots", type=int, default=1)
    parser.add_argument("--page-seconds", type=float, default=0.0, help="time each page takes")
    args = parser.parse_args(argv)

    def echo(task: Task) -> str:
        deadline = time.monotonic() + args.page_seconds
        while time.monotonic() < deadline and not task.cancelled.is_set():
            time.sleep(0.01)
        return f"{args.engine} read {task.file} page {task.page_index} pid {os.getpid()}"

    worker = Worker(args.coordinator, echo, engine_name=args.engine, slots=args.slots)
    signal.signal(signal.SIGTERM, lambda *_: worker.stop())
    worker.run()


if __name__ == "__main__":  # pragma: no cover
    main()
