"""`ZMQClient`: the same calls as `Client`, over the coordinator's own protocol (ZeroMQ, the
gRPC-style client link of PROTOCOL.md section 1), with CURVE when the coordinator uses it.

    with ZMQClient("tcp://coordinator:5555", curve=(server_key, secret_key, public_key)) as client:
        print(client.recognize(["scan.tiff"], languages="eng").text)

The document comes as typed pages (`document()`), merged from the job's page results; rendered
formats (pdf, hocr, ...) are the HTTP API's (`Client.fetch`). Several endpoints separated by
commas reach coordinators that share a journal: calls go to the leader (PROTOCOL.md 2a).
`AsyncZMQClient` (in `ocr_cluster.zmq_aio`) makes the same calls for asyncio.
"""
from __future__ import annotations

import itertools
import threading
import time
from typing import Any, Iterable, Iterator, List, Optional, Sequence, Tuple, TypeVar

import zmq
from google.protobuf.message import Message

from . import _requests as calls
from . import _zmq_calls as wire
from ._proto import coordinator_pb2, job_pb2, rpc_pb2
from ._requests import InputFile, Options
from .errors import OCRClusterError
from .models import Cluster, Document, Event, Job, JobList

M = TypeVar("M", bound=Message)

#: `(server_public_key, secret_key, public_key)`, Z85.
Curve = Tuple[bytes, bytes, bytes]


def endpoint_list(endpoint: str) -> List[str]:
    return [e.strip() for e in endpoint.split(",") if e.strip()]


def configure(sock: "zmq.Socket[Any]", endpoints: Sequence[str], curve: Optional[Curve]) -> None:
    """A client DEALER as PROTOCOL.md section 1 and 2a ask: CURVE when given; with several
    coordinators, sending only to the one that binds (the leader) and dropping a silent one."""
    sock.setsockopt(zmq.LINGER, 0)
    if curve:
        sock.curve_serverkey, sock.curve_secretkey, sock.curve_publickey = curve
    if len(endpoints) > 1:
        sock.setsockopt(zmq.IMMEDIATE, 1)
        sock.setsockopt(zmq.HEARTBEAT_IVL, 1000)
        sock.setsockopt(zmq.HEARTBEAT_TIMEOUT, 3000)
    for endpoint in endpoints:
        sock.connect(endpoint)


