"""`ZMQClient`: the same calls as `Client`, over the coordinator's own protocol (ZeroMQ, the
gRPC-style client link of PROTOCOL.md section 1), with CURVE when the coordinator uses it.

    with ZMQClient("tcp://coordinator:5555", curve=(server_key, secret_key, public_key)) as client:
        print(client.recognize(["scan.tiff"], languages="eng").text)

The document comes as typed pages (`document()`), merged from the job's page results; rendered
formats (pdf, hocr, ...) are the HTTP API's (`Client.fetch`). Several endpoints separated by
commas reach coordinators that share a journal: calls go to the leader (PROTOCOL.md 2a).
"""
from __future__ import annotations

import itertools
import threading
import time
from datetime import datetime, timezone
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, TypeVar

import zmq
from google.protobuf.json_format import MessageToDict
from google.protobuf.message import Message

from . import _requests as calls
from ._proto import coordinator_pb2, job_pb2, options_pb2, rpc_pb2
from ._requests import InputFile, Options
from .errors import OCRClusterError
from .models import (Cluster, Document, Event, Finished, Job, JobList, Page, PageCompleted, PageFailed, Progress, Worker)

M = TypeVar("M", bound=Message)
SERVICE = "/ocr.v1.Coordinator/"

#: The API's option values of enum fields, as the HTTP API spells them (SubmitForm.swift).
_ENUMS: Dict[str, Dict[str, int]] = {
    "level": {"accurate": options_pb2.RECOGNITION_LEVEL_ACCURATE, "fast": options_pb2.RECOGNITION_LEVEL_FAST,
              "best": options_pb2.RECOGNITION_LEVEL_BEST},
    "binarization": {"otsu": options_pb2.BINARIZATION_OTSU, "sauvola": options_pb2.BINARIZATION_SAUVOLA,
                     "none": options_pb2.BINARIZATION_DISABLED, "disabled": options_pb2.BINARIZATION_DISABLED},
    "pdf_text_layer": {"report": options_pb2.PDF_TEXT_LAYER_REPORT, "skip": options_pb2.PDF_TEXT_LAYER_SKIP,
                       "force_ocr": options_pb2.PDF_TEXT_LAYER_FORCE_OCR, "redo_ocr": options_pb2.PDF_TEXT_LAYER_REDO_OCR},
    "engine_mode": {"lstm": options_pb2.ENGINE_MODE_UNSPECIFIED, "legacy": options_pb2.ENGINE_MODE_LEGACY,
                    "combined": options_pb2.ENGINE_MODE_COMBINED},
    "page_detection": {"auto": options_pb2.PAGE_DETECTION_AUTO, "off": options_pb2.PAGE_DETECTION_OFF},
}


def recognition_options(options: Optional[Options], extra: Dict[str, str]) -> options_pb2.RecognitionOptions:
    """The wire's options from the API's names and values (as the HTTP API reads them)."""
    wire = options_pb2.RecognitionOptions()
    for name, value in {**(options.query() if options else {}), **extra}.items():
        try:
            if name in _ENUMS:
                setattr(wire, name, _ENUMS[name][value.lower()])
            elif name == "psm":
                # PSM_OSD_ONLY (1) is Tesseract's psm 0.
                options_pb2.PageSegmentationMode.Name(int(value) + 1)  # ValueError past psm 13
                setattr(wire, "page_segmentation_mode", int(value) + 1)
            elif name == "pages":
                for part in value.split(","):
                    first, _, last = part.partition("-")
                    wire.page_ranges.add(first=int(first), last=int(last) if last else (int(first) if "-" not in part else 0))
            elif name == "custom_words":
                wire.custom_words.extend(w for w in value.split(",") if w)
            else:
                field = wire.DESCRIPTOR.fields_by_name[name]
                if field.type == field.TYPE_BOOL:
                    setattr(wire, name, value in ("true", "1", "yes"))
                elif field.type in (field.TYPE_FLOAT, field.TYPE_DOUBLE):
                    setattr(wire, name, float(value))
                elif field.type == field.TYPE_STRING:
                    setattr(wire, name, value)
                else:
                    setattr(wire, name, int(value))
        except (KeyError, ValueError) as error:
            raise OCRClusterError("INVALID_ARGUMENT", f"option {name}={value!r} is not valid ({error})", details={"field": name}) from error
    return wire


def _status(status: Message) -> OCRClusterError:
    return OCRClusterError.from_status(MessageToDict(status))


