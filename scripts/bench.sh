#!/usr/bin/env bash
# make bench: every performance figure of issues 2, 3 and 5 side by side in one run, written to
# BENCHMARKS.md with PNG charts under bench/. Exits non-zero, naming the goal, when one is missed.
#   BENCH_QUICK=1   a smoke run (< 5 minutes): fewer pages and repetitions
#   BENCH_ONLY="peers engine null scale first memory faults pdf wire failover"   run a subset (the report covers what ran)
#   BENCH_APPEND=1  keep bench/results.jsonl and add this run's rows (with BENCH_ONLY: the report takes each
#                   figure from the latest run that measured it, and says which sections came from which run)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH
QUICK=${BENCH_QUICK:-0}
ONLY=${BENCH_ONLY:-peers engine null scale first memory faults pdf wire failover}
BIN=.build/release
RESULTS=bench/results.jsonl
BENCH_TMP=$(mktemp -d /tmp/ocr-bench.XXXXXX)
export BENCH_TMP BIN
source scripts/bench/cluster.sh
source scripts/bench/pdfout.sh
source scripts/bench/postgres.sh
started=$(date +%s)
trap 'stop_cluster; stop_postgres; rm -rf "$BENCH_TMP"' EXIT
mkdir -p bench
[ "${BENCH_APPEND:-0}" = 1 ] || : >"$RESULTS"

