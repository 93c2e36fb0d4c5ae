"""Typed views of what the REST API returns: jobs, the cluster, events, and the document down to
words and their candidates (the JSON document of `format=json`, documented in `openapi.json`
and the repository's `Sources/OCRClient/Document/JSONRenderer.swift`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Mapping, Optional, Union

from .errors import OCRClusterError
from .geometry import JSON, Box
from .structure import DetectedData, Element, Heading, Table, detected_data_from_json, element_from_json


@dataclass(frozen=True)
class Candidate:
    """Another reading of a word, with its confidence (0...1)."""
    text: str
    confidence: float


@dataclass(frozen=True)
class Symbol:
    text: str
    confidence: float
    box: Box


@dataclass(frozen=True)
class Word:
    text: str
    confidence: float
    box: Box
    candidates: List[Candidate]
    symbols: List[Symbol]
    from_dictionary: bool

    @classmethod
    def from_json(cls, data: JSON) -> "Word":
        return cls(str(data.get("text", "")), float(data.get("confidence", 0)), Box.from_json(data.get("box")),
                   [Candidate(str(c.get("text", "")), float(c.get("confidence", 0))) for c in data.get("candidates") or []],
                   [Symbol(str(s.get("text", "")), float(s.get("confidence", 0)), Box.from_json(s.get("box")))
                    for s in data.get("symbols") or []],
                   bool(data.get("fromDictionary", False)))


@dataclass(frozen=True)
class Line:
    text: str
    confidence: float
    box: Box
    words: List[Word]

    @classmethod
    def from_json(cls, data: JSON) -> "Line":
        return cls(str(data.get("text", "")), float(data.get("confidence", 0)), Box.from_json(data.get("box")),
                   [Word.from_json(w) for w in data.get("words") or []])


@dataclass(frozen=True)
class Paragraph:
    text: str
    confidence: float
    box: Box
    lines: List[Line]

    @classmethod
    def from_json(cls, data: JSON) -> "Paragraph":
        return cls(str(data.get("text", "")), float(data.get("confidence", 0)), Box.from_json(data.get("box")),
                   [Line.from_json(line) for line in data.get("lines") or []])


@dataclass(frozen=True)
class Block:
    text: str
    confidence: float
    box: Box
    type: str
    paragraphs: List[Paragraph]

    @classmethod
    def from_json(cls, data: JSON) -> "Block":
        return cls(str(data.get("text", "")), float(data.get("confidence", 0)), Box.from_json(data.get("box")),
                   str(data.get("type", "")), [Paragraph.from_json(p) for p in data.get("paragraphs") or []])


@dataclass(frozen=True)
class Page:
    """One page of a document: its result when it was read (`state` "OK"), else why not
    (`state` "FAILED" with `error`, or "MISSING")."""
    page_index: int
    state: str
    file: str = ""
    file_page: int = 0
    width: int = 0
    height: int = 0
    text: str = ""
    mean_confidence: float = 0.0
    blocks: List[Block] = field(default_factory=list)
    error: Optional[OCRClusterError] = None
    #: Headings, paragraphs, lists, tables, captions, footnotes and the running header and
    #: footer, in reading order (`ocr_cluster.structure`); a `ZMQClient` puts it together from
    #: the pages' layouts (empty for a page from a worker that sends none).
    structure: List[Element] = field(default_factory=list)
    #: Dates, amounts, phone numbers, e-mail addresses and links in the page's text.
    detected_data: List[DetectedData] = field(default_factory=list)
    raw: JSON = field(default_factory=dict, repr=False)

    @property
    def words(self) -> List[Word]:
        """Every word of the page in reading order."""
        return [w for b in self.blocks for p in b.paragraphs for line in p.lines for w in line.words]

    @property
    def tables(self) -> List[Table]:
        """The page's tables, top to bottom."""
        return [e for e in self.structure if isinstance(e, Table)]

    @property
    def headings(self) -> List[Heading]:
        """The page's title and section headings in reading order."""
        return [e for e in self.structure if isinstance(e, Heading)]

    @classmethod
    def from_json(cls, data: JSON) -> "Page":
        index, state = int(data.get("pageIndex", 0)), str(data.get("state", "MISSING"))
        result = data.get("result")
        if state != "OK" or not result:
            status = data.get("status")
            return cls(index, state, error=OCRClusterError.from_status(status) if status else None, raw=data)
        return cls(index, state, file=str(result.get("file", "")), file_page=int(result.get("filePage", 0)),
                   width=int(result.get("width", 0)), height=int(result.get("height", 0)), text=str(result.get("text", "")),
                   mean_confidence=float(result.get("meanConfidence", 0)),
                   blocks=[Block.from_json(b) for b in result.get("blocks") or []],
                   structure=[element_from_json(e) for e in data.get("structure") or []],
                   detected_data=[detected_data_from_json(d) for d in data.get("detectedData") or []], raw=data)


