#!/usr/bin/env python3
"""Point-to-point links between network namespaces, carried by this process, with delay and loss.

    linkem.py [--delay-ms MS] [--loss FRACTION] [--seed N] NS_A:IF_A=NS_B:IF_B ...

Each link is a pair of TUN devices, IF_A in namespace NS_A and IF_B in NS_B (both made here, then
addressed and raised by the caller with `ip -n NS ...`). Every IP packet one side sends is read
here and written into the other side after `--delay-ms`, unless it is dropped (probability
`--loss`); both directions are impaired, so the round trip gains twice the delay. Cutting a link
is `ip -n NS link set IF down` (the kernel stops routing into it, writes into it fail); raising
it again restores it.

This stands in for `tc qdisc add ... netem delay 50ms loss 1%` where the kernel has no sch_netem
(deploy/netns-faults.sh uses real netem when it can, and this process only forwards then). It
prints "ready" on stdout once every device exists, and runs until SIGTERM or SIGINT.
"""
import argparse
import ctypes
import fcntl
import heapq
import os
import random
import select
import signal
import struct
import sys
import time

TUNSETIFF = 0x400454CA
IFF_TUN = 0x0001
IFF_NO_PI = 0x1000
CLONE_NEWNET = 0x40000000

libc = ctypes.CDLL("libc.so.6", use_errno=True)


def enter(namespace_fd):
    if libc.setns(namespace_fd, CLONE_NEWNET) != 0:
        raise OSError(ctypes.get_errno(), "setns")


def make_tun(namespace, name, home):
    """Creates TUN device `name` in `namespace` (by its /run/netns name); returns its fd."""
    target = os.open(f"/run/netns/{namespace}", os.O_RDONLY)
    try:
        enter(target)
        fd = os.open("/dev/net/tun", os.O_RDWR | os.O_NONBLOCK)
        fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", name.encode(), IFF_TUN | IFF_NO_PI))
        return fd
    finally:
        enter(home)
        os.close(target)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay-ms", type=float, default=0.0)
    parser.add_argument("--loss", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("links", nargs="+", metavar="NS_A:IF_A=NS_B:IF_B")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    home = os.open("/proc/self/ns/net", os.O_RDONLY)
    peer = {}
    for spec in args.links:
        a, b = spec.split("=")
        fa = make_tun(*a.split(":"), home)
        fb = make_tun(*b.split(":"), home)
        peer[fa], peer[fb] = fb, fa
    print("ready", flush=True)

    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    delay = args.delay_ms / 1000.0
    due = []  # (time, sequence, fd, packet)
    sequence = 0
    fds = list(peer)
    while not stop:
        timeout = max(0.0, due[0][0] - time.monotonic()) if due else 0.5
        try:
            readable, _, _ = select.select(fds, [], [], timeout)
        except InterruptedError:
            continue
        now = time.monotonic()
        for fd in readable:
            while True:
                try:
                    packet = os.read(fd, 65536)
                except (BlockingIOError, OSError):
                    break
                if args.loss > 0 and rng.random() < args.loss:
                    continue
                sequence += 1
                heapq.heappush(due, (now + delay, sequence, peer[fd], packet))
        now = time.monotonic()
        while due and due[0][0] <= now:
            _, _, fd, packet = heapq.heappop(due)
            try:
                os.write(fd, packet)
            except OSError:
                pass  # the link is down: the packet is lost, as on a cut cable


if __name__ == "__main__":
    sys.exit(main())
