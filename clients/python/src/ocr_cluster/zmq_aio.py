"""`AsyncZMQClient`: `ZMQClient`'s calls for asyncio, over the same ZeroMQ protocol.

    async with AsyncZMQClient("tcp://coordinator:5555") as client:
        documents = await asyncio.gather(*(client.recognize([path]) for path in paths))

Calls share one socket and may run concurrently: each waits for the answer with its call id
(a task reads the socket and hands each answer to its call). Each event stream has a socket of
its own, as in `ZMQClient`.
"""
from __future__ import annotations

import asyncio
import itertools
from typing import AsyncGenerator, AsyncIterator, Dict, Iterable, List, Optional, Sequence, Tuple, TypeVar

import zmq
import zmq.asyncio
from google.protobuf.message import DecodeError, Message

from . import _requests as calls
from . import _zmq_calls as wire
from ._proto import coordinator_pb2, job_pb2, rpc_pb2
from ._requests import InputFile, Options
from .errors import OCRClusterError
from .models import Cluster, Document, Event, Job, JobList
from .zmq_client import Curve, configure, endpoint_list

M = TypeVar("M", bound=Message)
Reply = Tuple[rpc_pb2.RpcHeader, bytes]


class AsyncZMQClient:
    """`ZMQClient` for asyncio: `async with AsyncZMQClient(endpoint) as client: job = await
    client.submit(...)`. Use it from one event loop."""

    def __init__(self, endpoint: str, *, curve: Optional[Curve] = None, timeout: float = 60.0,
                 reattach_attempts: int = 12) -> None:
        self.endpoints = endpoint_list(endpoint)
        self.curve = curve
        self.timeout = timeout
        self.reattach_attempts = reattach_attempts
        self._context = zmq.asyncio.Context.instance()
        self._ids = itertools.count(1)
        self._socket = self._connect()
        self._pending: Dict[int, "asyncio.Future[Reply]"] = {}
        self._reader: Optional["asyncio.Task[None]"] = None

    async def __aenter__(self) -> "AsyncZMQClient":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            try:
                await self._reader
            except asyncio.CancelledError:
                pass
        self._socket.close(linger=0)

    def _connect(self) -> zmq.asyncio.Socket:
        sock = self._context.socket(zmq.DEALER)
        configure(sock, self.endpoints, self.curve)
        return sock

    async def _read_answers(self) -> None:
        """Hands each answer on the calls' socket to the call with its id; answers to calls that
        timed out, and frames that are not an RpcHeader, are dropped."""
        while True:
            frames: List[bytes] = await self._socket.recv_multipart()
            try:
                call = self._pending.pop(wire.call_id_of(frames), None)
            except DecodeError:
                continue
            if call is None or call.done():
                continue
            try:
                call.set_result(wire.reply(frames))
            except OCRClusterError as error:
                call.set_exception(error)

    async def _send(self, sock: zmq.asyncio.Socket, method: str, request: Message, call_id: int, timeout: float) -> None:
        try:  # with several endpoints (ZMQ_IMMEDIATE), a send waits for a leader
            await asyncio.wait_for(sock.send_multipart(wire.request_frames(method, request, call_id, timeout)), timeout)
        except asyncio.TimeoutError:
            raise wire.unavailable(self.endpoints, f"no coordinator to send {method} to") from None

    async def _call(self, method: str, request: Message, response: M, timeout: Optional[float] = None) -> M:
        if self._reader is None or self._reader.done():
            self._reader = asyncio.get_running_loop().create_task(self._read_answers())
        call_id = next(self._ids)
        answer: "asyncio.Future[Reply]" = asyncio.get_running_loop().create_future()
        self._pending[call_id] = answer
        try:
            await self._send(self._socket, method, request, call_id, timeout or self.timeout)
            _, payload = await asyncio.wait_for(answer, timeout or self.timeout)
        except asyncio.TimeoutError:
            raise wire.unavailable(self.endpoints, f"no answer from the coordinator ({method})") from None
        finally:
            self._pending.pop(call_id, None)
        response.ParseFromString(payload)
        return response

    # The same calls as ZMQClient

    async def _submit(self, files: Sequence[InputFile], options: Optional[Options], option_arguments: Dict[str, object],
                      job_key: Optional[str] = None, priority: int = 0, timeout_ms: Optional[int] = None,
                      max_attempts: Optional[int] = None, callback_url: Optional[str] = None) -> str:
        # Reading the files blocks: off the event loop.
        request = await asyncio.get_running_loop().run_in_executor(None, lambda: wire.submit_request(
            files, options, option_arguments, job_key, priority, timeout_ms, max_attempts, callback_url))
        return (await self._call("SubmitJob", request, coordinator_pb2.SubmitJobResponse())).job_id

    async def submit(self, files: Sequence[InputFile], options: Optional[Options] = None, *, job_key: Optional[str] = None,
                     priority: int = 0, timeout_ms: Optional[int] = None, max_attempts: Optional[int] = None,
                     callback_url: Optional[str] = None, **option_arguments: object) -> Job:
        return await self.job(await self._submit(files, options, option_arguments, job_key, priority, timeout_ms,
                                                 max_attempts, callback_url))

    async def job(self, job_id: str, *, page_states: bool = False) -> Job:
        request = coordinator_pb2.GetJobRequest(job_id=job_id, include_page_states=page_states)
        return wire.as_job(await self._call("GetJob", request, job_pb2.Job()))

    async def jobs(self, *, limit: int = 100, states: Iterable[str] = (), page_token: str = "") -> JobList:
        response = await self._call("ListJobs", wire.list_request(limit, list(states), page_token),
                                    coordinator_pb2.ListJobsResponse())
        return JobList([wire.as_job(j) for j in response.jobs], response.next_page_token)

    def all_jobs(self, *, states: Iterable[str] = (), page_size: int = 100) -> AsyncIterator[Job]:
        chosen = list(states)  # read once, used for every page
        return calls.every_job_async(lambda token: self.jobs(limit=page_size, states=chosen, page_token=token))

    async def cancel(self, job_id: str) -> Job:
        return wire.as_job(await self._call("CancelJob", coordinator_pb2.CancelJobRequest(job_id=job_id), job_pb2.Job()))

    async def delete(self, job_id: str) -> None:
        await self._call("DeleteJob", coordinator_pb2.DeleteJobRequest(job_id=job_id), coordinator_pb2.DeleteJobResponse())

    async def cluster(self) -> Cluster:
        return wire.as_cluster(await self._call("ClusterStatus", coordinator_pb2.ClusterStatusRequest(),
                                                coordinator_pb2.ClusterStatusResponse()))

    async def _receive(self, sock: zmq.asyncio.Socket, call_id: int) -> Reply:
        while True:
            try:
                frames: List[bytes] = await asyncio.wait_for(sock.recv_multipart(), wire.WATCH_SILENCE_S)
            except asyncio.TimeoutError:
                raise wire.unavailable(self.endpoints, "no event from the coordinator (WatchJob)") from None
            if wire.call_id_of(frames) == call_id:
                return wire.reply(frames)

    async def events(self, job_id: str, *, from_page: int = 0) -> AsyncGenerator[Event, None]:
        """As `ZMQClient.events`."""
        watch = wire.Watch(lowest=from_page)
        failures = 0
        while True:
            sock = self._connect()
            try:
                call_id = next(self._ids)
                await self._send(sock, "WatchJob", watch.request(job_id), call_id, wire.WATCH_SILENCE_S)
                while not watch.finished:
                    header, payload = await self._receive(sock, call_id)
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
            await asyncio.sleep(calls.retry_delay(failures))
            failures += 1

    async def wait(self, job_id: str) -> Job:
        async for _ in self.events(job_id):
            pass
        return await self.job(job_id)

    async def document(self, job_id: str, *, wait: bool = True) -> Document:
        """As `ZMQClient.document`."""
        merge = wire.Merge(await self.job(job_id), wait)
        if not merge.complete:
            events = self.events(job_id)
            try:
                async for event in events:
                    if merge.feed(event):
                        break
            finally:
                await events.aclose()  # closes the stream's socket now, not when collected
        return merge.document()

    async def fetch(self, job_id: str, format: str = "txt", *, page: Optional[int] = None) -> bytes:
        if format != "txt":
            raise wire.unrendered(format)
        return wire.text(await self.document(job_id), page)

    async def recognize(self, files: Sequence[InputFile], options: Optional[Options] = None,
                        **option_arguments: object) -> Document:
        return await self.document(await self._submit(files, options, option_arguments))
