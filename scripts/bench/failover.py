#!/usr/bin/env python3
"""Failover time of coordinators sharing a PostgreSQL journal (issue 29), for `make bench`.

Two real `ocr-coordinator --journal postgresql://...` processes (one leads, one stands by), two
real workers given both worker endpoints (`--engine sleep:MS`), and per trial: a job of PAGES
tiny pages submitted with `ocr-submit --detach`, followed by `ocr-submit watch` (both client
endpoints); once some pages are done the leader gets SIGKILL, and we measure
  - kill -> the first page the new leader dispatches (the journal's `dispatched` row of the job
    with the earliest wall-clock time after the kill: the new leader writes it before it sends
    the task), and
  - kill -> the watcher's next page event (its next stdout line).
The killed coordinator is restarted (it stands by) and the next trial kills the new leader.
Also checks that every job finished with every page recorded once.

usage: failover.py BIN_DIR POSTGRES_URI [--trials 10] [--pages 400] [--sleep-ms 50]
Prints one JSON line: {"bench": "failover", ...}.
"""
import argparse
import calendar
import json
import shutil
import signal
import socket
import statistics
import subprocess
import tempfile
import threading
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def psql(uri, sql):
    return subprocess.run(["psql", "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql, uri],
                          check=True, capture_output=True, text=True).stdout.strip()


def wait_for(path, text, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        with open(path, errors="replace") as f:
            if text in f.read():
                return
        time.sleep(0.02)
    raise SystemExit(f"failover: '{text}' not in {path} after {timeout} s:\n" + open(path, errors="replace").read()[-3000:])


class Watcher:
    """`ocr-submit watch JOB`, its stdout lines with the time each arrived."""

    def __init__(self, bin_dir, endpoints, job):
        self.lines = []
        self.process = subprocess.Popen([f"{bin_dir}/ocr-submit", "--coordinator", endpoints, "watch", job],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        for line in self.process.stdout:
            self.lines.append((time.time(), line.strip()))

    def done_pages(self):
        return sum(1 for _, line in self.lines if line.startswith("page ") and " done" in line)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bin")
    parser.add_argument("uri")
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--pages", type=int, default=400)
    parser.add_argument("--sleep-ms", type=int, default=50)
    parser.add_argument("--lease-ms", type=int, default=5000)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="ocr-failover-")
    tiff = f"{work}/tiny.tif"
    subprocess.run([f"{args.bin}/ocr-bench", "tiny-tiff", "--pages", str(args.pages), "--out", tiff], check=True)

    ports = set()
    while len(ports) < 4:
        ports.add(free_port())
    ports = sorted(ports)
    clients = [f"tcp://127.0.0.1:{ports[0]}", f"tcp://127.0.0.1:{ports[1]}"]
    workers_ep = [f"tcp://127.0.0.1:{ports[2]}", f"tcp://127.0.0.1:{ports[3]}"]
    coordinators = [None, None]
    logs = [f"{work}/coordinator-0.log", f"{work}/coordinator-1.log"]

    def start(i):
        log = open(logs[i], "a")
        coordinators[i] = subprocess.Popen(
            [f"{args.bin}/ocr-coordinator", "--journal", args.uri, "--leader-lease-ms", str(args.lease_ms),
             "--client-endpoint", clients[i], "--worker-endpoint", workers_ep[i], "--http-endpoint", "none"],
            stdout=subprocess.DEVNULL, stderr=log)

    start(0)
    wait_for(logs[0], "coordinator listening")
    start(1)
    wait_for(logs[1], "standing by")
    workers = [subprocess.Popen([f"{args.bin}/ocr-worker", "--coordinator", ",".join(workers_ep), "--slots", "2",
                                 "--engine", f"sleep:{args.sleep_ms}", "--log-level", "warning"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(2)]
    leader = 0
    dispatch, event, takeover, problems = [], [], [], []
    try:
        for trial in range(args.trials):
            time.sleep(1.0)  # the workers (re)joined the leader
            submitted = subprocess.run([f"{args.bin}/ocr-submit", "--coordinator", ",".join(clients), "--detach", "-q", tiff],
                                       capture_output=True, text=True, timeout=60)
            if submitted.returncode != 0:
                raise SystemExit(f"failover: submit failed: {submitted.stderr}")
            job = submitted.stdout.strip().split()[-1]
            watcher = Watcher(args.bin, ",".join(clients), job)
            deadline = time.time() + 60
            while watcher.done_pages() < args.pages // 10 and time.time() < deadline:
                time.sleep(0.005)
            lines_before = len(watcher.lines)
            killed_at = time.time()
            coordinators[leader].send_signal(signal.SIGKILL)
            coordinators[leader].wait()
            other = 1 - leader
            try:
                watcher.process.wait(timeout=120)
            except subprocess.TimeoutExpired:
                watcher.process.kill()
                problems.append(f"trial {trial}: the job did not finish")
            killed_us = int(killed_at * 1_000_000)
            first = psql(args.uri, f"SELECT min(at_us) FROM ocr_changes WHERE kind = 2 AND job = '{job}' AND at_us > {killed_us}")
            if first:
                dispatch.append((int(first) - killed_us) / 1e6)
            else:
                problems.append(f"trial {trial}: no page dispatched after the kill")
            after = [t for t, line in watcher.lines[lines_before:] if line.startswith("page ")]
            if after:
                event.append(after[0] - killed_at)
            recorded = psql(args.uri, f"SELECT count(*) || ' ' || count(DISTINCT page) FROM ocr_changes WHERE kind = 4 AND job = '{job}'")
            if recorded != f"{args.pages} {args.pages}":
                problems.append(f"trial {trial}: job {job} has {recorded} page results (rows, pages); expected {args.pages} once each")
            if not watcher.lines or "SUCCEEDED" not in watcher.lines[-1][1]:
                problems.append(f"trial {trial}: the watcher ended with {watcher.lines[-1:] }")
            with open(logs[other], errors="replace") as f:
                leading = [l for l in f if "msg=leading" in l]
            if leading:
                ts = leading[-1].split()[0].removeprefix("ts=")
                led = calendar.timegm(time.strptime(ts[:19], "%Y-%m-%dT%H:%M:%S")) + float("0" + ts[19:-1])
                takeover.append(led - killed_at)
            start(leader)  # back as a standby
            wait_for(logs[leader], "standing by")
            leader = other
    finally:
        for p in workers + [c for c in coordinators if c]:
            p.send_signal(signal.SIGTERM)
        for p in workers + [c for c in coordinators if c]:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(work, ignore_errors=True)

    def summary(values):
        return {"p50": statistics.median(values), "max": max(values), "all": [round(v, 3) for v in values]} if values else None

    print(json.dumps({"bench": "failover", "trials": args.trials, "pages": args.pages, "sleep_ms": args.sleep_ms,
                      "lease_ms": args.lease_ms, "dispatch_s": summary(dispatch), "event_s": summary(event),
                      "takeover_s": summary(takeover), "problems": problems}))


if __name__ == "__main__":
    main()
