# Sourced by scripts/bench.sh: start and stop real coordinator and worker processes on loopback.
# start_coordinator [args...]: sets COORD_PID, CLIENT_EP, WORKER_EP.
# start_workers N SLOTS ENGINE [args...]: appends to WORKER_PIDS.
# stop_cluster: SIGTERM to what we started (by pid), then wait.

BIN=${BIN:-.build/release}
WORKER_PIDS=()

start_coordinator() {
	local log
	log=$(mktemp "${BENCH_TMP:-/tmp}/coordinator.XXXX.log")
	"$BIN/ocr-coordinator" --client-endpoint 'tcp://127.0.0.1:*' --worker-endpoint 'tcp://127.0.0.1:*' --http-endpoint none \
		--log-level info "$@" 2>"$log" &
	COORD_PID=$!
	COORD_LOG=$log
	local i
	for i in $(seq 1 200); do
		if grep -q 'coordinator listening' "$log"; then break; fi
		sleep 0.05
	done
	CLIENT_EP=$(grep -o 'clients=[^ ]*' "$log" | head -1 | cut -d= -f2)
	WORKER_EP=$(grep -o 'workers=[^ ]*' "$log" | head -1 | cut -d= -f2)
	[ -n "$CLIENT_EP" ] || { echo "bench: the coordinator did not start:" >&2; cat "$log" >&2; return 1; }
}

start_workers() {
	local n=$1 slots=$2 engine=$3
	shift 3
	local i
	for i in $(seq 1 "$n"); do
		"$BIN/ocr-worker" --coordinator "$WORKER_EP" --slots "$slots" --engine "$engine" --log-level warning "$@" \
			2>>"${BENCH_TMP:-/tmp}/workers.log" &
		WORKER_PIDS+=($!)
	done
}

stop_cluster() {
	local pid
	for pid in "${WORKER_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
	for pid in "${WORKER_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
	WORKER_PIDS=()
	if [ -n "${COORD_PID:-}" ]; then
		kill -TERM "$COORD_PID" 2>/dev/null || true
		wait "$COORD_PID" 2>/dev/null || true
		COORD_PID=
	fi
}
