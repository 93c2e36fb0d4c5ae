#!/usr/bin/env bash
# Wire codec benchmark (see scripts/bench_wire.py): OCRWire vs Python upb on a dense PageResult.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/bench_wire.py "$@"
