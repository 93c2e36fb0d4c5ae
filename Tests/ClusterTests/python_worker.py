#!/usr/bin/env python3
"""A worker of the coordinator written from PROTOCOL.md and proto/ alone, in Python (pyzmq and
protoc-generated classes). Used by ClusterTests as a peer this build did not write.

Usage: python_worker.py rogue ENDPOINT PROTO_DIR JOB_ID PAGE_INDEX ATTEMPT
  Says Ready, then sends a TaskResult for a task it was never given (another worker's) and
  prints one JSON object with every command the coordinator sent it, in order.
       python_worker.py newer ENDPOINT PROTO_DIR
  A worker built from a newer proto/: PageResult and Word carry fields this build does not know
  (added_by_newer_worker = 999, newer_word_field = 998).
       python_worker.py engine ENDPOINT PROTO_DIR ENGINE [STALL_SECONDS]
  A worker of another engine: announces Ready.engines = [ENGINE] and answers with "ENGINE read
  FILE page N"; with STALL_SECONDS it falls silent that long before its first answer (a worker
  stalled past the coordinator's liveness, which must then reconnect).
  Both answer tasks until SIGTERM (at most 120 s), reconnecting as PROTOCOL.md says whenever
  the coordinator sends Disconnect, then say Disconnect and print the tasks they answered as
  JSON, each with its attempt and the number of the connection it came on (1 for the first).
       python_worker.py check-newer - PROTO_DIR HEX
  Decodes HEX (a PageResult as the client received it) with the newer proto and prints the two
  fields as JSON.
"""
import json
import os
import random
import re
import signal
import shutil
import subprocess
import time
import sys
import tempfile

import zmq

mode, endpoint, proto_dir = sys.argv[1], sys.argv[2], sys.argv[3]
gen = tempfile.mkdtemp()
if mode in ("newer", "check-newer"):
    # A newer contract: copy proto/ and add fields to PageResult and Word.
    newer = os.path.join(gen, "proto")
    shutil.copytree(proto_dir, newer)
    page = os.path.join(newer, "ocr/v1/page.proto")
    text = open(page).read()
    text = re.sub(r"(message PageResult \{)", r"\1\n  string added_by_newer_worker = 999;", text)
    text = re.sub(r"(message Word \{)", r"\1\n  uint32 newer_word_field = 998;", text)
    open(page, "w").write(text)
    proto_dir = newer
protos = [os.path.join("ocr/v1", f) for f in sorted(os.listdir(os.path.join(proto_dir, "ocr/v1"))) if f.endswith(".proto")]
subprocess.run(["protoc", f"-I{proto_dir}", f"--python_out={gen}", *protos], check=True)
sys.path.insert(0, gen)
from ocr.v1 import page_pb2, worker_pb2  # noqa: E402

SIGNATURE = b"OCRW01"
ctx = zmq.Context()


def connect():
    fresh = ctx.socket(zmq.DEALER)
    fresh.setsockopt(zmq.LINGER, 1000)
    fresh.setsockopt(zmq.RCVTIMEO, 10000)
    fresh.connect(endpoint)
    return fresh


sock = connect() if mode != "check-newer" else None


def send(message):
    sock.send_multipart([SIGNATURE, message.SerializeToString()])


def receive():
    signature, body = sock.recv_multipart()
    assert signature == SIGNATURE, signature
    message = worker_pb2.CoordinatorMessage()
    message.ParseFromString(body)
    return message


def commands_until(kind, limit=50):
    seen = []
    for _ in range(limit):
        message = receive()
        seen.append({"command": message.WhichOneof("command"),
                     "reason": message.disconnect.reason if message.HasField("disconnect") else None,
                     "heartbeat_interval_ms": message.welcome.heartbeat_interval_ms if message.HasField("welcome") else None})
        if seen[-1]["command"] == kind:
            break
    return seen


