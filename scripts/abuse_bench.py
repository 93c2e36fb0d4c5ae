#!/usr/bin/env python3
"""Runs the abuse corpus (scripts/abuse_corpus.py) and the peer attacks against a real
ocr-coordinator with real ocr-workers (the sleep engine), each case while another client's good
job runs, and prints one Markdown table row per case for SECURITY.md:

    scripts/abuse_bench.py [BIN_DIR] [--postgresql]   (default .build/debug; needs pyzmq, protobuf, protoc)

With --postgresql the coordinator's journal is a PostgreSQL server the script starts for the
run (initdb in its work directory, as the postgres user when run as root); journal growth is then
the growth of the database's files (its `base/` directory; the write-ahead log not counted).

Per case: the offending request's status (code, file, page), the coordinator's peak resident
memory against its input bytes, the peak growth of journal + spool bytes (both sampled every 20 ms), the slowest Health answer while the case
ran (a probe thread asks every 20 ms), and whether the other client's job succeeded with no
attempt spent. The coordinator is the same process for every case: it must stay up throughout.
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import zmq

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
POSTGRESQL = "--postgresql" in sys.argv[1:]
BIN = ARGS[0] if ARGS else os.path.join(ROOT, ".build/debug")
work = tempfile.mkdtemp(prefix="ocr-abuse-")
gen = os.path.join(work, "gen")
os.makedirs(gen)
protos = [os.path.join("ocr/v1", f) for f in sorted(os.listdir(os.path.join(ROOT, "proto/ocr/v1"))) if f.endswith(".proto")]
subprocess.run(["protoc", "-I" + os.path.join(ROOT, "proto"), "--python_out=" + gen, *protos], check=True)
sys.path.insert(0, gen)
from ocr.v1 import coordinator_pb2 as C, job_pb2 as J, options_pb2 as O, rpc_pb2 as R, worker_pb2 as W  # noqa: E402

corpus = os.path.join(work, "corpus")
subprocess.run([sys.executable, os.path.join(ROOT, "scripts/abuse_corpus.py"), corpus], check=True, stdout=subprocess.DEVNULL)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start_postgresql():
    """A PostgreSQL server of the run's own on a free loopback port; returns (URI, data directory)."""
    bin_dir = sorted((os.path.join("/usr/lib/postgresql", v, "bin") for v in os.listdir("/usr/lib/postgresql")),
                     key=lambda p: int(p.split("/")[-2]))[-1]
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
    directory = os.path.join(work, "postgresql")
    os.makedirs(directory)
    if os.getuid() == 0:
        shutil.chown(work, "postgres")
        shutil.chown(directory, "postgres")
    port = free_port()
    data = os.path.join(directory, "data")
    subprocess.run(as_postgres + [f"{bin_dir}/initdb", "-D", data, "-U", "ocr", "-A", "trust", "-E", "UTF8"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(as_postgres + [f"{bin_dir}/pg_ctl", "-D", data, "-l", os.path.join(directory, "server.log"), "-w",
                                  "-o", f"-c listen_addresses=127.0.0.1 -p {port} -k {directory}", "start"],
                   check=True, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return f"postgresql://ocr@127.0.0.1:{port}/postgres", data, lambda: subprocess.run(
        as_postgres + [f"{bin_dir}/pg_ctl", "-D", data, "-m", "fast", "-w", "stop"], stdout=subprocess.DEVNULL)


cport, wport = free_port(), free_port()
CLIENTS, WORKERS = f"tcp://127.0.0.1:{cport}", f"tcp://127.0.0.1:{wport}"
if POSTGRESQL:
    journal, pg_data, stop_postgresql = start_postgresql()
else:
    journal, pg_data, stop_postgresql = os.path.join(work, "journal.db"), None, lambda: None
coordinator = subprocess.Popen([os.path.join(BIN, "ocr-coordinator"), "--client-endpoint", CLIENTS, "--worker-endpoint", WORKERS, "--http-endpoint", "none",
                                "--journal", journal, "--log-level", "warning"], stderr=open(os.path.join(work, "coordinator.log"), "w"))
workers = [subprocess.Popen([os.path.join(BIN, "ocr-worker"), "--coordinator", WORKERS, "--engine", "sleep:20", "--slots", "2",
                             "--log-level", "error"]) for _ in range(2)]
ctx = zmq.Context()


class Client:
    def __init__(self):
        self.sock = ctx.socket(zmq.DEALER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.connect(CLIENTS)
        self.next = 0

    def call(self, method, request, timeout=60.0, kind=R.RpcHeader.REQUEST):
        self.next += 1
        header = R.RpcHeader(call_id=self.next, method="/ocr.v1.Coordinator/" + method, kind=kind, timeout_ms=int(timeout * 1000))
        self.sock.send_multipart([header.SerializeToString(), request.SerializeToString()])
        return self.next

    def receive(self, timeout=60.0):
        if not self.sock.poll(int(timeout * 1000)):
            raise TimeoutError("no answer")
        h, payload = self.sock.recv_multipart()
        header = R.RpcHeader()
        header.ParseFromString(h)
        return header, payload

    def unary(self, method, request, response_type, timeout=60.0):
        call_id = self.call(method, request, timeout)
        while True:
            header, payload = self.receive(timeout)
            if header.call_id == call_id:
                break
        if header.status.code != 0:
            return header.status, None
        response = response_type()
        response.ParseFromString(payload)
        return header.status, response


def submit(client, path, name=None, options=None):
    request = C.SubmitJobRequest()
    with open(path, "rb") as f:
        request.files.add(name=name or os.path.basename(path), content=f.read())
    if options:
        request.options.CopyFrom(options)
    return client.unary("SubmitJob", request, C.SubmitJobResponse, timeout=120)


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def journal_bytes():
    total = 0
    if pg_data:  # the database's files (tables, TOAST, indexes), not its write-ahead log
        for base, _, files in os.walk(os.path.join(pg_data, "base")):
            for f in files:
                try:
                    total += os.path.getsize(os.path.join(base, f))
                except OSError:
                    pass  # a file dropped while we walked
        return total
    for base, _, files in os.walk(work):
        for f in files:
            p = os.path.join(base, f)
            if p.startswith(journal):
                total += os.path.getsize(p)
    return total


class Probe:
    """Health every 20 ms, the coordinator's resident memory and the journal's bytes; the worst of
    each since reset(). A process of its own (forked, with its own ZeroMQ context), so that this
    script's own work (reading and encoding a 200 MB upload under the GIL) cannot stall it."""
    def __init__(self):
        import multiprocessing
        self.worst_us = multiprocessing.Value("q", 0)
        self.peak_kb = multiprocessing.Value("q", 0)
        self.journal_base = 0
        self.journal_peak = multiprocessing.Value("q", 0)
        self.fails = multiprocessing.Value("q", 0)
        self.running = multiprocessing.Value("b", 1)
        self.process = multiprocessing.get_context("fork").Process(target=self.run, daemon=True)

    def start(self):
        self.process.start()

    def reset(self):
        self.worst_us.value, self.peak_kb.value, self.fails.value = 0, rss_kb(coordinator.pid), 0
        self.journal_base = self.journal_peak.value = journal_bytes()

    @property
    def worst_ms(self):
        return self.worst_us.value / 1000

    @property
    def failures(self):
        return self.fails.value

    def run(self):
        own = zmq.Context()
        sock = own.socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 0)
        sock.connect(CLIENTS)
        call_id = 0
        while self.running.value:
            call_id += 1
            header = R.RpcHeader(call_id=call_id, method="/ocr.v1.Coordinator/Health", kind=R.RpcHeader.REQUEST, timeout_ms=5000)
            start = time.monotonic()
            sock.send_multipart([header.SerializeToString(), C.HealthCheckRequest().SerializeToString()])
            answered = False
            while sock.poll(5000):
                h, _ = sock.recv_multipart()
                reply = R.RpcHeader()
                reply.ParseFromString(h)
                if reply.call_id == call_id:
                    answered = reply.status.code == 0
                    break
            if not answered:
                self.fails.value += 1
            self.worst_us.value = max(self.worst_us.value, int((time.monotonic() - start) * 1e6))
            self.peak_kb.value = max(self.peak_kb.value, rss_kb(coordinator.pid))
            self.journal_peak.value = max(self.journal_peak.value, journal_bytes())
            time.sleep(0.02)


def tiny_tiff(path, pages):
    subprocess.run([os.path.join(BIN, "ocr-bench"), "tiny-tiff", "--pages", str(pages), "--out", path], check=True)


good_file = os.path.join(work, "good.tif")
tiny_tiff(good_file, 40)


def good_job_runs():
    """Another client's 40-page job, started now; returns a function that waits and judges it."""
    client = Client()
    status, response = submit(client, good_file)
    assert status.code == 0, status

    def judge():
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            _, job = client.unary("GetJob", C.GetJobRequest(job_id=response.job_id), J.Job)
            if job.state in (J.JOB_STATE_SUCCEEDED, J.JOB_STATE_PARTIAL, J.JOB_STATE_FAILED, J.JOB_STATE_CANCELLED, J.JOB_STATE_EXPIRED):
                break
            time.sleep(0.1)
        return job.state == J.JOB_STATE_SUCCEEDED and job.pages_done == 40
    return judge


probe = Probe()
rows = []


def case(name, input_bytes, attack):
    judge = good_job_runs()
    probe.reset()
    outcome = attack()
    good = judge()
    time.sleep(0.3)
    alive = coordinator.poll() is None
    growth = probe.journal_peak.value - probe.journal_base
    peak = probe.peak_kb.value
    rows.append((name, input_bytes, outcome, peak, growth, probe.worst_ms, probe.failures, good, alive))
    print(f"{name}: {outcome}; peak RSS {peak // 1024} MB; journal peak +{growth // 1024} kB; "
          f"Health worst {probe.worst_ms:.1f} ms ({probe.failures} failed); other job ok: {good}; up: {alive}", file=sys.stderr)


def status_name(code):
    from ocr.v1 import status_pb2
    return status_pb2.StatusCode.Name(code)


def show(status, response=None, extra=""):
    if status.code == 0:
        return f"OK{extra}"
    where = f", {status.file}" if status.file else ""
    where += f" page {status.page_index + 1}" if status.file and status.page_index >= 0 else ""
    return f"{status_name(status.code)}{where}{extra}"


def upload(name, cancel_after=True):
    path = os.path.join(corpus, name)

    def attack():
        client = Client()
        status, response = submit(client, path)
        extra = f" ({response.page_count} pages)" if response else ""
        if response and cancel_after:
            time.sleep(1.0)  # let pages be cut and dispatched
            client.unary("CancelJob", C.CancelJobRequest(job_id=response.job_id), J.Job)
        return show(status, response, extra)
    return attack


try:
    probe.start()
    # Wait for both workers (4 slots).
    c = Client()
    for _ in range(300):
        _, st = c.unary("ClusterStatus", C.ClusterStatusRequest(), C.ClusterStatusResponse)
        if st.total_slots >= 4:
            break
        time.sleep(0.1)
    for name in ["shared-strips.tif", "shared-image.pdf", "lying-count.pdf", "strip-past-end.tif"]:
        case(name, os.path.getsize(os.path.join(corpus, name)), upload(name))

    big = os.path.join(corpus, "big.bin.tif")
    tiny_tiff(big, 20)
    with open(big, "ab") as f:  # 200 MB: a valid TIFF with 200 MB of trailing bytes
        f.write(os.urandom(200 << 20))
    case("200 MB TIFF", os.path.getsize(big), upload("big.bin.tif"))

    def client_limit():
        options = O.RecognitionOptions(max_page_pixels=1 << 62)
        status, response = submit(Client(), good_file, name="raised.tif", options=options)
        return show(status, response, " (accepted; each worker applies its own ceiling)")
    case("max_page_pixels 2^62", os.path.getsize(good_file), client_limit)

    def stream_flood():
        flooder = Client()
        status, response = submit(flooder, good_file, name="flood.tif")
        for _ in range(2000):
            flooder.call("WatchJob", C.WatchJobRequest(job_id=response.job_id))
        refused = 0
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and refused < 2000 - 64:
            try:
                header, _ = flooder.receive(timeout=2)
            except TimeoutError:
                break
            if header.kind == R.RpcHeader.STREAM_END and header.status.code == 8:
                refused += 1
        return f"RESOURCE_EXHAUSTED for {refused} of 2000 streams (64 open per client)"
    case("2000 unread WatchJob streams", 2000 * 20, stream_flood)

    def uid_collision():
        _, st = c.unary("ClusterStatus", C.ClusterStatusRequest(), C.ClusterStatusResponse)
        victim = st.workers[0].uid
        rogue = ctx.socket(zmq.DEALER)
        rogue.setsockopt(zmq.LINGER, 0)
        rogue.connect(WORKERS)
        ready = W.WorkerMessage(ready=W.Ready(worker_uid=victim, slots=10000, heartbeat_interval_ms=4294967295, languages=["eng"]))
        rogue.send_multipart([b"OCRW01", ready.SerializeToString()])
        if not rogue.poll(5000):
            return "no answer"
        _, body = rogue.recv_multipart()
        answer = W.CoordinatorMessage()
        answer.ParseFromString(body)
        rogue.close()
        return f"Disconnect: {answer.disconnect.reason}" if answer.HasField("disconnect") else str(answer)
    case("Ready with a connected uid, 10000 slots, 2^32 ms", 0, uid_collision)

    def absurd_ready():
        rogue = ctx.socket(zmq.DEALER)
        rogue.setsockopt(zmq.LINGER, 0)
        rogue.connect(WORKERS)
        ready = W.WorkerMessage(ready=W.Ready(worker_uid=0xBAD, slots=10000, heartbeat_interval_ms=4294967295, languages=["eng"]))
        rogue.send_multipart([b"OCRW01", ready.SerializeToString()])
        rogue.poll(5000)
        _, body = rogue.recv_multipart()
        answer = W.CoordinatorMessage()
        answer.ParseFromString(body)
        held = 0
        while rogue.poll(500):  # tasks it is given, never answered
            rogue.recv_multipart()
            held += 1
        rogue.close()
        w = answer.welcome
        return f"Welcome: slots {w.slots}, heartbeat {w.heartbeat_interval_ms} ms x {w.liveness}; held {held} tasks"
    case("Ready with 10000 slots, 2^32 ms heartbeat", 0, absurd_ready)

    def idle_flood():
        conns = []
        for _ in range(1100):
            s = socket.create_connection(("127.0.0.1", cport))
            conns.append(s)
        time.sleep(2)
        status, _ = Client().unary("Health", C.HealthCheckRequest(), C.HealthCheckResponse, timeout=5)
        for s in conns:
            s.close()
        return f"Health {('SERVING' if status.code == 0 else status_name(status.code))} with 1100 idle connections open"
    case("1100 idle TCP connections", 0, idle_flood)
finally:
    probe.running.value = 0
    for w in workers:
        w.terminate()
    coordinator.terminate()
    coordinator.wait(timeout=30)
    for w in workers:
        w.wait(timeout=30)
    stop_postgresql()
    shutil.rmtree(work, ignore_errors=True)

print("| case | input bytes | answer to the offending request | coordinator peak RSS | journal + spool peak growth | slowest Health | other client's job | coordinator up |")
print("| --- | ---: | --- | ---: | ---: | ---: | --- | --- |")
for name, size, outcome, peak, jgrowth, worst, failures, good, alive in rows:
    print(f"| {name} | {size:,} | {outcome} | {peak / 1024:.0f} MB | {jgrowth / 1024:,.0f} kB | {worst:.0f} ms{' (' + str(failures) + ' failed)' if failures else ''} | {'succeeded, 40/40' if good else 'NOT succeeded'} | {'yes' if alive else 'NO'} |")
