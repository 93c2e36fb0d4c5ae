#!/usr/bin/env python3
"""Wire codec benchmark: OCRWire (release build) against Python's protobuf (upb) on the same bytes.

  scripts/bench_wire.py [--runs N] [--seconds S] [--no-build] [--markdown]

1. builds `ocr-wire-bench` in release; it encodes a dense PageResult (504 words with symbols and
   3-5 candidates) and writes the bytes to a temp file;
2. generates Python classes from proto/ with `protoc --python_out` into a temp dir, checks the
   backend is upb;
3. alternates N rounds: `ocr-wire-bench` times encode and decode, then Python times
   `SerializeToString` and `FromString` on exactly the same bytes;
4. prints medians, ratios, and exits 1 when a goal is missed: at least 150 MB/s each way and
   not slower than upb. MB/s is 10^6 encoded bytes per second, one thread.
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOAL_MB_S = 150.0


def upb_throughput(fn, nbytes, seconds):
    calls = 0
    start = time.perf_counter()
    while True:
        for _ in range(16):
            fn()
        calls += 16
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return nbytes * calls / elapsed / 1e6


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--seconds", type=float, default=0.4, help="minimum time per run and direction")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--markdown", action="store_true", help="also print a BENCHMARKS.md table")
    args = ap.parse_args()

    if not args.no_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "ocr-wire-bench"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    bindir = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.strip()

    with tempfile.TemporaryDirectory() as tmp:
        page_file = os.path.join(tmp, "page.bin")
        bench = [os.path.join(bindir, "ocr-wire-bench"), "--runs", "1", "--seconds", str(args.seconds)]
        subprocess.run(bench + ["--out", page_file], check=True, capture_output=True)  # warm-up, writes the page
        data = open(page_file, "rb").read()

        proto_dir = os.path.join(ROOT, "proto")
        protos = sorted(os.path.relpath(os.path.join(dp, f), proto_dir)
                        for dp, _, fs in os.walk(proto_dir) for f in fs if f.endswith(".proto"))
        subprocess.run(["protoc", f"-I{proto_dir}", f"--python_out={tmp}", *protos], check=True)
        sys.path.insert(0, tmp)
        from google.protobuf.internal import api_implementation
        assert api_implementation.Type() == "upb", f"Python protobuf backend is {api_implementation.Type()}, not upb"
        from ocr.v1 import page_pb2

        msg = page_pb2.PageResult.FromString(data)
        same_bytes = msg.SerializeToString() == data
        # Rounds alternate between the two implementations so that load from other processes on
        # a shared machine falls on both alike; each round times encode then decode.
        swift_enc, swift_dec, enc, dec = [], [], [], []
        for _ in range(args.runs):
            one = json.loads(subprocess.run(bench, check=True, capture_output=True, text=True).stdout)
            swift_enc.append(one["encode_mb_s"]["median"])
            swift_dec.append(one["decode_mb_s"]["median"])
            enc.append(upb_throughput(msg.SerializeToString, len(data), args.seconds))
            dec.append(upb_throughput(lambda: page_pb2.PageResult.FromString(data), len(data), args.seconds))
        swift = one
        swift["encode_mb_s"] = {"median": statistics.median(swift_enc), "min": min(swift_enc), "max": max(swift_enc)}
        swift["decode_mb_s"] = {"median": statistics.median(swift_dec), "min": min(swift_dec), "max": max(swift_dec)}

    import google.protobuf
    rows = [
        ("encode", swift["encode_mb_s"]["median"], statistics.median(enc)),
        ("decode", swift["decode_mb_s"]["median"], statistics.median(dec)),
    ]
    print(f"dense PageResult: {swift['bytes']} bytes, {swift['words']} words, {swift['symbols']} symbols, "
          f"{swift['candidates']} candidates; medians of {args.runs} alternating rounds of >= {args.seconds} s per direction, one thread")
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores; Python protobuf {google.protobuf.__version__} "
          f"({api_implementation.Type()}); upb re-encodes our bytes identically: {same_bytes}")
    print(f"{'':8}{'OCRWire MB/s':>14}{'upb MB/s':>12}{'ratio':>8}")
    for name, ours, upb in rows:
        print(f"{name:8}{ours:14.1f}{upb:12.1f}{ours / upb:8.2f}x")
    if args.markdown:
        print("\n| direction | OCRWire MB/s (min-max) | upb MB/s (min-max) | OCRWire / upb |\n|---|---|---|---|")
        for (name, ours, upb), o, u in zip(rows, (swift["encode_mb_s"], swift["decode_mb_s"]), (enc, dec)):
            print(f"| {name} | {ours:.0f} ({o['min']:.0f}-{o['max']:.0f}) | {upb:.0f} ({min(u):.0f}-{max(u):.0f}) "
                  f"| {ours / upb:.2f}x |")

    missed = [f"{name} {ours:.1f} MB/s is below {GOAL_MB_S:.0f} MB/s" for name, ours, _ in rows if ours < GOAL_MB_S]
    missed += [f"{name} {ours:.1f} MB/s is slower than upb's {upb:.1f} MB/s" for name, ours, upb in rows if ours < upb]
    if missed:
        print("bench-wire: GOAL MISSED: " + "; ".join(missed), file=sys.stderr)
        sys.exit(1)
    print("bench-wire: goals met (>= 150 MB/s each way, not slower than upb)")


if __name__ == "__main__":
    main()