def answer_tasks(ready, respond):
    """Says `ready`, then answers tasks with `respond(task)` (a PageResult) and heartbeats
    meanwhile, until SIGTERM; then says Disconnect and returns the tasks answered. A Disconnect
    from the coordinator (it took this worker for dead, or refused an answer) is followed as
    PROTOCOL.md says: close the socket, wait 250 ms, connect a new one and say Ready again with
    the same worker_uid; the pages of the old connection come back as new attempts."""
    global sock
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    # The test process blocks SIGTERM in its threads, and a spawned child inherits the mask.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    answered, connection = [], 1
    send(worker_pb2.WorkerMessage(ready=ready))
    sock.setsockopt(zmq.RCVTIMEO, 50)
    last_sent = time.monotonic()
    deadline = last_sent + 120
    while not stopping and time.monotonic() < deadline:
        try:
            message = receive()
        except zmq.Again:
            message = None
        if message is not None and message.HasField("disconnect"):
            sock.close(linger=0)
            time.sleep(0.25)
            sock = connect()
            sock.setsockopt(zmq.RCVTIMEO, 50)
            connection += 1
            send(worker_pb2.WorkerMessage(ready=ready))
            last_sent = time.monotonic()
        elif message is not None and message.HasField("task"):
            task = message.task
            send(worker_pb2.WorkerMessage(result=worker_pb2.TaskResult(
                job_id=task.job_id, page_index=task.page_index, attempt=task.attempt, result=respond(task))))
            answered.append({"job_id": task.job_id, "page_index": task.page_index,
                             "attempt": task.attempt, "connection": connection})
            last_sent = time.monotonic()
        # Well inside the link's expiry (the tests run the coordinator at --heartbeat-ms 200 and
        # --liveness 10, so a worker silent for 2 s is dead and its pages requeued).
        if time.monotonic() - last_sent > 0.1:
            send(worker_pb2.WorkerMessage(heartbeat=worker_pb2.Heartbeat()))
            last_sent = time.monotonic()
    send(worker_pb2.WorkerMessage(disconnect=worker_pb2.Disconnect(reason="done")))
    return answered


if mode == "rogue":
    job_id, page_index, attempt = sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
    send(worker_pb2.WorkerMessage(ready=worker_pb2.Ready(
        worker_uid=random.getrandbits(63) | 1, slots=1, version="rogue", hostname="rogue", languages=["eng"])))
    out = {"before": commands_until("welcome")}
    forged = page_pb2.PageResult(page_index=page_index, text="FORGED BY A ROGUE WORKER")
    send(worker_pb2.WorkerMessage(result=worker_pb2.TaskResult(
        job_id=job_id, page_index=page_index, attempt=attempt, result=forged)))
    out["after"] = commands_until("disconnect")
    print(json.dumps(out))
elif mode == "newer":
    def newer(task):
        word = page_pb2.Word(text="newer", confidence=0.5, newer_word_field=7)
        line = page_pb2.TextLine(text="newer", words=[word])
        return page_pb2.PageResult(page_index=task.page_index, file=task.file, text="newer\n",
                                   added_by_newer_worker="kept by every hop",
                                   blocks=[page_pb2.Block(paragraphs=[page_pb2.Paragraph(lines=[line])])])
    ready = worker_pb2.Ready(worker_uid=random.getrandbits(63) | 1, slots=1, version="newer", hostname="newer")
    print(json.dumps({"answered": answer_tasks(ready, newer)}))
elif mode == "engine":
    engine = sys.argv[4]
    stall = [float(sys.argv[5])] if len(sys.argv) > 5 else []
    ready = worker_pb2.Ready(worker_uid=random.getrandbits(63) | 1, slots=1, version="engine", hostname="engine", engines=[engine])

    def echo(task):
        if stall:
            time.sleep(stall.pop())
        return page_pb2.PageResult(page_index=task.page_index, file=task.file,
                                   text=f"{engine} read {task.file} page {task.page_index}\n")
    answered = answer_tasks(ready, echo)
    print(json.dumps({"answered": answered}))
elif mode == "check-newer":
    result = page_pb2.PageResult()
    result.ParseFromString(bytes.fromhex(sys.argv[4]))
    word = result.blocks[0].paragraphs[0].lines[0].words[0]
    print(json.dumps({"added_by_newer_worker": result.added_by_newer_worker,
                      "newer_word_field": word.newer_word_field, "text": result.text}))
else:
    sys.exit(f"unknown mode {mode}")
