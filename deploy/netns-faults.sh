#!/usr/bin/env bash
# Faults across machines: a coordinator host and two worker hosts (network namespaces), the
# worker links impaired with 50 ms delay and 1% loss each way, then one worker host's link cut
# mid-job and restored. Needs root and iproute2; python3 for the link carrier.
#
#   deploy/netns-faults.sh [--runs "clean impaired cut"] [PAGES_PER_RUN]
#                                    (default: all three runs, 480 pages, the sleep engine at 100 ms a page)
#
# Each run on a freshly started cluster (2 workers x 2 slots, CURVE on both links):
#   clean     the same links with no delay and no loss (the reference)
#   impaired  50 ms delay and 1% loss in each direction (round trip +100 ms)
#   cut       impaired, and worker 1's link set down for 6 s a third of the way in, then up:
#             the job must finish with every page, and worker 1 must rejoin
# It prints one "run=NAME key=value ..." line per run and, when both clean and impaired ran, a last
# line "throughput_ratio=R" (impaired pages/s over clean pages/s; `make bench` checks it against
# its 95% goal). It exits 1 unless every run returned every page once, in order, with exit 0, and
# the cut worker rejoined.
#
# Links: each worker host reaches the coordinator host over its own point-to-point link carried
# by deploy/linkem.py (a pair of TUN devices). Delay and loss come from `tc qdisc ... netem` on
# those devices when the kernel has sch_netem, else from linkem.py itself (named in the output:
# impairment=netem or impairment=linkem).
set -euo pipefail
cd "$(dirname "$0")/.."
runs="clean impaired cut"
if [ "${1:-}" = --runs ]; then runs=$2; shift 2; fi
pages=${1:-480}
bin=${OCR_BIN:-.build/release}
[ -x "$bin/ocr-coordinator" ] || { echo "build first: swift build -c release" >&2; exit 70; }
sample=Tests/Fixtures/multipage.tif   # 3 pages
files=(); for _ in $(seq 1 $(( (pages + 2) / 3 ))); do files+=("$sample"); done
pages=$(( ${#files[@]} * 3 ))
names=(ocr-fc ocr-f1 ocr-f2)
work=$(mktemp -d)
pids=()

source deploy/netns-lib.sh
teardown() {
  stop_processes 5 "${pids[@]:-}"
  pids=()
  for n in "${names[@]}"; do ip netns del "$n" 2>/dev/null || true; done
}
trap 'teardown; rm -rf "$work"' EXIT
teardown

for k in coordinator worker client; do "$bin/ocr-coordinator" keygen "$work/$k.key" >/dev/null; done
cp "$work/worker.key.pub" "$work/workers.keys"; cp "$work/client.key.pub" "$work/clients.keys"

netem_works() {
  ip netns add ocr-probe-netem
  ip -n ocr-probe-netem link set lo up
  local ok=0
  ip netns exec ocr-probe-netem tc qdisc add dev lo root netem delay 1ms 2>/dev/null && ok=1
  ip netns del ocr-probe-netem
  [ "$ok" = 1 ]
}
if netem_works; then impairment=netem; else impairment=linkem; fi

# start DELAY_MS LOSS: namespaces, links, coordinator, two workers; waits until both joined.
start() {
  local delay=$1 loss=$2
  for n in "${names[@]}"; do ip netns add "$n"; ip -n "$n" link set lo up; done
  local carrier=(--delay-ms "$delay" --loss "$loss" --seed 7)
  [ "$impairment" = netem ] && carrier=()
  python3 deploy/linkem.py "${carrier[@]}" ocr-fc:lk1=ocr-f1:lk0 ocr-fc:lk2=ocr-f2:lk0 >"$work/linkem.out" &
  pids+=($!)
  for _ in $(seq 1 100); do grep -q ready "$work/linkem.out" 2>/dev/null && break; sleep 0.05; done
  grep -q ready "$work/linkem.out" || { echo "linkem did not start" >&2; exit 70; }
  for i in 1 2; do
    ip -n ocr-fc addr add "10.79.$i.1" peer "10.79.$i.2" dev "lk$i"; ip -n ocr-fc link set "lk$i" up
    ip -n "ocr-f$i" addr add "10.79.$i.2" peer "10.79.$i.1" dev lk0; ip -n "ocr-f$i" link set lk0 up
    if [ "$impairment" = netem ] && [ "$delay" != 0 ]; then
      ip netns exec ocr-fc tc qdisc add dev "lk$i" root netem delay "${delay}ms" loss "$(python3 -c "print($loss*100)")%"
      ip netns exec "ocr-f$i" tc qdisc add dev lk0 root netem delay "${delay}ms" loss "$(python3 -c "print($loss*100)")%"
    fi
  done
  ip netns exec ocr-fc "$bin/ocr-coordinator" --client-endpoint tcp://127.0.0.1:5555 --worker-endpoint tcp://0.0.0.0:5556 \
    --curve-secret-key "$work/coordinator.key" --allow-client-keys "$work/clients.keys" --allow-worker-keys "$work/workers.keys" \
    --log-level warning 2>"$work/coordinator.err" &
  pids+=($!)
  coordinator=$!
  for i in 1 2; do
    ip netns exec "ocr-f$i" "$bin/ocr-worker" --coordinator "tcp://10.79.$i.1:5556" --slots 2 --engine sleep:100 \
      --curve-server-key "$work/coordinator.key.pub" --curve-secret-key "$work/worker.key" --log-level warning 2>"$work/worker$i.err" &
    pids+=($!)
  done
  for _ in $(seq 1 300); do
    kill -0 "$coordinator" 2>/dev/null || { cat "$work/coordinator.err" >&2; echo "the coordinator exited" >&2; exit 70; }
    submit status 2>/dev/null | grep -q "^workers 2 " && return 0
    sleep 0.2
  done
  echo "the workers did not join" >&2; exit 70
}

submit() {
  ip netns exec ocr-fc "$bin/ocr-submit" --coordinator tcp://127.0.0.1:5555 --curve-server-key "$work/coordinator.key.pub" \
    --curve-secret-key "$work/client.key" "$@"
}

# check FILE: every page once, in order, none missing.
check_pages() {
  python3 - "$1" "$pages" <<'EOF'
import json, sys
document = json.load(open(sys.argv[1]))
indexes = [p["pageIndex"] for p in document["pages"]]
ok = indexes == list(range(int(sys.argv[2]))) and not document.get("gaps")
print("yes" if ok else f"no (got {len(indexes)} pages, first wrong at {next((i for i, x in enumerate(indexes) if x != i), len(indexes))}, gaps {document.get('gaps')})")
EOF
}

# run NAME DELAY_MS LOSS [cut]: prints "run=NAME pages=N seconds=S pages_per_s=P status=X in_order=yes|no".
run() {
  local name=$1 delay=$2 loss=$3 cut=${4:-}
  start "$delay" "$loss"
  local began ended status=0
  began=$(date +%s.%N)
  submit --quiet -f json -o "$work/$name.json" "${files[@]}" 2>"$work/$name.err" &
  local job=$!
  if [ -n "$cut" ]; then
    # A third of the way in (100 ms pages on 4 slots), cut worker 1's host off for 6 s: longer
    # than the coordinator's 3 s liveness, so its pages go to worker 2; then restore the link.
    sleep "$(python3 -c "print($pages * 0.1 / 4 / 3)")"
    ip -n ocr-f1 link set lk0 down
    sleep 6
    ip -n ocr-f1 link set lk0 up
    ip -n ocr-f1 route replace 10.79.1.1 dev lk0 2>/dev/null || true
  fi
  wait "$job" || status=$?
  ended=$(date +%s.%N)
  local rejoined=-
  if [ -n "$cut" ]; then
    rejoined=no
    for _ in $(seq 1 75); do submit status 2>/dev/null | grep -q "^workers 2 " && { rejoined=yes; break; }; sleep 0.2; done
  fi
  local seconds; seconds=$(python3 -c "print(f'{$ended - $began:.3f}')")
  local ordered=no; [ -s "$work/$name.json" ] && ordered=$(check_pages "$work/$name.json")
  echo "run=$name impairment=$impairment delay_ms=$delay loss=$loss pages=$pages seconds=$seconds" \
       "pages_per_s=$(python3 -c "print(f'{$pages / ($ended - $began):.2f}')") status=$status in_order=$ordered rejoined=$rejoined"
  [ "$status" = 0 ] || sed 's/^/  ocr-submit: /' "$work/$name.err" >&2
  eval "${name}_seconds=$seconds ${name}_status=$status ${name}_ordered='$ordered' ${name}_rejoined=$rejoined"
  teardown
}

ok=1
for r in $runs; do
  case $r in
    clean) run clean 0 0 ;;
    impaired) run impaired 50 0.01 ;;
    cut) run cut 50 0.01 cut
         [ "$cut_rejoined" = yes ] || { echo "worker 1 did not rejoin after its link came back" >&2; ok=0; } ;;
    *) echo "unknown run '$r' (clean, impaired, cut)" >&2; exit 64 ;;
  esac
  eval "s=\$${r}_status o=\$${r}_ordered"
  [ "$s" = 0 ] && [ "$o" = yes ] || { echo "run $r: exit $s, pages in order: $o" >&2; ok=0; }
done
if [ -n "${clean_seconds:-}" ] && [ -n "${impaired_seconds:-}" ]; then
  echo "throughput_ratio=$(python3 -c "print(f'{$clean_seconds / $impaired_seconds:.3f}')")"
fi
[ "$ok" = 1 ]
