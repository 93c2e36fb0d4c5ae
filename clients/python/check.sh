#!/usr/bin/env bash
# make test's check of the Python package, as a user meets it: `pip install ./clients/python`
# into a fresh virtualenv, its protobuf modules up to date with proto/, `mypy --strict` on the
# package and its tests, the tests against a real coordinator and workers (OCR_CLUSTER_BIN,
# default .build/debug), and `python -m build`.
set -euo pipefail
cd "$(dirname "$0")"
venv=$(mktemp -d /tmp/ocr-python-client.XXXXXX)
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check . pytest mypy types-protobuf jsonschema build 2>&1 | grep -v -i warning || true
# The protobuf modules are proto/'s, as protoc makes them now.
./generate.sh "$venv/generated"
diff -r "$venv/generated" src/ocr_cluster/_proto >/dev/null || { echo "src/ocr_cluster/_proto is stale: run clients/python/generate.sh" >&2; exit 1; }
"$venv/bin/python" -c "import ocr_cluster, sys; print('python client', ocr_cluster.__version__, 'on Python', sys.version.split()[0])"
"$venv/bin/python" -m mypy --strict src/ocr_cluster tests
export OCR_CLUSTER_BIN=${OCR_CLUSTER_BIN:-$(cd ../.. && pwd)/.build/debug}
"$venv/bin/python" -m pytest -q -p no:cacheprovider tests
"$venv/bin/python" -m build --outdir "$venv/dist" . >"$venv/build.log" 2>&1 || { cat "$venv/build.log"; exit 1; }
ls "$venv"/dist/ocr_cluster-*.whl "$venv"/dist/ocr_cluster-*.tar.gz >/dev/null
echo "python client: installed, typed (mypy --strict), tested, built"