def _time(unix_ms: int) -> str:
    """RFC 3339, as the HTTP API writes times."""
    return datetime.fromtimestamp(unix_ms / 1000, tz=timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _job(job: job_pb2.Job) -> Job:
    return Job(job.job_id, job_pb2.JobState.Name(job.state).removeprefix("JOB_STATE_"), job.page_count, job.pages_done,
               job.pages_failed, list(job.files), job.job_key, job.priority, _time(job.created_unix_ms),
               _time(job.finished_unix_ms) if job.finished_unix_ms else None,
               _status(job.status) if job.HasField("status") and job.status.code != 0 else None,
               [job_pb2.PageState.Name(s).removeprefix("PAGE_STATE_") for s in job.page_states])


def _page(result: Message, index: int) -> Page:
    return Page.from_json({"pageIndex": index, "state": "OK", "result": MessageToDict(result)})


class ZMQClient:
    """A client of one coordinator's client endpoint (`tcp://host:5555`, or several separated by
    commas). `curve`: `(server_public_key, secret_key, public_key)` as Z85 bytes (a fresh key
    pair when only the server's key is known: `zmq.curve_keypair()`)."""

    def __init__(self, endpoint: str, *, curve: Optional[Tuple[bytes, bytes, bytes]] = None, timeout: float = 60.0,
                 reattach_attempts: int = 12) -> None:
        self.endpoints = [e.strip() for e in endpoint.split(",") if e.strip()]
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
        sock.setsockopt(zmq.LINGER, 0)
        if self.curve:
            sock.curve_serverkey, sock.curve_secretkey, sock.curve_publickey = self.curve
        if len(self.endpoints) > 1:  # send only to the leader (standbys do not bind); drop a silent one
            sock.setsockopt(zmq.IMMEDIATE, 1)
            sock.setsockopt(zmq.HEARTBEAT_IVL, 1000)
            sock.setsockopt(zmq.HEARTBEAT_TIMEOUT, 3000)
        for endpoint in self.endpoints:
            sock.connect(endpoint)
        return sock

    def _request(self, sock: zmq.Socket[bytes], method: str, request: Message, call_id: int, timeout: float) -> None:
        header = rpc_pb2.RpcHeader(call_id=call_id, method=SERVICE + method, kind=rpc_pb2.RpcHeader.REQUEST,
                                   timeout_ms=int(timeout * 1000))
        if not sock.poll(int(timeout * 1000), zmq.POLLOUT):
            raise OCRClusterError("UNAVAILABLE", f"no coordinator to send {method} to at {','.join(self.endpoints)}")
        sock.send_multipart([header.SerializeToString(), request.SerializeToString()])

    def _receive(self, sock: zmq.Socket[bytes], call_id: int, timeout: float, method: str) -> Tuple[rpc_pb2.RpcHeader, bytes]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not sock.poll(int(left * 1000) + 1, zmq.POLLIN):
                raise OCRClusterError("UNAVAILABLE", f"no answer from the coordinator at {','.join(self.endpoints)} ({method})")
            frames = sock.recv_multipart()
            header = rpc_pb2.RpcHeader()
            header.ParseFromString(frames[0])
            if header.call_id == call_id:
                if header.HasField("status") and header.status.code != 0:
                    raise _status(header.status)
                return header, frames[1] if len(frames) > 1 else b""

    def _call(self, method: str, request: Message, response: M, timeout: Optional[float] = None) -> M:
        with self._lock:
            call_id = next(self._ids)
            self._request(self._socket, method, request, call_id, timeout or self.timeout)
            _, payload = self._receive(self._socket, call_id, timeout or self.timeout, method)
        response.ParseFromString(payload)
        return response

    # The same calls as Client

    def _submit_request(self, files: Sequence[InputFile], options: Optional[Options], option_arguments: Dict[str, object],
                        job_key: Optional[str] = None, priority: int = 0, timeout_ms: Optional[int] = None,
                        max_attempts: Optional[int] = None, callback_url: Optional[str] = None) -> str:
        """SubmitJob; the job's id."""
        request = coordinator_pb2.SubmitJobRequest(
            files=[job_pb2.InputFile(name=name, content=content) for name, content in calls.read_inputs(files)],
            options=recognition_options(options, calls.option_query(option_arguments)), job_key=job_key or "",
            priority=priority, timeout_ms=timeout_ms or 0, max_attempts=max_attempts or 0, callback_url=callback_url or "")
        return self._call("SubmitJob", request, coordinator_pb2.SubmitJobResponse()).job_id

    def submit(self, files: Sequence[InputFile], options: Optional[Options] = None, *, job_key: Optional[str] = None,
               priority: int = 0, timeout_ms: Optional[int] = None, max_attempts: Optional[int] = None,
               callback_url: Optional[str] = None, **option_arguments: object) -> Job:
        return self.job(self._submit_request(files, options, option_arguments, job_key, priority, timeout_ms, max_attempts, callback_url))

    def job(self, job_id: str, *, page_states: bool = False) -> Job:
        return _job(self._call("GetJob", coordinator_pb2.GetJobRequest(job_id=job_id, include_page_states=page_states), job_pb2.Job()))

    def jobs(self, *, limit: int = 100, states: Iterable[str] = (), page_token: str = "") -> JobList:
        request = coordinator_pb2.ListJobsRequest(limit=limit, page_token=page_token,
                                                  states=["JOB_STATE_" + s.upper() for s in states])
        response = self._call("ListJobs", request, coordinator_pb2.ListJobsResponse())
        return JobList([_job(j) for j in response.jobs], response.next_page_token)

    def all_jobs(self, *, states: Iterable[str] = (), page_size: int = 100) -> Iterator[Job]:
        token = ""
        while True:
            page = self.jobs(limit=page_size, states=states, page_token=token)
            yield from page.jobs
            if not page.next_page_token:
                return
            token = page.next_page_token

    def cancel(self, job_id: str) -> Job:
        return _job(self._call("CancelJob", coordinator_pb2.CancelJobRequest(job_id=job_id), job_pb2.Job()))

    def delete(self, job_id: str) -> None:
        self._call("DeleteJob", coordinator_pb2.DeleteJobRequest(job_id=job_id), coordinator_pb2.DeleteJobResponse())

    def cluster(self) -> Cluster:
        status = self._call("ClusterStatus", coordinator_pb2.ClusterStatusRequest(), coordinator_pb2.ClusterStatusResponse())
        workers = [Worker(f"{w.uid:016x}", w.hostname, w.slots, min(w.busy, w.slots), list(w.languages), w.version, w.pages_done,
                          dict(w.labels), list(w.engines)) for w in status.workers]
        return Cluster(workers, status.total_slots, status.busy_slots, status.queue_depth, status.active_jobs, status.pages_done,
                       MessageToDict(status))

    def events(self, job_id: str, *, from_page: int = 0) -> Iterator[Event]:
        """The job's events until `Finished`; `PageCompleted` pages carry the whole result. A lost
        stream re-attaches from the lowest page not yet seen (`WatchJob(from_page)`)."""
        seen: set[int] = set()
        lowest, failures = from_page, 0
        while True:
            sock = self._connect()
            try:
                call_id = next(self._ids)
                self._request(sock, "WatchJob", coordinator_pb2.WatchJobRequest(job_id=job_id, from_page=lowest), call_id, 20.0)
                while True:
                    header, payload = self._receive(sock, call_id, 20.0, "WatchJob")  # keepalives come every 5 s
                    if header.kind == rpc_pb2.RpcHeader.STREAM_END:
                        raise OCRClusterError("UNAVAILABLE", f"the event stream of {job_id} ended without JobFinished")
                    event = job_pb2.JobEvent()
                    event.ParseFromString(payload)
                    kind = event.WhichOneof("event")
                    if kind == "page_completed":
                        index = event.page_completed.result.page_index
                        if index not in seen:
                            seen.add(index)
                            failures = 0
                            yield PageCompleted(_page(event.page_completed.result, index))
                    elif kind == "page_failed":
                        if event.page_failed.page_index not in seen:
                            seen.add(event.page_failed.page_index)
                            yield PageFailed(event.page_failed.page_index, _status(event.page_failed.status))
                    elif kind == "progress":
                        yield Progress(event.progress.pages_done, event.progress.pages_failed, event.progress.page_count)
                    elif kind == "finished":
                        status = event.finished.status
                        yield Finished(job_pb2.JobState.Name(event.finished.state).removeprefix("JOB_STATE_"),
                                       _status(status) if status.code != 0 else None)
                        return
                    while lowest in seen:
                        lowest += 1
            except OCRClusterError as error:
                if error.code != "UNAVAILABLE" or failures >= self.reattach_attempts:
                    raise
            finally:
                sock.close(linger=0)
            time.sleep(min(5.0, 0.25 * 2 ** failures))
            failures += 1

    def wait(self, job_id: str) -> Job:
        for _ in self.events(job_id):
            pass
        return self.job(job_id)

    def document(self, job_id: str, *, wait: bool = True) -> Document:
        """The document, merged here from the job's page results (all replayed by WatchJob)."""
        pages: Dict[int, Page] = {}
        for event in self.events(job_id):
            if isinstance(event, PageCompleted):
                pages[event.page.page_index] = event.page
            elif isinstance(event, PageFailed):
                pages[event.page_index] = Page(event.page_index, "FAILED", error=event.error)
        count = self.job(job_id).page_count
        ordered: List[Page] = [pages.get(i, Page(i, "MISSING")) for i in range(count)]
        return Document(ordered, [p.page_index for p in ordered if p.state != "OK"], [], {})

    def fetch(self, job_id: str, format: str = "txt", *, page: Optional[int] = None) -> bytes:
        if format == "txt":
            document = self.document(job_id)
            chosen = [p for p in document.pages if page is None or p.page_index == page - 1]
            return "\f".join(p.text for p in chosen).encode()
        raise OCRClusterError("UNIMPLEMENTED", f"format {format} is rendered by the HTTP API (Client.fetch); over ZeroMQ: txt and document()")

    def recognize(self, files: Sequence[InputFile], options: Optional[Options] = None, **option_arguments: object) -> Document:
        return self.document(self._submit_request(files, options, option_arguments))
