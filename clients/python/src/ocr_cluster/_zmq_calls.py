"""What each ZeroMQ call sends and how its answer is read: one place for `ZMQClient` and
`AsyncZMQClient`, which differ only in how they wait (PROTOCOL.md section 1: an RpcHeader frame
and a message frame each way, replies matched by call id)."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Dict, List, Optional, Sequence, Set, Tuple

from google.protobuf.json_format import MessageToDict
from google.protobuf.message import Message

from ._assembly import document_structure
from ._proto import coordinator_pb2, job_pb2, options_pb2, rpc_pb2
from ._requests import InputFile, Options
from . import _requests as calls
from .errors import OCRClusterError
from .models import Cluster, Document, Event, Finished, Job, Page, PageCompleted, PageFailed, Progress, Worker

SERVICE = "/ocr.v1.Coordinator/"

#: How long a WatchJob stream may be silent: the coordinator sends a keepalive every 5 s.
WATCH_SILENCE_S = 20.0

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


def submit_request(files: Sequence[InputFile], options: Optional[Options], option_arguments: Dict[str, object],
                   job_key: Optional[str] = None, priority: int = 0, timeout_ms: Optional[int] = None,
                   max_attempts: Optional[int] = None, callback_url: Optional[str] = None) -> coordinator_pb2.SubmitJobRequest:
    """SubmitJob's request (reads the files: blocking)."""
    return coordinator_pb2.SubmitJobRequest(
        files=[job_pb2.InputFile(name=name, content=content) for name, content in calls.read_inputs(files)],
        options=recognition_options(options, calls.option_query(option_arguments)), job_key=job_key or "",
        priority=priority, timeout_ms=timeout_ms or 0, max_attempts=max_attempts or 0, callback_url=callback_url or "")


def list_request(limit: int, states: Sequence[str], page_token: str) -> coordinator_pb2.ListJobsRequest:
    return coordinator_pb2.ListJobsRequest(limit=limit, page_token=page_token, states=["JOB_STATE_" + s.upper() for s in states])


def request_frames(method: str, request: Message, call_id: int, timeout: float) -> List[bytes]:
    header = rpc_pb2.RpcHeader(call_id=call_id, method=SERVICE + method, kind=rpc_pb2.RpcHeader.REQUEST,
                               timeout_ms=int(timeout * 1000))
    return [header.SerializeToString(), request.SerializeToString()]


def reply(frames: Sequence[bytes]) -> Tuple[rpc_pb2.RpcHeader, bytes]:
    """A reply's header and message; an error status raises."""
    header = rpc_pb2.RpcHeader()
    header.ParseFromString(frames[0])
    if header.HasField("status") and header.status.code != 0:
        raise error(header.status)
    return header, frames[1] if len(frames) > 1 else b""


def call_id_of(frames: Sequence[bytes]) -> int:
    header = rpc_pb2.RpcHeader()
    header.ParseFromString(frames[0])
    return header.call_id


def error(status: Message) -> OCRClusterError:
    return OCRClusterError.from_status(MessageToDict(status))


def unavailable(endpoints: Sequence[str], what: str) -> OCRClusterError:
    return OCRClusterError("UNAVAILABLE", f"{what} at {','.join(endpoints)}")


