#!/usr/bin/env python3
"""A client of the coordinator written from PROTOCOL.md and proto/ alone, in Python (pyzmq and
protoc-generated classes): proof that the protocol is language-neutral. Used by ClusterTests.

Usage: python_client.py ENDPOINT PROTO_DIR FILE...
Prints one JSON object: the answer to options it cannot know, the submit response, the stream's
events, and the answers to an unknown method and to garbage frames.
"""
import json
import os
import subprocess
import sys
import tempfile

import zmq

endpoint, proto_dir, files = sys.argv[1], sys.argv[2], sys.argv[3:]
gen = tempfile.mkdtemp()
protos = [os.path.join("ocr/v1", f) for f in sorted(os.listdir(os.path.join(proto_dir, "ocr/v1"))) if f.endswith(".proto")]
subprocess.run(["protoc", f"-I{proto_dir}", f"--python_out={gen}", *protos], check=True)
sys.path.insert(0, gen)
from ocr.v1 import coordinator_pb2, job_pb2, rpc_pb2  # noqa: E402

ctx = zmq.Context()
sock = ctx.socket(zmq.DEALER)
sock.setsockopt(zmq.LINGER, 0)
sock.setsockopt(zmq.RCVTIMEO, 120000)
sock.connect(endpoint)


def call(call_id, method, request_bytes):
    header = rpc_pb2.RpcHeader(call_id=call_id, method=method, kind=rpc_pb2.RpcHeader.REQUEST, timeout_ms=60000)
    sock.send_multipart([header.SerializeToString(), request_bytes])


def receive():
    header_bytes, payload = sock.recv_multipart()
    header = rpc_pb2.RpcHeader()
    header.ParseFromString(header_bytes)
    return header, payload


out = {}
# Options this version does not know (a level from a newer .proto) are refused at submit, naming
# the field, before any page is cut.
bad = coordinator_pb2.SubmitJobRequest()
bad.files.add(name="x.png", content=b"not read")
bad.options.level = 7
call(0, "/ocr.v1.Coordinator/SubmitJob", bad.SerializeToString())
header, _ = receive()
out["unknown_level"] = {"code": header.status.code, "field": header.status.details.get("field", "")}

request = coordinator_pb2.SubmitJobRequest()
for path in files:
    with open(path, "rb") as fh:
        request.files.add(name=os.path.basename(path), content=fh.read())
call(1, "/ocr.v1.Coordinator/SubmitJob", request.SerializeToString())
header, payload = receive()
assert header.call_id == 1 and header.kind == rpc_pb2.RpcHeader.RESPONSE, header
assert header.status.code == 0, header.status
submitted = coordinator_pb2.SubmitJobResponse()
submitted.ParseFromString(payload)
out["job_id"], out["page_count"] = submitted.job_id, submitted.page_count

call(2, "/ocr.v1.Coordinator/WatchJob", coordinator_pb2.WatchJobRequest(job_id=submitted.job_id).SerializeToString())
events = []
while True:
    header, payload = receive()
    assert header.call_id == 2, header
    if header.kind == rpc_pb2.RpcHeader.STREAM_END:
        out["stream_end_code"] = header.status.code
        break
    assert header.kind == rpc_pb2.RpcHeader.STREAM_MESSAGE, header
    event = job_pb2.JobEvent()
    event.ParseFromString(payload)
    kind = event.WhichOneof("event")
    if kind == "page_completed":
        events.append({"kind": kind, "page_index": event.page_completed.result.page_index,
                       "text": event.page_completed.result.text})
    elif kind == "finished":
        events.append({"kind": kind, "state": job_pb2.JobState.Name(event.finished.state)})
    else:
        events.append({"kind": kind})
out["events"] = events

call(3, "/ocr.v1.Coordinator/NoSuchMethod", b"")
header, _ = receive()
out["unknown_method"] = {"call_id": header.call_id, "code": header.status.code}

sock.send_multipart([b"\xff\xff\xff", b"garbage"])
header, _ = receive()
out["garbage"] = {"call_id": header.call_id, "code": header.status.code}

call(4, "/ocr.v1.Coordinator/Health", b"")
header, payload = receive()
health = coordinator_pb2.HealthCheckResponse()
health.ParseFromString(payload)
out["health_after_garbage"] = coordinator_pb2.HealthCheckResponse.ServingStatus.Name(health.status)
print(json.dumps(out))