class ZMQClient:
    """A client of one coordinator's client endpoint (`tcp://host:5555`, or several separated by
    commas). `curve`: `(server_public_key, secret_key, public_key)` as Z85 bytes (a fresh key
    pair when only the server's key is known: `zmq.curve_keypair()`)."""

    def __init__(self, endpoint: str, *, curve: Optional[Curve] = None, timeout: float = 60.0,
                 reattach_attempts: int = 12) -> None:
        self.endpoints = endpoint_list(endpoint)
        self.curve = curve
        self.timeout = timeout
        self.reattach_attempts = reattach_attempts
        self._context: zmq.Context[zmq.Socket[bytes]] = zmq.Context.instance()
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._socket = self._connect()

    def __enter__(self) -> "ZMQClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._socket.close(linger=0)

    def _connect(self) -> zmq.Socket[bytes]:
        sock: zmq.Socket[bytes] = self._context.socket(zmq.DEALER)
        configure(sock, self.endpoints, self.curve)
        return sock

    def _request(self, sock: zmq.Socket[bytes], method: str, request: Message, call_id: int, timeout: float) -> None:
        if not sock.poll(int(timeout * 1000), zmq.POLLOUT):
            raise wire.unavailable(self.endpoints, f"no coordinator to send {method} to")
        sock.send_multipart(wire.request_frames(method, request, call_id, timeout))

    def _receive(self, sock: zmq.Socket[bytes], call_id: int, timeout: float, method: str) -> Tuple[rpc_pb2.RpcHeader, bytes]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not sock.poll(int(left * 1000) + 1, zmq.POLLIN):
                raise wire.unavailable(self.endpoints, f"no answer from the coordinator ({method})")
            frames = sock.recv_multipart()
            if wire.call_id_of(frames) == call_id:  # not an answer to an earlier call that timed out
                return wire.reply(frames)

    def _call(self, method: str, request: Message, response: M, timeout: Optional[float] = None) -> M:
        with self._lock:
            call_id = next(self._ids)
            self._request(self._socket, method, request, call_id, timeout or self.timeout)
            _, payload = self._receive(self._socket, call_id, timeout or self.timeout, method)
        response.ParseFromString(payload)
        return response

    # The same calls as Client

    def _submit(self, request: coordinator_pb2.SubmitJobRequest) -> str:
        return self._call("SubmitJob", request, coordinator_pb2.SubmitJobResponse()).job_id

    def submit(self, files: Sequence[InputFile], options: Optional[Options] = None, *, job_key: Optional[str] = None,
               priority: int = 0, timeout_ms: Optional[int] = None, max_attempts: Optional[int] = None,
               callback_url: Optional[str] = None, **option_arguments: object) -> Job:
        return self.job(self._submit(wire.submit_request(files, options, option_arguments, job_key, priority, timeout_ms,
                                                         max_attempts, callback_url)))

    def job(self, job_id: str, *, page_states: bool = False) -> Job:
        return wire.as_job(self._call("GetJob", coordinator_pb2.GetJobRequest(job_id=job_id, include_page_states=page_states),
                                      job_pb2.Job()))

    def jobs(self, *, limit: int = 100, states: Iterable[str] = (), page_token: str = "") -> JobList:
        response = self._call("ListJobs", wire.list_request(limit, list(states), page_token), coordinator_pb2.ListJobsResponse())
        return JobList([wire.as_job(j) for j in response.jobs], response.next_page_token)

    def all_jobs(self, *, states: Iterable[str] = (), page_size: int = 100) -> Iterator[Job]:
        chosen = list(states)  # read once, used for every page
        return calls.every_job(lambda token: self.jobs(limit=page_size, states=chosen, page_token=token))

    def cancel(self, job_id: str) -> Job:
        return wire.as_job(self._call("CancelJob", coordinator_pb2.CancelJobRequest(job_id=job_id), job_pb2.Job()))

    def delete(self, job_id: str) -> None:
        self._call("DeleteJob", coordinator_pb2.DeleteJobRequest(job_id=job_id), coordinator_pb2.DeleteJobResponse())

    def cluster(self) -> Cluster:
        return wire.as_cluster(self._call("ClusterStatus", coordinator_pb2.ClusterStatusRequest(),
                                          coordinator_pb2.ClusterStatusResponse()))

    def events(self, job_id: str, *, from_page: int = 0) -> Iterator[Event]:
        """The job's events until `Finished`; `PageCompleted` pages carry the whole result. A lost
        stream re-attaches from the lowest page not yet seen (`WatchJob(from_page)`)."""
        watch = wire.Watch(lowest=from_page)
        failures = 0
        while True:
            sock = self._connect()  # a stream of its own: its messages never meet the calls'
            try:
                call_id = next(self._ids)
                self._request(sock, "WatchJob", watch.request(job_id), call_id, wire.WATCH_SILENCE_S)
                while not watch.finished:
                    header, payload = self._receive(sock, call_id, wire.WATCH_SILENCE_S, "WatchJob")
                    event = watch.feed(header, payload, job_id)
                    if event is not None:
                        failures = 0
                        yield event
                return
            except OCRClusterError as error:
                if error.code != "UNAVAILABLE" or failures >= self.reattach_attempts:
                    raise
            finally:
                sock.close(linger=0)
            time.sleep(calls.retry_delay(failures))
            failures += 1

    def wait(self, job_id: str) -> Job:
        for _ in self.events(job_id):
            pass
        return self.job(job_id)

    def document(self, job_id: str, *, wait: bool = True) -> Document:
        """The document, merged here from the job's page results (replayed by WatchJob), when the
        job finishes; with `wait=False`, of the pages done now (the others are gaps)."""
        merge = wire.Merge(self.job(job_id), wait)
        if not merge.complete:
            for event in self.events(job_id):
                if merge.feed(event):
                    break
        return merge.document()

    def fetch(self, job_id: str, format: str = "txt", *, page: Optional[int] = None) -> bytes:
        if format != "txt":
            raise wire.unrendered(format)
        return wire.text(self.document(job_id), page)

    def recognize(self, files: Sequence[InputFile], options: Optional[Options] = None, **option_arguments: object) -> Document:
        return self.document(self._submit(wire.submit_request(files, options, option_arguments)))
