"""Turns bench/results.jsonl (written by scripts/bench.sh) into BENCHMARKS.md and PNG charts,
checks the goals of issues 3 and 5 (and 2 through scripts/bench-wire.sh's exit status), and exits
1 naming every goal missed.

BENCHMARKS.md is merged, not overwritten: everything between the `<!-- make-bench:begin -->` and
`<!-- make-bench:end -->` markers is regenerated; text outside them (notes, the "Wire codec"
section another engineer writes, "What we changed") is kept. The wire benchmark's latest output
goes between `<!-- bench-wire:begin -->`/`<!-- bench-wire:end -->` inside the "Wire codec" section.
"""
import argparse
import json
import os
import statistics
import sys

BEGIN, END = "<!-- make-bench:begin -->", "<!-- make-bench:end -->"
WBEGIN, WEND = "<!-- bench-wire:begin -->", "<!-- bench-wire:end -->"


def load(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                rows.append(json.loads(line))
    return rows


def fmt(x, digits=2):
    return f"{x:.{digits}f}"


class Report:
    def __init__(self, rows, charts):
        self.rows = rows
        self.charts = charts
        self.lines = []
        self.missed = []
        self.met = []

    def by(self, name):
        return [r for r in self.rows if r.get("bench") == name]

    def one(self, name):
        found = self.by(name)
        return found[-1] if found else None

    def out(self, text=""):
        self.lines.append(text)

    def goal(self, ok, text):
        (self.met if ok else self.missed).append(text)
        return "met" if ok else "**MISSED**"

    def chart(self, name, draw):
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            return None
        os.makedirs(self.charts, exist_ok=True)
        fig, ax = plt.subplots(figsize=(7, 3.8), dpi=100)
        draw(fig, ax)
        fig.tight_layout()
        path = os.path.join(self.charts, name)
        fig.savefig(path)
        plt.close(fig)
        return path

    # (1) throughput vs peers
    def peers(self):
        runs = self.by("peer")
        engines = self.by("in-process-engines")
        if not runs and not engines:
            return
        pages = (runs or engines)[0]["pages"]
        med = {}
        raw = {}
        for label in ["cluster", "xargs", "tesseract-defaults", "ocrmypdf"]:
            secs = [r["seconds"] for r in runs if r["label"] == label]
            if secs:
                raw[label] = secs
                med[label] = statistics.median(secs)
        if engines:
            raw["engines"] = [r["seconds"] for r in engines]
            med["engines"] = statistics.median(raw["engines"])
        rate = {k: pages / v for k, v in med.items()}
        names = {"cluster": "(a) cluster, 2 slots, ocr-submit", "xargs": "(b) xargs -P 2, OMP_THREAD_LIMIT=1",
                 "tesseract-defaults": "(c) tesseract defaults, sequential", "ocrmypdf": "(d) OCRmyPDF --jobs 2, sidecar",
                 "engines": "(e) two in-process engines (the limit)"}
        cmds = self.one("peer-commands") or {}
        self.out("## 1. Throughput vs peers")
        self.out()
        scan = self.one("peer-pages") or {"scan": "aim916.tiff", "scan_pages": pages, "distinct_pages": pages, "width": 2550, "height": 3300}
        if scan["distinct_pages"] < pages:
            which = f"its {scan['distinct_pages']} pages over and over"
        elif pages == scan["scan_pages"]:
            which = "the whole scan"
        else:
            which = f"the first {pages} of its {scan['scan_pages']} pages"
        runs_of = {k: len(v) for k, v in raw.items()}
        self.out(f"{pages} pages of `{scan['scan']}` ({which}; {scan['width']}x{scan['height']} bilevel, "
                 f"rewritten with 300 dpi, G4), English, page segmentation 3 (automatic) everywhere; medians of "
                 f"{runs_of.get('cluster', runs_of.get('engines', 0))} run(s) ({runs_of.get('tesseract-defaults', 0)} of (c)).")
        self.out()
        best = {k: min(v) for k, v in raw.items()}
        self.out("| setup | median s | pages/s | (a) / this | best s | (a) / this, best of runs | all runs (s) |")
        self.out("| --- | --- | --- | --- | --- | --- | --- |")
        for k in ["cluster", "engines", "xargs", "ocrmypdf", "tesseract-defaults"]:
            if k in med:
                ratio = fmt(rate["cluster"] / rate[k]) + "x" if "cluster" in rate else "-"
                best_ratio = fmt(best[k] / best["cluster"]) + "x" if "cluster" in best else "-"
                self.out(f"| {names[k]} | {fmt(med[k])} | {fmt(rate[k], 3)} | {ratio} | {fmt(best[k])} | {best_ratio} | "
                         f"{', '.join(fmt(s) for s in raw[k])} |")
        self.out()
        self.out("Goals are checked on the medians, as the issue asks. The best run of each setup is the one least "
                 "disturbed by other load on the shared cores; compare the two columns before trusting a ratio.")
        self.out()
        if cmds:
            self.out("Commands (in the benchmark's temporary directory):")
            self.out()
            for key in "abcde":
                if key in cmds:
                    self.out(f"- ({key}) `{cmds[key]}`")
            self.out()
            self.out(f"Same text: (b) and (c) {cmds.get('same_text_b_c')}; (a) and (e) {cmds.get('same_text_a_e')}; "
                     f"(a) and (b) {cmds.get('same_text_a_b')}.")
            self.out()
        if "cluster" in rate and "engines" in rate:
            r = rate["cluster"] / rate["engines"]
            status = self.goal(r >= 0.95, f"(a) >= 95% of (e): {r * 100:.1f}%")
            self.out(f"- Goal (a) >= 95% of (e): {r * 100:.1f}%: {status}")
        if "cluster" in rate and "xargs" in rate:
            r = rate["cluster"] / rate["xargs"]
            status = self.goal(r >= 1.25, f"(a) >= 1.25x (b): {r:.2f}x")
            self.out(f"- Floor (a) >= 1.25x (b): {r:.2f}x: {status} (the issue expects about 1.33x)")
            if "engines" in rate:
                # The ceiling: no scheduler can beat (b) by more than the machine's limit does.
                limit = rate["engines"] / rate["xargs"]
                self.out(f"- The limit (e) itself is {limit:.2f}x (b) on this machine (best runs: {best['xargs'] / best['engines']:.2f}x; "
                         f"the issue measured 1.40x on its machine): the cluster can beat (b) by at most that much.")
        for k, target in [("ocrmypdf", 1.75), ("tesseract-defaults", 6.0)]:
            if "cluster" in rate and k in rate:
                self.out(f"- (a) vs {names[k][:3]}: {rate['cluster'] / rate[k]:.2f}x (the issue expects about {target}x)")
        self.out()
        order = [k for k in ["tesseract-defaults", "ocrmypdf", "xargs", "cluster", "engines"] if k in rate]
        path = self.chart("throughput.png", lambda fig, ax: (
            ax.barh([names[k] for k in order], [rate[k] for k in order],
                    color=["#888" if k != "cluster" else "#2a7" for k in order]),
            ax.set_xlabel("pages per second (higher is better)"),
            ax.set_title(f"OCR throughput on {pages} pages, 2 cores")))
        if path:
            self.out(f"![throughput](bench/throughput.png)")
            self.out()

    # issue 3
    def engine(self):
        e = self.one("engine-vs-cli")
        if not e:
            return
        self.out("## Engine vs tesseract CLI, per page")
        self.out()
        self.out(f"Median of {e['runs']} run(s) per page; the engine is one warm `EngineThread` in `ocr-bench`; the CLI is "
                 "`tesseract FILE stdout` (English, automatic segmentation) with `OMP_THREAD_LIMIT=1` and with its defaults.")
        self.out()
        self.out("| page | size | engine s | CLI x1 s | CLI defaults s | engine speed-up vs CLI x1 | same text as CLI | goal |")
        self.out("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for r in e["rows"]:
            small = r["megapixels"] < 4
            if small:
                status = self.goal(r["speedup_vs_cli_single"] >= 1.15, f"engine >= 1.15x CLI x1 on small page {r['file']}: {r['speedup_vs_cli_single']:.2f}x")
                g = f">= 1.15x: {status}"
            else:
                # "never slower on large ones", with 2% allowed for timing noise.
                status = self.goal(r["speedup_vs_cli_single"] >= 0.98, f"engine not slower than CLI x1 on large page {r['file']}: {r['speedup_vs_cli_single']:.2f}x")
                g = f"not slower: {status}"
            self.out(f"| {r['file']} | {r['width']}x{r['height']} ({r['megapixels']:.1f} MP) | {fmt(r['engine_s'], 3)} | "
                     f"{fmt(r['cli_single_s'], 3)} | {fmt(r['cli_default_s'], 3)} | {fmt(r['speedup_vs_cli_single'])}x | "
                     f"{r['same_text_as_cli']} | {g} |")
        self.out()
        loaded = (e["rss_engine_loaded_kb"] - e["rss_before_engine_kb"]) / 1024
        after = (e["rss_after_pages_kb"] - e["rss_before_engine_kb"]) / 1024
        self.out(f"Resident memory per engine (English, accurate): {loaded:.0f} MB once the model is loaded, "
                 f"{after:.0f} MB after the pages above (process peak {e['peak_kb'] / 1024:.0f} MB; "
                 f"the process itself {e['rss_before_engine_kb'] / 1024:.0f} MB before the engine).")
        self.out()
        if e.get("levels"):
            self.out("| level | page | seconds (best of 2) | CER vs ground truth |")
            self.out("| --- | --- | --- | --- |")
            for l in e["levels"]:
                self.out(f"| {l['level']} | {l['file']} | {fmt(l['seconds'], 3)} | {l['cer'] * 100:.2f}% |")
            self.out()

    # (2)
    def null(self):
        plain = lambda r: "prefetch" not in r and "journal" not in r
        t = next((r for r in reversed(self.by("null-throughput")) if plain(r)), None)
        l = next((r for r in reversed(self.by("null-latency")) if plain(r)), None)
        journaled = {sync: (next((r for r in reversed(self.by("null-throughput")) if r.get("journal") == sync), None),
                            next((r for r in reversed(self.by("null-latency")) if r.get("journal") == sync), None))
                     for sync in ("normal", "full", "postgresql")}
        t16 = next((r for r in reversed(self.by("null-throughput")) if "prefetch" in r), None)
        l16 = next((r for r in reversed(self.by("null-latency")) if "prefetch" in r), None)
        s = self.one("null-ocr-submit")
        if not t and not l:
            return
        self.out("## 2. Protocol overhead: null engine")
        self.out()
        self.out("Real `ocr-coordinator` and two real `ocr-worker --engine null --slots 2` processes on loopback; "
                 "one client (`ocr-bench`, the `OCRClient` library) submits a multipage TIFF of tiny 16x16 pages "
                 "and follows the WatchJob stream.")
        self.out()
        if t:
            ok = t["pages_per_s_median"] >= 20000
            status = self.goal(ok, f"null engine >= 20,000 page tasks/s: {t['pages_per_s_median']:.0f}")
            self.out(f"- Throughput: **{t['pages_per_s_median']:.0f} page tasks/s** (median of {t['runs']} jobs of "
                     f"{t['pages']} pages, from the SubmitJob reply to JobFinished; all: "
                     f"{', '.join(f'{x:.0f}' for x in t['pages_per_s_all'])}; {t['pages_per_s_with_submit_median']:.0f} counting "
                     f"the submit call, which took {t['submit_s_median'] * 1000:.0f} ms). Goal >= 20,000: {status}")
        c = self.one("null-coordinator-cpu")
        if c:
            self.out(f"- The coordinator's own CPU: **{c['us_per_page_task']:.1f} us per page task** ({c['cpu_s']:.2f} s of user "
                     f"and system time over {c['pages']} page tasks, the runs above and their warm-up; `/proc/PID/stat`). "
                     "Everything else of the run (client, workers, ZeroMQ's I/O threads) shares the same cores.")
        if l:
            status = self.goal(l["page_ms_p99"] < 2.0, f"null round trip p99 < 2 ms: {l['page_ms_p99']:.2f} ms")
            self.out(f"- Round trip of a one-page job, SubmitJob to its PageCompleted at the client, {l['jobs']} jobs one "
                     f"after another: **p50 {l['page_ms_p50']:.3f} ms, p99 {l['page_ms_p99']:.3f} ms** (max {l['page_ms_max']:.2f} ms; "
                     f"SubmitJob alone p50 {l['submit_ms_p50']:.3f} ms, p99 {l['submit_ms_p99']:.3f} ms; to JobFinished p50 "
                     f"{l['finished_ms_p50']:.3f} ms, p99 {l['finished_ms_p99']:.3f} ms). Goal p99 < 2 ms: {status}")
        for run in (t, t16):
            if run and run.get("failed_pages"):
                self.goal(False, f"null engine run{' with prefetch ' + str(run['prefetch']) if 'prefetch' in run else ''}: "
                                 f"{run['failed_pages']} pages did not complete")
                self.out(f"- **{run['failed_pages']} pages did not complete** in the null runs"
                         + (f" with prefetch {run['prefetch']}" if "prefetch" in run else "") + ".")
        if t16 or l16:
            self.out(f"- With `ocr-coordinator --prefetch {(t16 or l16)['prefetch']}` (every worker may hold slots + "
                     f"{(t16 or l16)['prefetch']} tasks from the start, instead of slots + 1 widened adaptively up to "
                     "`--prefetch-limit` 32 when its pages take less than a round trip): "
                     + (f"**{t16['pages_per_s_median']:.0f} page tasks/s** (all: {', '.join(f'{x:.0f}' for x in t16['pages_per_s_all'])})" if t16 else "")
                     + (f"; one-page round trip p50 {l16['page_ms_p50']:.3f} ms, p99 {l16['page_ms_p99']:.3f} ms" if l16 else "")
                     + ". The goals above are checked with the defaults (prefetch 1).")
        if any(jt or jl for jt, jl in journaled.values()):
            self.out()
            self.out("Durability: the same runs with the coordinator's SQLite journal (`--journal PATH`; "
                     "`--journal-sync full` adds an fsync to every commit), and with the journal in PostgreSQL "
                     "(`--journal postgresql://...`, a server of the run's own on loopback with fsync on, sharing the cores; "
                     "every commit also renews the leader's lease). Commits are grouped on the journal thread; "
                     "nothing is sent or answered before the commit that covers it.")
            self.out()
            self.out("| coordinator | page tasks/s (median) | all runs | one-page round trip p50 / p99 ms |")
            self.out("| --- | --- | --- | --- |")
            rows = [("in memory", t, l)] + [(f"`--journal --journal-sync {sync}`" if sync != "postgresql" else "`--journal postgresql://...`", jt, jl)
                                             for sync, (jt, jl) in journaled.items()]
            for name, rt, rl in rows:
                self.out(f"| {name} | {fmt(rt['pages_per_s_median'], 0) if rt else '-'} | "
                         f"{', '.join(f'{x:.0f}' for x in rt['pages_per_s_all']) if rt else '-'} | "
                         f"{(format(rl['page_ms_p50'], '.3f') + ' / ' + format(rl['page_ms_p99'], '.3f')) if rl else '-'} |")
                if rt and rt.get("failed_pages"):
                    self.goal(False, f"null engine run {name}: {rt['failed_pages']} pages did not complete")
            self.out()
            pg, sqlite = journaled["postgresql"][0], journaled["normal"][0]
            if pg and sqlite:
                ratio = pg["pages_per_s_median"] / sqlite["pages_per_s_median"]
                status = self.goal(ratio >= 0.5, f"PostgreSQL journal >= 50% of SQLite's null-engine page tasks/s: {ratio * 100:.0f}%")
                self.out(f"- The PostgreSQL journal against SQLite's (`--journal-sync normal`): **{ratio * 100:.0f}%** of its page "
                         f"tasks/s. Goal >= 50%: {status}")
                self.out()
        if s:
            self.out(f"- The same through `ocr-submit` (process start, reading the file, rendering text): "
                     f"{s['pages']} pages in {s['seconds']:.2f} s = {s['pages'] / s['seconds']:.0f} pages/s, which is why "
                     "the figures above use a purpose-built driver.")
        self.out()

    # (29)
    def failover(self):
        f = self.one("failover")
        if not f:
            return
        self.out("## Coordinator failover (PostgreSQL journal)")
        self.out()
        self.out(f"Two real `ocr-coordinator --journal postgresql://... --leader-lease-ms {f['lease_ms']}` processes (one leads, one "
                 f"stands by) on a PostgreSQL server of the run's own, two real workers (`--engine sleep:{f['sleep_ms']} --slots 2`) "
                 "given both worker endpoints; per trial a job of "
                 f"{f['pages']} pages (`ocr-submit --detach`, then `ocr-submit watch` with both client endpoints), the leader "
                 "SIGKILLed once a tenth of its pages are done, then restarted to stand by (`scripts/bench/failover.py`). "
                 "The first dispatch is the new leader's earliest `dispatched` journal row of the job (written before the task "
                 "is sent); the client's next event is the watcher's next page line.")
        self.out()
        self.out("| kill to ... | p50 s | max s | all trials |")
        self.out("| --- | --- | --- | --- |")
        for key, name in (("takeover_s", "the standby's `leading` log line"), ("dispatch_s", "the first page the new leader dispatches"),
                          ("event_s", "the client's next page event")):
            v = f.get(key)
            if v:
                self.out(f"| {name} | {v['p50']:.2f} | {v['max']:.2f} | {', '.join(f'{x:.2f}' for x in v['all'])} |")
        self.out()
        d = f.get("dispatch_s")
        if d:
            status = self.goal(d["p50"] <= 3 and d["max"] <= 5 and len(d["all"]) == f["trials"],
                               f"failover (kill to first dispatch) p50 <= 3 s and max <= 5 s over {f['trials']} trials: "
                               f"{d['p50']:.2f} s / {d['max']:.2f} s")
            self.out(f"- Goal p50 <= 3 s, max <= 5 s (kill to the first dispatch): {status}")
        for problem in f.get("problems", []):
            self.goal(False, f"failover: {problem}")
        if not f.get("problems"):
            self.goal(True, "failover: every job finished with every page recorded once")
        self.out(f"- Every job finished, every page recorded once: {'yes' if not f.get('problems') else 'no: ' + '; '.join(f['problems'])}")
        self.out()
        real = self.by("journal-real")
        if real:
            by = {j: sorted(r["seconds"] for r in real if r["journal"] == j) for j in ("memory", "sqlite", "postgresql")}
            self.out(f"Real pages on each journal: `ocr-submit` of the {real[0]['pages']}-page scan of section 1 to a coordinator with "
                     "two `ocr-worker --slots 1 --engine tesseract`, the three journals' runs interleaved, a fresh coordinator each run.")
            self.out()
            self.out("| journal | median s | all runs s | pages/s (median) |")
            self.out("| --- | --- | --- | --- |")
            for j, runs in by.items():
                if runs:
                    median = statistics.median(runs)
                    self.out(f"| {j} | {median:.2f} | {', '.join(f'{x:.2f}' for x in runs)} | {real[0]['pages'] / median:.2f} |")
            self.out()
            if by["sqlite"] and by["postgresql"]:
                ratio = statistics.median(by["postgresql"]) / statistics.median(by["sqlite"])
                status = self.goal(ratio <= 1.05, f"real pages with the PostgreSQL journal within 5% of SQLite's time: {ratio:.3f}x")
                self.out(f"- PostgreSQL against SQLite on real pages: **{ratio:.3f}x** the time. Goal: within noise (5%): {status}")
                self.out()

    # (3)
    def scale(self):
        s = self.one("scale")
        if not s:
            return
        rows = s["rows"]
        self.out("## 3. Scale: simulated worker connections")
        self.out()
        self.out(f"`ocr-bench scale` opens N real DEALER connections from one process (one socket loop thread), each "
                 f"announcing 1 slot and answering every task after {rows[0]['page_ms']} ms on a timer (no CPU), and "
                 f"submits one job of {rows[0]['pages'] // rows[0]['connections']} pages per connection. Utilisation = pages/s "
                 "achieved (SubmitJob reply to JobFinished) / pages/s possible (N / page time). Coordinator CPU and RSS "
                 "from `/proc/PID`.")
        self.out()
        self.out("| connections | pages | seconds (ideal) | pages/s | utilisation | coordinator CPU | coordinator RSS idle -> connected -> peak | RSS per connection | driver CPU |")
        self.out("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for r in rows:
            self.out(f"| {r['connections']} | {r['pages']} | {fmt(r['seconds'])} ({fmt(r['ideal_seconds'], 1)}) | "
                     f"{r['pages_per_s']:.0f} | {r['utilisation'] * 100:.1f}% | {r['coordinator_cpu_pct']:.1f}% of a core | "
                     f"{r['rss_before_kb'] / 1024:.1f} -> {r['rss_connected_kb'] / 1024:.1f} -> {r['rss_peak_kb'] / 1024:.1f} MB | "
                     f"{r['rss_per_connection_kb']:.1f} kB | {r['driver_cpu_pct']:.1f}% |")
        self.out()
        at200 = [r for r in rows if r["connections"] == 200]
        if at200:
            u = at200[0]["utilisation"]
            status = self.goal(u >= 0.97, f"utilisation >= 97% at 200 connections: {u * 100:.1f}%")
            self.out(f"- Goal >= 97% utilisation at 200 connections: {u * 100:.1f}%: {status}")
            self.out()

        def draw(fig, ax):
            xs = [r["connections"] for r in rows]
            ax.plot(xs, [r["utilisation"] * 100 for r in rows], "o-", color="#2a7", label="utilisation %")
            ax.axhline(97, color="#2a7", ls=":", lw=1)
            ax.set_xlabel("simulated worker connections")
            ax.set_ylabel("utilisation (%)")
            ax.set_ylim(0, 105)
            ax2 = ax.twinx()
            ax2.plot(xs, [r["coordinator_cpu_pct"] for r in rows], "s--", color="#c52", label="coordinator CPU %")
            ax2.plot(xs, [r["rss_peak_kb"] / 1024 for r in rows], "^--", color="#25c", label="coordinator peak RSS MB")
            ax2.set_ylabel("CPU % of a core / RSS MB")
            fig.legend(loc="lower left", bbox_to_anchor=(0.1, 0.15), fontsize=8)
            ax.set_title("Scaling with simulated worker connections")
        if self.chart("scale.png", draw):
            self.out("![scale](bench/scale.png)")
            self.out()

    # (4)
    def first(self):
        f = self.one("first-page")
        if not f:
            return
        e = self.one("engine-vs-cli")
        engine_s = f.get("worker_page_total_s_median") or 0
        source = "that page's own engine time as the worker reported it (decode + recognition)"
        if not engine_s and e:
            big = [r for r in e["rows"] if r["file"].startswith("page-")]
            if big:
                engine_s, source = big[0]["engine_s"], "the in-process engine's time on the same kind of page"
        self.out("## 4. Latency to the first page")
        self.out()
        ratio = f["first_page_s_median"] / engine_s if engine_s else float("nan")
        status = self.goal(ratio < 1.5, f"first page of a 100-page job < 1.5x one page's engine time: {ratio:.2f}x")
        self.out(f"A {f['job_pages']}-page job (aim916's pages over and over, 300 dpi) submitted to a coordinator with one "
                 f"`ocr-worker --engine tesseract --slots 2`: the first PageCompleted reached the client "
                 f"**{f['first_page_s_median']:.2f} s** after the SubmitJob call began (median of {f['runs']}: "
                 f"{', '.join(fmt(x) for x in f['first_page_s_all'])}); {source}: {engine_s:.2f} s; ratio "
                 f"**{ratio:.2f}x**. Goal < 1.5x: {status}")
        self.out()

    # (5)
    def memory(self):
        m = self.one("coordinator-memory")
        if not m:
            return
        rows = m["rows"]
        self.out("## 5. Coordinator memory vs job size")
        self.out()
        self.out(f"One coordinator, two null workers; jobs of {m['page_pixels']} pages one after another (each a multipage "
                 "TIFF); RSS sampled every 10 ms from `/proc/PID/status`.")
        self.out()
        self.out("| pages | file bytes | RSS before | peak | after | growth per page (peak) | retained per page (after) |")
        self.out("| --- | --- | --- | --- | --- | --- | --- |")
        for r in rows:
            self.out(f"| {r['pages']} | {r['file_bytes']} | {r['rss_before_kb'] / 1024:.1f} MB | {r['rss_peak_kb'] / 1024:.1f} MB | "
                     f"{r['rss_after_kb'] / 1024:.1f} MB | {(r['rss_peak_kb'] - r['rss_before_kb']) / r['pages']:.2f} kB | "
                     f"{(r['rss_after_kb'] - r['rss_before_kb']) / r['pages']:.2f} kB |")
        self.out()

        def draw(fig, ax):
            xs = [r["pages"] for r in rows]
            ax.plot(xs, [r["rss_peak_kb"] / 1024 for r in rows], "o-", label="peak during the job")
            ax.plot(xs, [r["rss_after_kb"] / 1024 for r in rows], "s--", label="after the job")
            ax.set_xscale("log")
            ax.set_xlabel("pages in the job")
            ax.set_ylabel("coordinator RSS (MB)")
            ax.set_ylim(bottom=0)
            ax.legend()
            ax.set_title("Coordinator resident memory vs job size")
        if self.chart("memory.png", draw):
            self.out("![memory](bench/memory.png)")
            self.out()

    # Issue 11
    def faults(self):
        f = self.one("faults")
        if not f:
            return
        self.out("## 6. Faults across machines")
        self.out()
        runs = {r["run"]: r for r in f["runs"]}
        impairment = next(iter(runs.values()), {}).get("impairment", "?")
        self.out("`deploy/netns-faults.sh`: a coordinator host and two worker hosts (network namespaces), 2 workers x 2 "
                 "slots with `--engine sleep:100`, CURVE on both links, each run on a fresh cluster. Each worker "
                 "host reaches the coordinator over its own point-to-point link; delay and loss are applied in both "
                 "directions by " + ("`tc qdisc ... netem`" if impairment == "netem" else
                 "`deploy/linkem.py`, a user-space link carrier (this kernel has no `sch_netem`, so `tc netem` cannot "
                 "run here; the script uses it where it can)") + ".")
        self.out()
        self.out("| run | delay each way | loss each way | pages | seconds | pages/s | exit | every page once, in order | cut worker rejoined |")
        self.out("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for name in ["clean", "impaired", "cut"]:
            r = runs.get(name)
            if r:
                self.out(f"| {name} | {r['delay_ms']} ms | {float(r['loss']) * 100:g}% | {r['pages']} | {r['seconds']} | "
                         f"{r['pages_per_s']} | {r['status']} | {r['in_order']} | {r['rejoined']} |")
        self.out()
        ratio = f.get("throughput_ratio")
        if ratio is not None:
            status = self.goal(ratio >= 0.95, f"impaired links keep >= 95% of the clean throughput: {ratio * 100:.1f}%")
            self.out(f"Throughput with 50 ms delay and 1% loss each way: **{ratio * 100:.1f}%** of the clean run. "
                     f"Goal >= 95%: {status}")
            self.out()
        self.goal(f["rc"] == 0, "faults: every page once, in order, and the cut worker rejoined"
                  + ("" if f["rc"] == 0 else ": " + (f["stderr"].strip().splitlines() or ["exit " + str(f["rc"])])[-1]))
        self.out("The cut run sets worker 1's link down a third of the way into the job for 6 s (longer than the "
                 "coordinator's 3 s liveness, so its pages are requeued to worker 2) and raises it again.")
        self.out()

    def pdfout(self):
        rows = self.by("pdfout")
        if not rows:
            return
        self.out("## 7. Searchable PDF against OCRmyPDF")
        self.out()
        self.out("Each scanned PDF made searchable by our cluster (`ocr-submit --format pdf`, one worker with 2 slots, "
                 "Tesseract's defaults) and by `ocrmypdf --jobs 2 --output-type pdf` (its default lossless optimisation), "
                 "one after the other on the same machine, best of the runs; `multipage.pdf` has a page OCRed before, "
                 "so both get `--skip-text`. `scan-6.pdf` and `scan-20.pdf` are the first 6 and 20 pages of the real "
                 "28-page scan at its true 300 dpi, wrapped by `img2pdf` (G4 kept). *txt path*: the same job with "
                 "`-f txt` (rasterisation and warm-engine recognition, no PDF written): the limit the PDF path is read "
                 "against. *same text*: `pdftotext -raw` of our PDF has our txt output's characters in order.")
        self.out()
        self.out("| input | pages | ours s | OCRmyPDF s | ours / OCRmyPDF pages/s | txt path s | PDF bytes: ours | OCRmyPDF | input | same text | qpdf --check |")
        self.out("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        short = []
        for r in rows:
            ratio = r["ocrmypdf_s"] / r["ours_s"] if r["ours_s"] else 0
            self.out(f"| {r['input']} | {r['pages']} | {fmt(r['ours_s'])} | {fmt(r['ocrmypdf_s'])} | **{ratio:.2f}x** | "
                     f"{fmt(r['txt_s'])} | {r['ours_bytes']:,} | {r['ocrmypdf_bytes']:,} | {r['input_bytes']:,} | {r['same_text']} | {r['ours_check']} |")
            if r["input"] == "scan-20.pdf":
                self.goal(ratio >= 1.3, f"searchable PDF of the 20-page scan >= 1.3x OCRmyPDF's pages/s: {ratio:.2f}x")
            else:
                short.append((r["input"], ratio))
            self.goal(r["ours_bytes"] <= r["ocrmypdf_bytes"], f"{r['input']}: our PDF no larger than OCRmyPDF's "
                      f"({r['ours_bytes']:,} vs {r['ocrmypdf_bytes']:,} bytes)")
            self.goal(str(r["same_text"]).lower() == "true", f"{r['input']}: the PDF's text is our txt output")
        if short:
            total_ours = sum(r["ours_s"] for r in rows if r["input"] != "scan-20.pdf")
            total_theirs = sum(r["ocrmypdf_s"] for r in rows if r["input"] != "scan-20.pdf")
            ratio = total_theirs / total_ours if total_ours else 0
            self.goal(ratio >= 1.4, f"searchable PDF of the short PDFs and the 6-page scan >= 1.4x OCRmyPDF's pages/s "
                      f"(all together): {ratio:.2f}x")
        self.out()

    def machine(self):
        machines = self.by("machine")
        m = machines[0] if machines else None
        runs = self.by("run")
        run = runs[0] if runs else None
        if not m:
            return
        self.out(f"Machine: {m['cpu']}, **{m['cores']} cores**, {m['mem_gb']} GB, Linux {m['kernel']}; {m['tesseract']}; "
                 f"{m['swift']}; OCRmyPDF {m['ocrmypdf']}; commit `{m['commit']}`"
                 + (" — **BENCH_QUICK=1 smoke run** (fewer pages and runs)" if str(m.get("quick")) == "1" else "")
                 + (f"; `make bench` took {run['seconds'] // 60} min {run['seconds'] % 60} s." if run else "."))
        for later in machines[1:]:
            self.out()
            self.out(f"Re-run since (`BENCH_APPEND=1 BENCH_ONLY=\"{later.get('only', '?')}\" make bench`, commit `{later['commit']}`, "
                     f"load {later['loadavg']}): the sections it names come from that run, side by side within it.")
        self.out()

    def wire(self):
        w = self.one("wire")
        if not w:
            return None
        self.goal(w["rc"] == 0, "wire codec (scripts/bench-wire.sh)" + ("" if w["rc"] == 0 else ": " + w["stderr"].strip().splitlines()[-1] if w["stderr"].strip() else ""))
        return w["output"].strip()

    def build(self):
        self.out("## Performance figures (`make bench`)")
        self.out()
        self.out("Generated by `make bench` (`scripts/bench.sh`, `scripts/bench/report.py`, `ocr-bench`); do not edit "
                 "between the markers, the next run replaces it. Raw figures: `bench/results.jsonl`.")
        self.out()
        self.machine()
        summary_at = len(self.lines)
        self.peers()
        self.null()
        self.failover()
        self.scale()
        self.first()
        self.memory()
        self.faults()
        self.pdfout()
        self.engine()
        wire = self.wire()
        summary = ["### Goals", ""]
        summary += [f"- met: {g}" for g in self.met]
        summary += [f"- **MISSED**: {g}" for g in self.missed]
        summary.append("")
        self.lines[summary_at:summary_at] = summary
        return "\n".join(self.lines).rstrip() + "\n", wire


def merge(path, generated, wire):
    old = open(path).read() if os.path.exists(path) else "# Benchmarks\n"
    block = f"{BEGIN}\n{generated}{END}"
    if BEGIN in old and END in old:
        head, rest = old.split(BEGIN, 1)
        text = head + block + rest.split(END, 1)[1]
    else:
        lines = old.rstrip("\n").split("\n")
        # Right after the title, before whatever others wrote.
        text = lines[0] + "\n\n" + block + "\n\n" + "\n".join(lines[1:]).lstrip("\n")
    if wire is not None:
        wblock = f"{WBEGIN}\nLatest `make bench` run (`scripts/bench-wire.sh --markdown`):\n\n```\n{wire}\n```\n{WEND}"
        if WBEGIN in text and WEND in text:
            head, rest = text.split(WBEGIN, 1)
            text = head + wblock + rest.split(WEND, 1)[1]
        elif "## Wire codec" in text:
            head, rest = text.split("## Wire codec", 1)
            nl = rest.find("\n## ")
            section, tail = (rest, "") if nl < 0 else (rest[:nl], rest[nl:])
            text = head + "## Wire codec" + section.rstrip("\n") + "\n\n" + wblock + "\n" + tail
        else:
            text = text.rstrip("\n") + "\n\n## Wire codec (issue 2)\n\n" + wblock + "\n"
    with open(path, "w") as f:
        f.write(text.rstrip("\n") + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--results", default="bench/results.jsonl")
    ap.add_argument("--out", default="BENCHMARKS.md")
    ap.add_argument("--charts", default="bench")
    a = ap.parse_args()
    report = Report(load(a.results), a.charts)
    generated, wire = report.build()
    merge(a.out, generated, wire)
    print(f"bench: wrote {a.out} and charts under {a.charts}/", file=sys.stderr)
    if report.missed:
        print("bench: GOALS MISSED:", file=sys.stderr)
        for g in report.missed:
            print(f"  - {g}", file=sys.stderr)
        sys.exit(1)
    print(f"bench: all {len(report.met)} goals met", file=sys.stderr)


if __name__ == "__main__":
    main()
