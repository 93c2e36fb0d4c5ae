# Sourced by scripts/bench.sh: a PostgreSQL server of the benchmark's own (initdb in BENCH_TMP,
# loopback only, trust authentication; as the postgres user when run as root: initdb refuses root).
# start_postgres: sets PG_URI and PG_DATA. stop_postgres: stops it.

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

start_postgres() {
	local bin port dir
	bin=$(pg_bin)
	[ -n "$bin" ] || { echo "bench: PostgreSQL is not installed (apt-get install postgresql)" >&2; return 1; }
	dir=$(mktemp -d /tmp/ocr-bench-pg.XXXXXX)
	[ "$(id -u)" = 0 ] && chown postgres "$dir"
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	as_postgres "$bin/initdb" -D "$dir/data" -U ocr -A trust -E UTF8 >/dev/null
	# Durable as a production server is (fsync on); the journal commits with synchronous_commit on.
	as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
		-o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=50" start >/dev/null </dev/null 2>&1
	PG_DATA="$dir/data"
	PG_URI="postgresql://ocr@127.0.0.1:$port/postgres"
}

stop_postgres() {
	[ -n "${PG_DATA:-}" ] || return 0
	as_postgres "$(pg_bin)/pg_ctl" -D "$PG_DATA" -m fast -w stop >/dev/null 2>&1 || true
	rm -rf "$(dirname "$PG_DATA")"
	PG_DATA=
}
