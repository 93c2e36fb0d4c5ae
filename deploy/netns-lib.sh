# Shared by deploy/netns-cluster.sh and deploy/netns-faults.sh (sourced, not run).

# stop_processes SECONDS PID...: SIGTERM, up to SECONDS for them to drain and say goodbye to
# their peers, then SIGKILL for whatever is left; reaps them.
stop_processes() {
  local grace=$1; shift
  local p alive
  for p in "$@"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done
  for _ in $(seq 1 $(( grace * 10 ))); do
    alive=0
    for p in "$@"; do [ -n "$p" ] && kill -0 "$p" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  for p in "$@"; do [ -n "$p" ] && kill -9 "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
