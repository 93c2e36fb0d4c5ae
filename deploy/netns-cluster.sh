#!/usr/bin/env bash
# Runs a coordinator and workers on separate "machines" (Linux network namespaces joined by a
# bridge), so the cross-machine path (real TCP between distinct hosts, no loopback) is exercised
# on one box. Needs root and iproute2.
#
#   deploy/netns-cluster.sh [WORKERS] [FILES...]     (default 2 workers, the bundled sample)
#
# Layout: bridge ocrbr0 10.77.0.1/24 in the root namespace; ocr-coord 10.77.0.10; ocr-wN 10.77.0.(20+N).
# ocr-submit runs in the root namespace against tcp://10.77.0.10:5555. Both links use CURVE with
# allow-lists (keys made in a temporary directory), as any deployment across machines must.
# Everything is torn down on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
workers=${1:-2}; shift || true
files=("$@"); [ ${#files[@]} -gt 0 ] || files=(Tests/Fixtures/multipage.tif)
bin=${OCR_BIN:-.build/release}
[ -x "$bin/ocr-coordinator" ] || { echo "build first: swift build -c release" >&2; exit 70; }

names=(ocr-coord); for i in $(seq 1 "$workers"); do names+=("ocr-w$i"); done
pids=()
source deploy/netns-lib.sh
cleanup() {
  stop_processes 10 "${pids[@]:-}"
  for n in "${names[@]}"; do ip netns del "$n" 2>/dev/null || true; done
  ip link del ocrbr0 2>/dev/null || true
  if [ -n "${keys:-}" ]; then rm -rf "$keys"; fi
}
trap cleanup EXIT
cleanup
ip link add ocrbr0 type bridge && ip addr add 10.77.0.1/24 dev ocrbr0 && ip link set ocrbr0 up
for i in "${!names[@]}"; do
  n=${names[$i]}
  address=$(( i == 0 ? 10 : 20 + i ))
  ip netns add "$n"
  ip link add "v-$n" type veth peer name eth0 netns "$n"
  ip link set "v-$n" master ocrbr0 up
  ip -n "$n" addr add "10.77.0.$address/24" dev eth0
  ip -n "$n" link set eth0 up; ip -n "$n" link set lo up
  ip -n "$n" route add default via 10.77.0.1
done

keys=$(mktemp -d)
for k in coordinator worker client; do "$bin/ocr-coordinator" keygen "$keys/$k.key" >/dev/null; done
cat "$keys/worker.key.pub" > "$keys/workers.keys"; cat "$keys/client.key.pub" > "$keys/clients.keys"
ip netns exec ocr-coord "$bin/ocr-coordinator" --client-endpoint tcp://10.77.0.10:5555 --worker-endpoint tcp://10.77.0.10:5556 \
  --curve-secret-key "$keys/coordinator.key" --allow-client-keys "$keys/clients.keys" --allow-worker-keys "$keys/workers.keys" \
  --log-level warning &
pids+=($!)
coordinator=${pids[0]}
for i in $(seq 1 "$workers"); do
  ip netns exec "ocr-w$i" env OMP_THREAD_LIMIT=1 "$bin/ocr-worker" --coordinator tcp://10.77.0.10:5556 --slots 1 --engine tesseract \
    --curve-server-key "$keys/coordinator.key.pub" --curve-secret-key "$keys/worker.key" --log-level warning &
  pids+=($!)
done
submit() { "$bin/ocr-submit" --coordinator tcp://10.77.0.10:5555 --curve-server-key "$keys/coordinator.key.pub" --curve-secret-key "$keys/client.key" "$@"; }
# Workers load their models before they say Ready: wait (up to a minute) until all have joined.
for _ in $(seq 1 300); do
  kill -0 "$coordinator" 2>/dev/null || { echo "the coordinator exited" >&2; exit 70; }
  submit status 2>/dev/null | grep -q "^workers $workers " && break
  sleep 0.2
done
submit status
submit "${files[@]}"
submit status