def _time(unix_ms: int) -> str:
    """RFC 3339, as the HTTP API writes times."""
    return datetime.fromtimestamp(unix_ms / 1000, tz=timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def as_job(job: job_pb2.Job) -> Job:
    return Job(job.job_id, job_pb2.JobState.Name(job.state).removeprefix("JOB_STATE_"), job.page_count, job.pages_done,
               job.pages_failed, list(job.files), job.job_key, job.priority, _time(job.created_unix_ms),
               _time(job.finished_unix_ms) if job.finished_unix_ms else None,
               error(job.status) if job.HasField("status") and job.status.code != 0 else None,
               [job_pb2.PageState.Name(s).removeprefix("PAGE_STATE_") for s in job.page_states])


def as_cluster(status: coordinator_pb2.ClusterStatusResponse) -> Cluster:
    workers = [Worker(f"{w.uid:016x}", w.hostname, w.slots, min(w.busy, w.slots), list(w.languages), w.version, w.pages_done,
                      dict(w.labels), list(w.engines)) for w in status.workers]
    return Cluster(workers, status.total_slots, status.busy_slots, status.queue_depth, status.active_jobs, status.pages_done,
                   MessageToDict(status))


def _page(result: Message, index: int) -> Page:
    return Page.from_json({"pageIndex": index, "state": "OK", "result": MessageToDict(result)})


@dataclass
class Watch:
    """One job's event stream across re-attachments: which pages were passed on, the page to
    re-attach from (`WatchJob(from_page)` replays every page at or past it), and whether it
    finished."""
    lowest: int = 0
    seen: Set[int] = field(default_factory=set)
    finished: bool = False

    def request(self, job_id: str) -> coordinator_pb2.WatchJobRequest:
        return coordinator_pb2.WatchJobRequest(job_id=job_id, from_page=self.lowest)

    def feed(self, header: rpc_pb2.RpcHeader, payload: bytes, job_id: str) -> Optional[Event]:
        """The event a stream message carries, None for one already passed on."""
        if header.kind == rpc_pb2.RpcHeader.STREAM_END:
            raise OCRClusterError("UNAVAILABLE", f"the event stream of {job_id} ended without JobFinished")
        event = job_pb2.JobEvent()
        event.ParseFromString(payload)
        kind = event.WhichOneof("event")
        out: Optional[Event] = None
        if kind == "page_completed":
            index = event.page_completed.result.page_index
            if index not in self.seen:
                self.seen.add(index)
                out = PageCompleted(_page(event.page_completed.result, index))
        elif kind == "page_failed":
            index = event.page_failed.page_index
            if index not in self.seen:
                self.seen.add(index)
                out = PageFailed(index, error(event.page_failed.status))
        elif kind == "progress":
            out = Progress(event.progress.pages_done, event.progress.pages_failed, event.progress.page_count)
        elif kind == "finished":
            status = event.finished.status
            self.finished = True
            out = Finished(job_pb2.JobState.Name(event.finished.state).removeprefix("JOB_STATE_"),
                           error(status) if status.code != 0 else None)
        while self.lowest in self.seen:
            self.lowest += 1
        return out


class Merge:
    """A document merged from a job's events (every page done is replayed by WatchJob). With
    `enough`, it has what it waits for once that many pages are in (the pages done when it was
    asked: `document(wait=False)`); without, at the job's end."""

    def __init__(self, job: Job, wait: bool) -> None:
        self.pages: Dict[int, Page] = {}
        self.page_count = job.page_count
        self.enough = None if wait else job.pages_done + job.pages_failed

    @property
    def complete(self) -> bool:
        return self.enough is not None and len(self.pages) >= self.enough

    def feed(self, event: Event) -> bool:
        """Takes in `event`; True when the document has what it waits for."""
        if isinstance(event, PageCompleted):
            self.pages[event.page.page_index] = event.page
        elif isinstance(event, PageFailed):
            self.pages[event.page_index] = Page(event.page_index, "FAILED", error=event.error)
        return isinstance(event, Finished) or self.complete

    def document(self) -> Document:
        """Every page in order, with the structure the job's pages show together (`_assembly`);
        those not in (failed, or not done yet) are the gaps."""
        results = {i: p.raw["result"] for i, p in self.pages.items() if p.state == "OK" and isinstance(p.raw.get("result"), dict)}
        structure = document_structure(results)
        ordered: List[Page] = []
        for i in range(self.page_count):
            page = self.pages.get(i, Page(i, "MISSING"))
            if i in structure:
                page = replace(page, structure=structure[i][0], detected_data=structure[i][1])
            ordered.append(page)
        return Document(ordered, [p.page_index for p in ordered if p.state != "OK"], [], {})


def text(document: Document, page: Optional[int]) -> bytes:
    """`format=txt` of the document, or of its page `page` (1-based, as the HTTP API's)."""
    return "\f".join(p.text for p in document.pages if page is None or p.page_index == page - 1).encode()


def unrendered(format: str) -> OCRClusterError:
    return OCRClusterError("UNIMPLEMENTED", f"format {format} is rendered by the HTTP API (Client.fetch); over ZeroMQ: txt and document()")