@dataclass(frozen=True)
class Document:
    """A job's merged document (`format=json`): every page in order, and the pages that failed or
    are missing (`gaps`)."""
    pages: List[Page]
    gaps: List[int]
    languages: List[str]
    raw: JSON = field(repr=False)

    @property
    def text(self) -> str:
        """The pages' text, a form feed between pages (as `format=txt`)."""
        return "\f".join(p.text for p in self.pages)

    @classmethod
    def from_json(cls, data: JSON) -> "Document":
        return cls([Page.from_json(p) for p in data.get("pages") or []], [int(g) for g in data.get("gaps") or []],
                   [str(x) for x in data.get("languages") or []], data)


@dataclass(frozen=True)
class Job:
    """A job as the coordinator has it."""
    id: str
    state: str
    page_count: int
    pages_done: int
    pages_failed: int
    files: List[str]
    job_key: str = ""
    priority: int = 0
    created_at: str = ""
    finished_at: Optional[str] = None
    status: Optional[OCRClusterError] = None
    page_states: List[str] = field(default_factory=list)
    raw: JSON = field(default_factory=dict, repr=False)

    @property
    def finished(self) -> bool:
        return self.state in ("SUCCEEDED", "PARTIAL", "FAILED", "CANCELLED", "EXPIRED")

    @classmethod
    def from_json(cls, data: JSON) -> "Job":
        status = data.get("status")
        return cls(str(data["id"]), str(data.get("state", "")), int(data.get("pageCount", 0)), int(data.get("pagesDone", 0)),
                   int(data.get("pagesFailed", 0)), [str(f) for f in data.get("files") or []], str(data.get("jobKey", "")),
                   int(data.get("priority", 0)), str(data.get("createdAt", "")), data.get("finishedAt"),
                   OCRClusterError.from_status(status) if status and status.get("code") != "OK" else None,
                   [str(s) for s in data.get("pageStates") or []], data)


@dataclass(frozen=True)
class JobList:
    """One page of `jobs()`: the jobs, newest first, and the token of the next page ("" at the end)."""
    jobs: List[Job]
    next_page_token: str


@dataclass(frozen=True)
class Worker:
    uid: str
    host: str
    slots: int
    busy: int
    languages: List[str]
    version: str
    pages_done: int
    labels: Mapping[str, str]
    engines: List[str]


@dataclass(frozen=True)
class Cluster:
    """The cluster's status: its workers and queue."""
    workers: List[Worker]
    total_slots: int
    busy_slots: int
    queue_depth: int
    active_jobs: int
    pages_done: int
    raw: JSON = field(repr=False)

    @classmethod
    def from_json(cls, data: JSON) -> "Cluster":
        workers = [Worker(str(w.get("uid", "")), str(w.get("host", "")), int(w.get("slots", 0)), int(w.get("busy", 0)),
                          [str(x) for x in w.get("languages") or []], str(w.get("version", "")), int(w.get("pagesDone", 0)),
                          dict(w.get("labels") or {}), [str(x) for x in w.get("engines") or []]) for w in data.get("workers") or []]
        return cls(workers, int(data.get("totalSlots", 0)), int(data.get("busySlots", 0)), int(data.get("queueDepth", 0)),
                   int(data.get("activeJobs", 0)), int(data.get("pagesDone", 0)), data)


@dataclass(frozen=True)
class PageCompleted:
    """An event: a page was read. `page` has its text, confidence and file; its words, boxes
    and candidates are in the document (`Client.document`)."""
    page: Page


@dataclass(frozen=True)
class PageFailed:
    """An event: a page failed for good."""
    page_index: int
    error: OCRClusterError


@dataclass(frozen=True)
class Progress:
    pages_done: int
    pages_failed: int
    page_count: int


@dataclass(frozen=True)
class Finished:
    """The last event of a job."""
    state: str
    error: Optional[OCRClusterError]


Event = Union[PageCompleted, PageFailed, Progress, Finished]


def event_from_sse(name: str, data: JSON) -> Optional[Event]:
    """The typed event of one Server-Sent Event (`event:` name, `data:` JSON); None for others."""
    if name == "page_completed":
        # A summary of the page (its text and confidence; words and boxes are in the document).
        return PageCompleted(Page(int(data.get("pageIndex", 0)), "OK", file=str(data.get("file", "")),
                                  file_page=int(data.get("filePage", 0)), text=str(data.get("text", "")),
                                  mean_confidence=float(data.get("meanConfidence", 0)), raw=data))
    if name == "page_failed":
        status = data.get("status") or {}
        return PageFailed(int(data.get("pageIndex", 0)), OCRClusterError.from_status(status))
    if name == "progress":
        return Progress(int(data.get("pagesDone", 0)), int(data.get("pagesFailed", 0)), int(data.get("pageCount", 0)))
    if name == "finished":
        status = data.get("status")
        return Finished(str(data.get("state", "")),
                        OCRClusterError.from_status(status) if status and status.get("code") != "OK" else None)
    return None
