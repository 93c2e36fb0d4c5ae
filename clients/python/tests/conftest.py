"""A real coordinator and worker for the client's tests, started from the repository's build
(`OCR_CLUSTER_BIN`, default `.build/debug`): the coordinator on free loopback ports with HTTP,
one worker with Tesseract and one with the sleep engine."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import time
from pathlib import Path
from typing import Iterator, List, Optional

import pytest

ROOT = Path(__file__).resolve().parents[3]
BIN = Path(os.environ.get("OCR_CLUSTER_BIN", ROOT / ".build" / "debug"))
FIXTURES = ROOT / "Tests" / "Fixtures"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Cluster:
    """A coordinator (its log in `tmp`) with `extra` arguments and, unless `engine` is None, one
    worker of that engine."""

    def __init__(self, tmp: Path, extra: List[str], engine: Optional[str] = "tesseract") -> None:
        tmp.mkdir(parents=True, exist_ok=True)
        self.log = tmp / "coordinator.log"
        defaults = {"--client-endpoint": "tcp://127.0.0.1:*", "--worker-endpoint": "tcp://127.0.0.1:*", "--http-endpoint": "127.0.0.1:0"}
        given = dict(zip(extra[::2], extra[1::2]))
        arguments = [x for k, v in defaults.items() if k not in given for x in (k, v)] + extra
        self.coordinator = subprocess.Popen([str(BIN / "ocr-coordinator"), *arguments], stderr=self.log.open("w"),
                                            stdout=subprocess.DEVNULL)
        text = self.wait_for(r'coordinator listening" clients=(\S+) workers=(\S+)')
        self.workers_endpoint = re.search(r"workers=(\S+)", text).group(1)  # type: ignore[union-attr]
        self.clients_endpoint = re.search(r"clients=(\S+)", text).group(1)  # type: ignore[union-attr]
        self.url = re.search(r'http listening" url=(\S+)', self.log.read_text()).group(1)  # type: ignore[union-attr]
        self.workers = [subprocess.Popen([str(BIN / "ocr-worker"), "--coordinator", self.workers_endpoint, "--slots", "1",
                                          "--engine", engine, "--label", f"engine={engine.split(':')[0]}"],
                                         stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
                        for engine in ([engine] if engine else [])]
        self.wait_for("worker ready" if engine else "coordinator listening")

    def wait_for(self, pattern: str, timeout: float = 30) -> str:
        deadline = time.time() + timeout
        while time.time() < deadline:
            text = self.log.read_text()
            match = re.search(pattern, text)
            if match:
                return match.group(0)
            time.sleep(0.05)
        raise AssertionError(f"no {pattern!r} in the coordinator's log:\n{self.log.read_text()}")

    def stop(self) -> None:
        for process in [*self.workers, self.coordinator]:
            process.terminate()
        for process in [*self.workers, self.coordinator]:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


def curve_cluster(tmp: Path) -> "tuple[Cluster, bytes]":
    """A coordinator with a CURVE key of its own (`ocr-coordinator keygen`), admitting any worker
    that knows it, and no worker; and its public key (Z85)."""
    keys = tmp / "coordinator.key"
    subprocess.run([str(BIN / "ocr-coordinator"), "keygen", str(keys)], check=True, stdout=subprocess.DEVNULL)
    cluster = Cluster(tmp / "curve", ["--curve-secret-key", str(keys), "--allow-any-worker"], engine=None)
    return cluster, (tmp / "coordinator.key.pub").read_text().strip().encode()


@pytest.fixture(scope="session")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    running = Cluster(tmp_path_factory.mktemp("cluster"), [])
    yield running
    running.stop()


@pytest.fixture(scope="session")
def token_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    tmp = tmp_path_factory.mktemp("token-cluster")
    (tmp / "tokens").write_text("tester python-client-test-token-0123456789\n")
    running = Cluster(tmp, ["--http-tokens", str(tmp / "tokens")])
    yield running
    running.stop()
