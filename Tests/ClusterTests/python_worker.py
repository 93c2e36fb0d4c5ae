#!/usr/bin/env python3
"""A worker of the coordinator written from PROTOCOL.md and proto/ alone, in Python (pyzmq and
protoc-generated classes). Used by ClusterTests as a peer this build did not write.

Usage: python_worker.py rogue ENDPOINT PROTO_DIR JOB_ID PAGE_INDEX ATTEMPT
  Says Ready, then sends a TaskResult for a task it was never given (another worker's) and
  prints one JSON object with every command the coordinator sent it, in order.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

import zmq

mode, endpoint, proto_dir = sys.argv[1], sys.argv[2], sys.argv[3]
gen = tempfile.mkdtemp()
protos = [os.path.join("ocr/v1", f) for f in sorted(os.listdir(os.path.join(proto_dir, "ocr/v1"))) if f.endswith(".proto")]
subprocess.run(["protoc", f"-I{proto_dir}", f"--python_out={gen}", *protos], check=True)
sys.path.insert(0, gen)
from ocr.v1 import page_pb2, worker_pb2  # noqa: E402

SIGNATURE = b"OCRW01"
ctx = zmq.Context()
sock = ctx.socket(zmq.DEALER)
sock.setsockopt(zmq.LINGER, 0)
sock.setsockopt(zmq.RCVTIMEO, 10000)
sock.connect(endpoint)


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
else:
    sys.exit(f"unknown mode {mode}")
