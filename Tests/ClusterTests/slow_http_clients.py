"""Slow HTTP clients (slowloris): opens COUNT connections to HOST:PORT, spread over SOURCES local
addresses (127.0.0.2, 127.0.0.3, ...), each sending a partial request header and then one byte
every 2 s, for SECONDS. Prints one JSON line when done: how many connections were opened, how
many the server closed, and after how long each was closed (seconds from its opening).

    slow_http_clients.py HOST PORT COUNT SOURCES SECONDS
"""
import json
import select
import socket
import sys
import time

host, port, count, sources, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
opened = {}
closed_after = []
for i in range(count):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((f"127.0.0.{2 + i % sources}", 0))
    try:
        s.connect((host, port))
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        opened[s] = time.monotonic()
    except OSError:
        s.close()
print(json.dumps({"event": "opened", "opened": len(opened)}), flush=True)
end = time.monotonic() + seconds
next_byte = time.monotonic() + 2
while time.monotonic() < end and opened:
    readable, _, _ = select.select(list(opened), [], [], 0.2)
    for s in readable:
        try:
            data = s.recv(4096)
        except OSError:
            data = b""
        if not data:
            closed_after.append(round(time.monotonic() - opened.pop(s), 2))
            s.close()
    if time.monotonic() >= next_byte:
        next_byte += 2
        for s in list(opened):
            try:
                s.send(b"X")
            except OSError:
                closed_after.append(round(time.monotonic() - opened.pop(s), 2))
                s.close()
print(json.dumps({"event": "done", "opened": len(opened) + len(closed_after), "closed": len(closed_after),
                  "closed_after": sorted(closed_after), "still_open": len(opened)}), flush=True)
