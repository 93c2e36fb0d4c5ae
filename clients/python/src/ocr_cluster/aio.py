"""`AsyncClient`: the same calls as `Client`, for asyncio."""
from __future__ import annotations

import asyncio
from typing import AsyncIterator, Iterable, Optional, Sequence

import httpx

from . import _requests as calls
from ._requests import InputFile, Options
from .errors import OCRClusterError
from .models import Cluster, Document, Event, Finished, Job, JobList


class AsyncClient:
    """`Client` for asyncio: `async with AsyncClient(url) as client: job = await client.submit(...)`."""

    def __init__(self, base_url: str, *, token: Optional[str] = None, timeout: float = 60.0,
                 reattach_attempts: int = 12) -> None:
        self.base_url = base_url.rstrip("/")
        self.reattach_attempts = reattach_attempts
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._http = httpx.AsyncClient(base_url=self.base_url, headers=headers, timeout=timeout)

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self._http.aclose()

    async def _send(self, request: calls.Request) -> httpx.Response:
        try:
            return calls.check(await self._http.request(request.method, request.path, **request.arguments()))
        except httpx.HTTPError as error:
            raise calls.unavailable(error, self.base_url) from error

    async def submit(self, files: Sequence[InputFile], options: Optional[Options] = None, *, job_key: Optional[str] = None,
                     priority: int = 0, timeout_ms: Optional[int] = None, max_attempts: Optional[int] = None,
                     callback_url: Optional[str] = None, **option_arguments: object) -> Job:
        extra = calls.option_query(option_arguments)
        # Reading the files blocks: off the event loop.
        request = await asyncio.get_running_loop().run_in_executor(
            None, lambda: calls.submit(files, options, extra, job_key, priority, timeout_ms, max_attempts, callback_url))
        return calls.as_job(await self._send(request))

    async def job(self, job_id: str, *, page_states: bool = False) -> Job:
        return calls.as_job(await self._send(calls.job(job_id, page_states)))

    async def jobs(self, *, limit: int = 100, states: Iterable[str] = (), page_token: str = "") -> JobList:
        return calls.as_jobs(await self._send(calls.jobs(limit, states, page_token)))

    def all_jobs(self, *, states: Iterable[str] = (), page_size: int = 100) -> AsyncIterator[Job]:
        chosen = list(states)  # read once, used for every page
        return calls.every_job_async(lambda token: self.jobs(limit=page_size, states=chosen, page_token=token))

    async def cancel(self, job_id: str) -> Job:
        return calls.as_job(await self._send(calls.cancel(job_id)))

    async def delete(self, job_id: str) -> None:
        await self._send(calls.delete(job_id))

    async def cluster(self) -> Cluster:
        return calls.as_cluster(await self._send(calls.cluster()))

    async def events(self, job_id: str, *, from_page: int = 0) -> AsyncIterator[Event]:
        """As `Client.events`."""
        stream = calls.EventStream()
        failures = 0
        while not stream.finished:
            request = calls.events(job_id, stream.last_id, from_page)
            try:
                async with self._http.stream(request.method, request.path, **request.arguments(),
                                             timeout=calls.EVENT_STREAM_TIMEOUT) as response:
                    if response.status_code >= 400:
                        await response.aread()
                        calls.check(response)
                    async for line in response.aiter_lines():
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
            await asyncio.sleep(calls.retry_delay(failures))
            failures += 1

    async def wait(self, job_id: str) -> Job:
        async for _ in self.events(job_id):
            pass
        return await self.job(job_id)

    async def document(self, job_id: str, *, wait: bool = True) -> Document:
        if wait:
            await self.wait(job_id)
        return calls.as_document(await self._send(calls.document(job_id, "json", None)))

    async def fetch(self, job_id: str, format: str = "txt", *, page: Optional[int] = None) -> bytes:
        return (await self._send(calls.document(job_id, format, page))).content

    async def recognize(self, files: Sequence[InputFile], options: Optional[Options] = None, **option_arguments: object) -> Document:
        extra = calls.option_query(option_arguments)
        request = await asyncio.get_running_loop().run_in_executor(
            None, lambda: calls.submit(files, options, extra, None, 0, None, None, None))
        return await self.document(calls.as_job(await self._send(request)).id)
