"""What each call sends and how its answer is read: one place for `Client` and `AsyncClient`,
which differ only in how they wait (httpx's sync and async clients take the same arguments)."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, fields
from typing import Any, AsyncIterator, Awaitable, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

import httpx

from .errors import OCRClusterError
from .geometry import JSON
from .models import Cluster, Document, Event, Job, JobList, event_from_sse

#: A file to submit: a path, or a name and its bytes.
InputFile = Union[str, "os.PathLike[str]", Tuple[str, bytes]]


def every_job(page: Callable[[str], JobList]) -> Iterator[Job]:
    """The jobs of every page of a listing, `page(token)` giving each (the first for "")."""
    token = ""
    while True:
        listed = page(token)
        yield from listed.jobs
        if not listed.next_page_token:
            return
        token = listed.next_page_token


async def every_job_async(page: Callable[[str], Awaitable[JobList]]) -> AsyncIterator[Job]:
    """`every_job` for asyncio."""
    token = ""
    while True:
        listed = await page(token)
        for job in listed.jobs:
            yield job
        if not listed.next_page_token:
            return
        token = listed.next_page_token


def retry_delay(failures: int) -> float:
    """The wait before re-attaching after `failures` failed attempts in a row."""
    return min(5.0, 0.25 * 2.0 ** failures)


@dataclass(frozen=True)
class Options:
    """Recognition options (the API's `Options`; None: the coordinator's default)."""
    languages: Optional[str] = None
    engine: Optional[str] = None
    level: Optional[str] = None
    language_correction: Optional[bool] = None
    psm: Optional[int] = None
    dpi: Optional[int] = None
    candidates: Optional[int] = None
    minimum_confidence: Optional[float] = None
    character_whitelist: Optional[str] = None
    minimum_text_height: Optional[int] = None
    detect_only: Optional[bool] = None
    report_character_boxes: Optional[bool] = None
    deskew: Optional[bool] = None
    auto_rotate: Optional[bool] = None
    binarization: Optional[str] = None
    page_timeout_ms: Optional[int] = None
    pages: Optional[str] = None
    custom_words: Optional[List[str]] = None
    pdf_text_layer: Optional[str] = None
    include_pdf_page: Optional[bool] = None
    engine_mode: Optional[str] = None
    page_detection: Optional[str] = None

    def query(self) -> Dict[str, str]:
        out: Dict[str, str] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None:
                continue
            if isinstance(value, bool):
                out[f.name] = "true" if value else "false"
            elif isinstance(value, list):
                out[f.name] = ",".join(value)
            else:
                out[f.name] = str(value)
        return out


@dataclass
class Request:
    """One HTTP request, as both clients send it."""
    method: str
    path: str
    params: Dict[str, str] = field(default_factory=dict)
    headers: Dict[str, str] = field(default_factory=dict)
    content: Optional[bytes] = None
    files: Optional[List[Tuple[str, Tuple[str, bytes, str]]]] = None

    def arguments(self) -> Dict[str, Any]:
        arguments: Dict[str, Any] = {"params": self.params, "headers": self.headers}
        if self.content is not None:
            arguments["content"] = self.content
        if self.files is not None:
            arguments["files"] = self.files
        return arguments


def read_inputs(inputs: Sequence[InputFile]) -> List[Tuple[str, bytes]]:
    if not inputs:
        raise OCRClusterError("INVALID_ARGUMENT", "no files to submit")
    files: List[Tuple[str, bytes]] = []
    for item in inputs:
        if isinstance(item, tuple):
            files.append((item[0], item[1]))
        else:
            path = os.fspath(item)
            try:
                with open(path, "rb") as f:
                    files.append((os.path.basename(path), f.read()))
            except OSError as error:
                raise OCRClusterError("INVALID_ARGUMENT", f"cannot read {path}: {error.strerror}", file=path) from error
    return files


def option_query(arguments: Mapping[str, object]) -> Dict[str, str]:
    """Options given as keyword arguments, as query arguments (booleans as true/false)."""
    return {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in arguments.items()}


def submit(inputs: Sequence[InputFile], options: Optional[Options], extra: Mapping[str, str],
           job_key: Optional[str], priority: int, timeout_ms: Optional[int], max_attempts: Optional[int],
           callback_url: Optional[str]) -> Request:
    """One file goes as the body (`?filename=`); several as multipart parts. Options travel as
    query arguments."""
    files = read_inputs(inputs)
    params = {**(options.query() if options else {}), **extra}
    for name, value in (("job_key", job_key), ("timeout_ms", timeout_ms), ("max_attempts", max_attempts),
                        ("callback_url", callback_url)):
        if value is not None:
            params[name] = str(value)
    if priority:
        params["priority"] = str(priority)
    if len(files) == 1:
        params["filename"] = files[0][0]
        return Request("POST", "/v1/jobs", params, {"Content-Type": "application/octet-stream"}, content=files[0][1])
    return Request("POST", "/v1/jobs", params,
                   files=[("file", (name, content, "application/octet-stream")) for name, content in files])


def job(job_id: str, page_states: bool) -> Request:
    return Request("GET", f"/v1/jobs/{job_id}", {"pages": "true"} if page_states else {})


def jobs(limit: int, states: Iterable[str], page_token: str) -> Request:
    params = {"limit": str(limit)}
    if states:
        params["state"] = ",".join(states)
    if page_token:
        params["page_token"] = page_token
    return Request("GET", "/v1/jobs", params)


def cancel(job_id: str) -> Request:
    return Request("POST", f"/v1/jobs/{job_id}/cancel")


def delete(job_id: str) -> Request:
    return Request("DELETE", f"/v1/jobs/{job_id}")


def document(job_id: str, format: str, page: Optional[int]) -> Request:
    params = {"format": format}
    if page is not None:
        params["page"] = str(page)
    return Request("GET", f"/v1/jobs/{job_id}/document", params)


def cluster() -> Request:
    return Request("GET", "/v1/cluster")


#: An event stream's timeouts: the coordinator sends a comment every 15 s, so a stream silent for
#: three of them is a connection that died without closing (it is then resumed).
EVENT_STREAM_TIMEOUT = httpx.Timeout(45.0, connect=10.0)


def events(job_id: str, last_event_id: Optional[str], from_page: int) -> Request:
    headers = {"Accept": "text/event-stream"}
    if last_event_id is not None:
        headers["Last-Event-ID"] = last_event_id
    return Request("GET", f"/v1/jobs/{job_id}/events", {"from_page": str(from_page)} if from_page and last_event_id is None else {},
                   headers)


# MARK: Answers

def check(response: httpx.Response) -> httpx.Response:
    """The response when it is a success; else the coordinator's `Status` as an error."""
    if response.status_code < 400:
        return response
    try:
        status = response.json()
    except ValueError:
        status = None
    if isinstance(status, dict) and "code" in status:
        raise OCRClusterError.from_status(status, http_status=response.status_code)
    raise OCRClusterError("UNKNOWN", f"HTTP {response.status_code}: {response.text[:200]}", http_status=response.status_code)