say() { echo "bench: $*" >&2; }
# proc_cpu PID: the process's user + system CPU seconds so far.
proc_cpu() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.3f", ($14 + $15) / hz}' "/proc/$1/stat"; }
wants() { [[ " $ONLY " == *" $1 "* ]]; }
record() { cat >>"$RESULTS"; }   # JSON lines on stdin
now() { date +%s.%N; }
# json KEY=VALUE...: one JSON object (values that look like numbers stay numbers).
json() { python3 -c 'import json,sys
d={}
for a in sys.argv[1:]:
    k,v=a.split("=",1)
    try: v=float(v) if any(c in v for c in ".eE") else int(v)
    except ValueError: pass
    d[k]=v
print(json.dumps(d))' "$@"; }

if [ "$QUICK" = 1 ]; then
	PEER_PAGES=4; REPEAT=1; CLI_RUNS=1; NULL_PAGES=5000; NULL_RUNS=1; LAT_COUNT=300
	SCALE_SLEEP=250; SCALE_PER_CONN=6; FIRST_RUNS=1; MEM_SIZES=100,1000,5000
else
	PEER_PAGES=28; REPEAT=5; CLI_RUNS=3; NULL_PAGES=20000; NULL_RUNS=3; LAT_COUNT=2000
	SCALE_SLEEP=500; SCALE_PER_CONN=10; FIRST_RUNS=3; MEM_SIZES=100,1000,5000
fi

say "building release"
swift build -c release >"$BENCH_TMP/build.log" 2>&1 || { cat "$BENCH_TMP/build.log" >&2; exit 1; }

# The machine, the tools and the exact settings, for the report.
json bench=machine cores="$(nproc)" cpu="$(lscpu | sed -n 's/^Model name: *//p' | head -1)" \
	mem_gb="$(free -g | awk '/Mem:/ {print $2}')" kernel="$(uname -r)" \
	tesseract="$(tesseract --version 2>&1 | head -1)" swift="$(swift --version 2>&1 | grep -o 'Swift version [^ ]*' | head -1)" \
	ocrmypdf="$(ocrmypdf --version 2>/dev/null || echo missing)" commit="$(git rev-parse --short HEAD)" \
	quick="$QUICK" peer_pages="$PEER_PAGES" repeat="$REPEAT" loadavg="$(cut -d" " -f1-3 /proc/loadavg)" only="$ONLY" | record

# The pages: the first PEER_PAGES pages of the real 28-page scan (all of it in a full run; the issue
# asks for at least 20), rewritten with the 300 dpi the scan really has (its DPI tag says 72), G4 as
# a bilevel scan is stored; one multipage TIFF (the cluster, the in-process engines), one file per
# page (tesseract loops) and a PDF (OCRmyPDF). A shorter scan (the bundled 3-page sample, when
# it is absent) is repeated up to PEER_PAGES pages.
SCAN=Tests/Fixtures/real/multipage/aim916.tiff
[ -f "$SCAN" ] || SCAN=Tests/Fixtures/multipage.tif
[ -f "$SCAN" ] || { say "no multipage scan found (Tests/Fixtures/real/multipage/aim916.tiff)"; exit 1; }
P=$BENCH_TMP/pages
python3 scripts/bench/pages.py "$SCAN" "$PEER_PAGES" "$P" | record
img2pdf -o "$P/pages.pdf" "$P/pages.tif" 2>/dev/null || say "img2pdf failed: OCRmyPDF is skipped"

# Runs "$@" and records its wall time under name=$1's label.
timed() {
	local label=$1 run=$2
	shift 2
	local t0 t1
	t0=$(now)
	"$@"
	t1=$(now)
	json bench=peer label="$label" run="$run" pages="$PEER_PAGES" seconds="$(echo "$t1 - $t0" | bc -l)" | record
}

if wants peers; then
	say "(1) throughput vs peers on $PEER_PAGES pages, $REPEAT run(s) each"
	CLUSTER_CMD="ocr-submit --coordinator \$EP --quiet -o out.txt pages.tif   # workers: ocr-worker --slots 2 --engine tesseract"
	start_coordinator
	start_workers 1 2 tesseract
	"$BIN/ocr-bench" wait --client "$CLIENT_EP" --slots 2
	for run in $(seq 1 "$REPEAT"); do
		timed cluster "$run" "$BIN/ocr-submit" --coordinator "$CLIENT_EP" --quiet -o "$BENCH_TMP/a.txt" "$P/pages.tif"
		timed xargs "$run" bash -c "ls $P/single/*.tif | OMP_THREAD_LIMIT=1 xargs -P 2 -I{} tesseract {} {}.b quiet"
		[ -f "$P/pages.pdf" ] && command -v ocrmypdf >/dev/null && timed ocrmypdf "$run" bash -c "ocrmypdf --jobs 2 --output-type none --sidecar $BENCH_TMP/d.txt $P/pages.pdf - >/dev/null 2>&1"
		"$BIN/ocr-bench" engines --file "$P/pages.tif" --threads 2 --out "$BENCH_TMP/e" | sed "s/}\$/, \"run\": $run}/" | record
		# (c) takes 12x the others (about 3 minutes for 28 pages): one run shows where it stands.
		[ "$run" -le 1 ] || continue
		timed tesseract-defaults "$run" bash -c "unset OMP_THREAD_LIMIT; for f in $P/single/*.tif; do tesseract \$f \$f.c quiet; done"
	done
	stop_cluster
	same_bc=$(python3 scripts/bench/sametext.py "$P"/single/*.b.txt -- "$P"/single/*.c.txt)
	same_ae=$(python3 scripts/bench/sametext.py "$BENCH_TMP/a.txt" -- "$BENCH_TMP"/e/*.txt)
	same_ab=$(python3 scripts/bench/sametext.py "$BENCH_TMP/a.txt" -- "$P"/single/*.b.txt)
	json bench=peer-commands same_text_b_c="$same_bc" same_text_a_e="$same_ae" same_text_a_b="$same_ab" \
		a="$CLUSTER_CMD" \
		b="ls single/*.tif | OMP_THREAD_LIMIT=1 xargs -P 2 -I{} tesseract {} {}.b quiet" \
		c="for f in single/*.tif; do tesseract \$f \$f.c quiet; done   # OMP_THREAD_LIMIT unset" \
		d="img2pdf -o pages.pdf pages.tif; ocrmypdf --jobs 2 --output-type none --sidecar d.txt pages.pdf -" \
		e="ocr-bench engines --file pages.tif --threads 2   # two warm OCREngine EngineThreads, pages interleaved" | record
fi

if wants engine; then
	say "issue 3: engine vs tesseract CLI per page"
	T=Tests/Fixtures/real
	if [ "$QUICK" = 1 ]; then files=("$T/unlv-isri/phototest.tif" "$P/single/page-000.tif")
	else files=("$T/unlv-isri/phototest.tif" "$T/unlv-isri/eurotext.tif" "$T/unlv-isri/8071_093.3B.tif" "$P/single/page-000.tif"); fi
	"$BIN/ocr-bench" engine-vs-cli --runs "$CLI_RUNS" --cer-file "$T/unlv-isri/8071_093.3B.tif" \
		--cer-truth "$T/unlv-isri/8071_093.3B.txt" "${files[@]}" | record
fi

if wants null; then
	say "(2) protocol overhead: null engine, one client, two worker processes"
	start_coordinator
	start_workers 2 2 null
	"$BIN/ocr-bench" wait --client "$CLIENT_EP" --slots 4
	# The coordinator's own CPU per page task (user + system, /proc/PID/stat), over the null runs
	# and their warm-up job of 200 pages.
	cpu0=$(proc_cpu "$COORD_PID")
	"$BIN/ocr-bench" null --client "$CLIENT_EP" --pages "$NULL_PAGES" --runs "$NULL_RUNS" --slots 4 | record
	cpu1=$(proc_cpu "$COORD_PID")
	json bench=null-coordinator-cpu pages=$((NULL_PAGES * NULL_RUNS + 200)) cpu_s="$(echo "$cpu1 - $cpu0" | bc -l)" \
		us_per_page_task="$(echo "1000000 * ($cpu1 - $cpu0) / ($NULL_PAGES * $NULL_RUNS + 200)" | bc -l)" | record
	"$BIN/ocr-bench" latency --client "$CLIENT_EP" --count "$LAT_COUNT" --slots 4 | record
	t0=$(now)
	"$BIN/ocr-bench" tiny-tiff --pages 5000 --out "$BENCH_TMP/tiny5000.tif"
	t0=$(now)
	"$BIN/ocr-submit" --coordinator "$CLIENT_EP" --quiet -o /dev/null "$BENCH_TMP/tiny5000.tif"
	t1=$(now)
	json bench=null-ocr-submit pages=5000 seconds="$(echo "$t1 - $t0" | bc -l)" | record
	stop_cluster
	# The same with a fixed deep credit window from the start, beside the default adaptive one.
	start_coordinator --prefetch 16
	start_workers 2 2 null
	"$BIN/ocr-bench" null --client "$CLIENT_EP" --pages "$NULL_PAGES" --runs "$NULL_RUNS" --slots 4 | sed 's/}$/, "prefetch": 16}/' | record
	"$BIN/ocr-bench" latency --client "$CLIENT_EP" --count "$LAT_COUNT" --slots 4 | sed 's/}$/, "prefetch": 16}/' | record
	stop_cluster
	# Durability: the same with the SQLite journal (--journal), and with one fsync per commit.
	for sync in normal full; do
		start_coordinator --journal "$BENCH_TMP/journal-$sync.db" --journal-sync "$sync"
		start_workers 2 2 null
		"$BIN/ocr-bench" null --client "$CLIENT_EP" --pages "$NULL_PAGES" --runs "$NULL_RUNS" --slots 4 | sed "s/}\$/, \"journal\": \"$sync\"}/" | record
		"$BIN/ocr-bench" latency --client "$CLIENT_EP" --count "$LAT_COUNT" --slots 4 | sed "s/}\$/, \"journal\": \"$sync\"}/" | record
		stop_cluster
		rm -rf "$BENCH_TMP/journal-$sync.db"*   # the journal, its WAL and its spool directory
	done
	# And with the journal in PostgreSQL (a server of our own on loopback, fsync on), as
	# coordinators that fail over run it.
	start_postgres
	start_coordinator --journal "$PG_URI"
	start_workers 2 2 null
	"$BIN/ocr-bench" null --client "$CLIENT_EP" --pages "$NULL_PAGES" --runs "$NULL_RUNS" --slots 4 | sed 's/}$/, "journal": "postgresql"}/' | record
	"$BIN/ocr-bench" latency --client "$CLIENT_EP" --count "$LAT_COUNT" --slots 4 | sed 's/}$/, "journal": "postgresql"}/' | record
	stop_cluster
	stop_postgres
fi

if wants failover; then
	say "(29) failover: two coordinators on one PostgreSQL journal, the leader killed mid-job"
	start_postgres
	if [ "$QUICK" = 1 ]; then FAILOVER_TRIALS=3; JOURNAL_RUNS=1; else FAILOVER_TRIALS=10; JOURNAL_RUNS=3; fi
	python3 scripts/bench/failover.py "$BIN" "$PG_URI" --trials "$FAILOVER_TRIALS" | record
	# Real pages (the scan of (1)) with two workers of one slot each, on each journal, the runs
	# interleaved: what PostgreSQL's commits cost a real job.
	for run in $(seq 1 "$JOURNAL_RUNS"); do
		for journal in memory sqlite postgresql; do
			case $journal in
				memory) start_coordinator ;;
				sqlite) start_coordinator --journal "$BENCH_TMP/real-journal.db" ;;
				postgresql) start_coordinator --journal "$PG_URI" ;;
			esac
			start_workers 2 1 tesseract
			"$BIN/ocr-bench" wait --client "$CLIENT_EP" --slots 2
			t0=$(now)
			"$BIN/ocr-submit" --coordinator "$CLIENT_EP" --quiet -o "$BENCH_TMP/journal-real.txt" "$P/pages.tif"
			t1=$(now)
			json bench=journal-real journal="$journal" run="$run" pages="$PEER_PAGES" seconds="$(echo "$t1 - $t0" | bc -l)" | record
			stop_cluster
			rm -rf "$BENCH_TMP/real-journal.db"*
		done
	done
	stop_postgres
fi

if wants scale; then
	say "(3) scale: simulated sleep-engine worker connections"
	start_coordinator
	"$BIN/ocr-bench" scale --client "$CLIENT_EP" --worker "$WORKER_EP" --pid "$COORD_PID" \
		--connections 50,100,200,400 --sleep-ms "$SCALE_SLEEP" --pages-per-connection "$SCALE_PER_CONN" | record
	stop_cluster
fi

if wants first; then
	say "(4) latency to the first page of a 100-page job"
	start_coordinator
	start_workers 1 2 tesseract
	"$BIN/ocr-bench" first-page --client "$CLIENT_EP" --file "$P/hundred.tif" --runs "$FIRST_RUNS" --slots 2 | record
	stop_cluster
fi

if wants memory; then
	say "(5) coordinator memory vs job size"
	start_coordinator
	start_workers 2 2 null
	"$BIN/ocr-bench" memory --client "$CLIENT_EP" --pid "$COORD_PID" --sizes "$MEM_SIZES" --slots 4 | record
	stop_cluster
fi

if wants faults; then
	say "issue 11: faults across machines (deploy/netns-faults.sh: 50 ms and 1% loss each way, a cut link)"
	if [ "$(id -u)" = 0 ] && ip netns add ocr-bench-probe 2>/dev/null && ip netns del ocr-bench-probe; then
		set +e
		OCR_BIN="$BIN" deploy/netns-faults.sh $([ "$QUICK" = 1 ] && echo 240) >"$BENCH_TMP/faults.txt" 2>"$BENCH_TMP/faults.err"
		faults_rc=$?
		set -e
		python3 scripts/bench/faults.py "$faults_rc" "$BENCH_TMP/faults.txt" "$BENCH_TMP/faults.err" | record
	else
		say "faults: needs root and network namespaces; skipped"
	fi
fi

if wants pdf; then
	if command -v ocrmypdf >/dev/null && command -v qpdf >/dev/null; then
		say "issue 12: searchable PDF against OCRmyPDF --jobs 2 --output-type pdf"
		pdfout_run "$([ "$QUICK" = 1 ] && echo 1 || echo 2)"
	else
		say "pdf: needs ocrmypdf and qpdf; skipped"
	fi
fi

if wants wire; then
	if [ -x scripts/bench-wire.sh ]; then
		say "issue 2: wire codec (scripts/bench-wire.sh)"
		set +e
		scripts/bench-wire.sh --markdown >"$BENCH_TMP/wire.txt" 2>"$BENCH_TMP/wire.err"
		wire_rc=$?
		set -e
		python3 -c 'import json,sys; print(json.dumps({"bench":"wire","rc":int(sys.argv[1]),"output":open(sys.argv[2]).read(),"stderr":open(sys.argv[3]).read()}))' \
			"$wire_rc" "$BENCH_TMP/wire.txt" "$BENCH_TMP/wire.err" | record
	else
		say "scripts/bench-wire.sh is not here yet (branch wire): wire codec figures skipped"
	fi
fi

json bench=run seconds="$(($(date +%s) - started))" loadavg="$(cut -d" " -f1-3 /proc/loadavg)" | record
python3 scripts/bench/report.py --results "$RESULTS" --out BENCHMARKS.md --charts bench
