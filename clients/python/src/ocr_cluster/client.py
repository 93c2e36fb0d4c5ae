"""`Client`: the coordinator's REST API, synchronously."""
from __future__ import annotations

import time
from typing import Iterable, Iterator, Optional, Sequence

import httpx

from . import _requests as calls
from ._requests import InputFile, Options
from .errors import OCRClusterError
from .models import Cluster, Document, Event, Finished, Job, JobList


class Client:
    """A client of one coordinator's HTTP endpoint (`--http-endpoint`), e.g.
    `Client("http://coordinator:8080", token=...)`. Use it as a context manager, or `close()` it.

    Every call raises `OCRClusterError` on failure (the coordinator's status code name, the
    file and page when the error is about one; `UNAVAILABLE` when it cannot be reached).
    """

    def __init__(self, base_url: str, *, token: Optional[str] = None, timeout: float = 60.0,
                 reattach_attempts: int = 12) -> None:
        self.base_url = base_url.rstrip("/")
        self.reattach_attempts = reattach_attempts
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._http = httpx.Client(base_url=self.base_url, headers=headers, timeout=timeout)

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def _send(self, request: calls.Request) -> httpx.Response:
        try:
            return calls.check(self._http.request(request.method, request.path, **request.arguments()))
        except httpx.HTTPError as error:
            raise calls.unavailable(error, self.base_url) from error

    # Jobs

    def submit(self, files: Sequence[InputFile], options: Optional[Options] = None, *, job_key: Optional[str] = None,
               priority: int = 0, timeout_ms: Optional[int] = None, max_attempts: Optional[int] = None,
               callback_url: Optional[str] = None, **option_arguments: object) -> Job:
        """Submits files (paths, or `(name, bytes)`) as one job. Options as an `Options`, or as
        keyword arguments with the API's names (`languages="eng+deu"`, `level="best"`)."""
        extra = calls.option_query(option_arguments)
        return calls.as_job(self._send(calls.submit(files, options, extra, job_key, priority, timeout_ms, max_attempts,
                                                    callback_url)))

    def job(self, job_id: str, *, page_states: bool = False) -> Job:
        return calls.as_job(self._send(calls.job(job_id, page_states)))

    def jobs(self, *, limit: int = 100, states: Iterable[str] = (), page_token: str = "") -> JobList:
        """One page of jobs, newest first; pass `next_page_token` for the next."""
        return calls.as_jobs(self._send(calls.jobs(limit, states, page_token)))

    def all_jobs(self, *, states: Iterable[str] = (), page_size: int = 100) -> Iterator[Job]:
        """Every job, newest first, page after page."""
        chosen = list(states)  # read once, used for every page
        return calls.every_job(lambda token: self.jobs(limit=page_size, states=chosen, page_token=token))

    def cancel(self, job_id: str) -> Job:
        return calls.as_job(self._send(calls.cancel(job_id)))

    def delete(self, job_id: str) -> None:
        """Forgets a finished job (FAILED_PRECONDITION for a running one: cancel it first)."""
        self._send(calls.delete(job_id))

    def cluster(self) -> Cluster:
        return calls.as_cluster(self._send(calls.cluster()))

    # Events and documents

    def events(self, job_id: str, *, from_page: int = 0) -> Iterator[Event]:
        """The job's events until `Finished` (page results as they complete, failures, progress).
        A dropped connection is resumed where it stopped (`Last-Event-ID`), up to
        `reattach_attempts` times in a row with backoff; each page comes once."""
        stream = calls.EventStream()
        failures = 0
        while not stream.finished:
            request = calls.events(job_id, stream.last_id, from_page)
            try:
                with self._http.stream(request.method, request.path, **request.arguments(), timeout=calls.EVENT_STREAM_TIMEOUT) as response:
                    if response.status_code >= 400:
                        response.read()
                        calls.check(response)
                    for line in response.iter_lines():
                        event = stream.feed(line)
                        if event is not None:
                            failures = 0
                            yield event
                            if isinstance(event, Finished):
                                return
            except httpx.HTTPError as error:
                if failures >= self.reattach_attempts:
                    raise calls.unavailable(error, self.base_url) from error
            except OCRClusterError as error:
                if error.code != "UNAVAILABLE" or failures >= self.reattach_attempts:
                    raise
            if stream.finished:
                return
            time.sleep(calls.retry_delay(failures))
            failures += 1

    def wait(self, job_id: str) -> Job:
        """Follows the job until it finishes; the job as it ended."""
        for _ in self.events(job_id):
            pass
        return self.job(job_id)

    def document(self, job_id: str, *, wait: bool = True) -> Document:
        """The merged document (waiting for the job to finish first, unless `wait=False`)."""
        if wait:
            self.wait(job_id)
        return calls.as_document(self._send(calls.document(job_id, "json", None)))

    def fetch(self, job_id: str, format: str = "txt", *, page: Optional[int] = None) -> bytes:
        """The document in any format the coordinator renders: txt, json, hocr, alto, tsv, page,
        pdf (a searchable PDF), markdown, html; `page` (1-based) for one page."""
        return self._send(calls.document(job_id, format, page)).content

    def recognize(self, files: Sequence[InputFile], options: Optional[Options] = None, **option_arguments: object) -> Document:
        """Submits and waits: the document of `files`."""
        request = calls.submit(files, options, calls.option_query(option_arguments), None, 0, None, None, None)
        return self.document(calls.as_job(self._send(request)).id)
