# Sourced by scripts/bench.sh (section "pdf", issue 12): searchable PDF out of scanned PDFs, our
# cluster (ocr-submit --format pdf, 1 worker x 2 slots) against OCRmyPDF --jobs 2 --output-type pdf,
# same pages, same machine; and our txt path from the same PDF (rasterisation plus warm-engine
# recognition, no PDF writing: the limit the PDF path is read against). Records bench=pdfout.
pdfout_inputs() {
	local T=Tests/Fixtures/real/pdf
	for f in c03-29.pdf skew.pdf cardinal.pdf multipage.pdf; do [ -f "$T/$f" ] && echo "$T/$f"; done
	# Scans wrapped in PDFs by img2pdf from the real 28-page scan at its true 300 dpi, G4 kept.
	if [ -d "$P/single" ] && command -v img2pdf >/dev/null; then
		local pages=("$P"/single/page-*.tif)
		[ "${#pages[@]}" -ge 6 ] && img2pdf -o "$BENCH_TMP/scan-6.pdf" "${pages[@]:0:6}" 2>/dev/null && echo "$BENCH_TMP/scan-6.pdf"
		[ "${#pages[@]}" -ge 20 ] && img2pdf -o "$BENCH_TMP/scan-20.pdf" "${pages[@]:0:20}" 2>/dev/null && echo "$BENCH_TMP/scan-20.pdf"
	fi
	return 0
}

pdfout_run() {
	local runs=$1 input name pages extra ours theirs limit best_o best_t best_l
	start_coordinator
	start_workers 1 2 tesseract
	"$BIN/ocr-bench" wait --client "$CLIENT_EP" --slots 2
	while read -r input; do
		name=$(basename "$input")
		pages=$(qpdf --show-npages "$input")
		# multipage.pdf has a page OCRed before: both tools are told to keep its text.
		extra=(); [ "$name" = multipage.pdf ] && extra=(--skip-text)
		best_o=999999; best_t=999999; best_l=999999
		for run in $(seq 1 "$runs"); do
			t0=$(now); "$BIN/ocr-submit" --coordinator "$CLIENT_EP" --quiet -f pdf "${extra[@]}" -o "$BENCH_TMP/ours.pdf" "$input"; t1=$(now)
			ours=$(echo "$t1 - $t0" | bc -l)
			t0=$(now); ocrmypdf --jobs 2 --output-type pdf "${extra[@]}" "$input" "$BENCH_TMP/theirs.pdf" >/dev/null 2>&1; t1=$(now)
			theirs=$(echo "$t1 - $t0" | bc -l)
			t0=$(now); "$BIN/ocr-submit" --coordinator "$CLIENT_EP" --quiet -f txt "${extra[@]}" -o "$BENCH_TMP/ours.txt" "$input"; t1=$(now)
			limit=$(echo "$t1 - $t0" | bc -l)
			best_o=$(python3 -c "print(min($best_o, $ours))"); best_t=$(python3 -c "print(min($best_t, $theirs))"); best_l=$(python3 -c "print(min($best_l, $limit))")
		done
		# Page by page: the characters of our txt in order in the PDF's text (content order;
		# a page kept with its own text layer, --skip-text, in poppler's reading order).
		same=$(python3 - "$BENCH_TMP/ours.pdf" "$BENCH_TMP/ours.txt" <<'PY'
import subprocess, sys
pdf, txt = sys.argv[1], sys.argv[2]
ours = open(txt).read().split("\f")
def page(n, *mode):
    return subprocess.run(["pdftotext", *mode, "-f", str(n), "-l", str(n), pdf, "-"], capture_output=True, text=True).stdout
squash = lambda s: "".join(s.split())
print(str(all(squash(text) in (squash(page(i + 1, "-raw")), squash(page(i + 1))) for i, text in enumerate(ours))).lower())
PY
)
		json bench=pdfout input="$name" pages="$pages" runs="$runs" ours_s="$best_o" ocrmypdf_s="$best_t" txt_s="$best_l" \
			ours_bytes="$(stat -c %s "$BENCH_TMP/ours.pdf")" ocrmypdf_bytes="$(stat -c %s "$BENCH_TMP/theirs.pdf")" \
			input_bytes="$(stat -c %s "$input")" same_text="$same" ours_check="$(qpdf --check "$BENCH_TMP/ours.pdf" >/dev/null 2>&1 && echo ok || echo damaged)" | record
	done < <(pdfout_inputs)
	stop_cluster
}