def unavailable(error: httpx.HTTPError, base_url: str) -> OCRClusterError:
    return OCRClusterError("UNAVAILABLE", f"cannot reach the coordinator at {base_url}: {error}")


def as_job(response: httpx.Response) -> Job:
    return Job.from_json(response.json())


def as_jobs(response: httpx.Response) -> JobList:
    data = response.json()
    return JobList([Job.from_json(j) for j in data.get("jobs") or []], str(data.get("nextPageToken", "")))


def as_document(response: httpx.Response) -> Document:
    return Document.from_json(response.json())


def as_cluster(response: httpx.Response) -> Cluster:
    return Cluster.from_json(response.json())


class EventStream:
    """Reads Server-Sent Events line by line into typed events, and remembers where to resume
    (`last_id`: the lowest page not yet delivered) and which pages were delivered (a page may
    come twice after a resume)."""

    def __init__(self) -> None:
        self.last_id: Optional[str] = None
        self.seen_pages: set[int] = set()
        self.finished = False
        self._event = ""
        self._data: List[str] = []

    def feed(self, line: str) -> Optional[Event]:
        """One line of the stream; the event it completes, if any."""
        if line.startswith(":"):
            return None  # a keepalive comment
        if line:
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "event":
                self._event = value
            elif name == "data":
                self._data.append(value)
            elif name == "id":
                self.last_id = value
            return None
        name, data = self._event, "\n".join(self._data)
        self._event, self._data = "", []
        if not name and not data:
            return None
        payload: JSON = json.loads(data) if data else {}
        if name == "error":
            raise OCRClusterError.from_status(payload)
        event = event_from_sse(name, payload)
        if event is None:
            return None
        index = getattr(getattr(event, "page", None), "page_index", getattr(event, "page_index", None))
        if index is not None:
            if index in self.seen_pages:
                return None
            self.seen_pages.add(index)
        if name == "finished":
            self.finished = True
        return event
