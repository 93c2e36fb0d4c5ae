/// The live status page at `/`: plain HTML and a small script (`/status.js`) that polls the
/// JSON API every two seconds. Nothing from outside (no CDN): it works offline. With bearer
/// tokens, open it as `/?access_token=TOKEN`; the script sends the token as a header.
enum StatusPage {
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:"

    static let html = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>ocr-cluster</title>
    <style>
    body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
    h1 { font-size: 1.4em; margin: 0 0 .3em; } h2 { font-size: 1.1em; margin: 1.4em 0 .4em; }
    table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: .25em .6em; border-bottom: 1px solid #ddd; }
    th { background: #f4f4f4; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
    .bar { background: #e8e8e8; height: .8em; width: 12em; display: inline-block; vertical-align: middle; }
    .bar span { display: block; height: 100%; background: #3a7; } .bar span.f { background: #c44; float: left; }
    #summary span { margin-right: 1.5em; } #error { color: #c44; } .muted { color: #888; }
    svg { border: 1px solid #ddd; background: #fafafa; }
    </style>
    </head>
    <body>
    <h1>ocr-cluster</h1>
    <div id="summary" class="muted">loading…</div>
    <div id="error"></div>
    <h2>Pages per second, last 10 minutes</h2>
    <svg id="chart" width="600" height="80" viewBox="0 0 600 80" role="img" aria-label="pages per second"></svg>
    <h2>Workers</h2>
    <table id="workers"><thead><tr><th>Host</th><th>Worker</th><th>Labels</th><th>Slots</th><th>Busy</th><th>Engines</th><th>Languages</th><th>Pages done</th><th>Last seen</th></tr></thead><tbody></tbody></table>
    <h2>Jobs</h2>
    <table id="jobs"><thead><tr><th>Job</th><th>State</th><th>Progress</th><th>Pages</th><th>Files</th><th>Created</th><th>Duration</th></tr></thead><tbody></tbody></table>
    <h2>Recent page failures</h2>
    <table id="failures"><thead><tr><th>When</th><th>Job</th><th>File</th><th>Page</th><th>Error</th></tr></thead><tbody></tbody></table>
    <script src="/status.js"></script>
    </body>
    </html>

    """

    static let script = #"""
    "use strict";
    const token = new URLSearchParams(location.search).get("access_token");
    const headers = token ? { Authorization: "Bearer " + token } : {};

    function cell(row, text, numeric) {
      const td = row.insertCell();
      td.textContent = text;
      if (numeric) td.className = "n";
      return td;
    }

    function fill(id, items, render) {
      const body = document.querySelector("#" + id + " tbody");
      body.replaceChildren();
      if (items.length === 0) {
        const td = body.insertRow().insertCell();
        td.colSpan = 8; td.className = "muted"; td.textContent = "none";
      }
      for (const item of items) render(body.insertRow(), item);
    }

    function ago(ms) { return ms < 1000 ? "now" : Math.round(ms / 1000) + " s ago"; }

    function chart(values) {
      const svg = document.getElementById("chart");
      const max = Math.max(1, ...values);
      const step = 600 / Math.max(1, values.length - 1);
      const points = values.map((v, i) => (i * step).toFixed(1) + "," + (78 - v / max * 70).toFixed(1)).join(" ");
      svg.innerHTML = '<polyline fill="none" stroke="#3a7" stroke-width="2" points="' + points + '"/>' +
        '<text x="4" y="12" font-size="11" fill="#888">max ' + max.toFixed(2) + ' pages/s</text>';
    }

    async function refresh() {
      try {
        const [cluster, jobs] = await Promise.all([
          fetch("/v1/cluster", { headers }).then(r => r.ok ? r.json() : Promise.reject(new Error("cluster: HTTP " + r.status))),
          fetch("/v1/jobs?limit=50", { headers }).then(r => r.ok ? r.json() : Promise.reject(new Error("jobs: HTTP " + r.status))),
        ]);
        document.getElementById("error").textContent = "";
        const summary = document.getElementById("summary");
        summary.className = "";
        summary.replaceChildren(...[
          "workers " + cluster.workers.length, "slots " + cluster.busySlots + "/" + cluster.totalSlots + " busy",
          "queue depth " + cluster.queueDepth, "active jobs " + cluster.activeJobs,
          cluster.pagesPerSecond.toFixed(2) + " pages/s", "pages done " + cluster.pagesDone,
        ].map(text => { const s = document.createElement("span"); s.textContent = text; return s; }));
        chart(cluster.throughput);
        fill("workers", cluster.workers, (row, w) => {
          cell(row, w.host); cell(row, w.uid);
          cell(row, Object.entries(w.labels || {}).map(([k, v]) => k + "=" + v).join(", "));
          cell(row, w.slots, true); cell(row, w.busy, true);
          cell(row, (w.engines || []).join(", ")); cell(row, w.languages.join(", ")); cell(row, w.pagesDone, true); cell(row, ago(w.lastSeenMsAgo));
        });
        fill("jobs", jobs.jobs, (row, j) => {
          row.id = j.id;
          cell(row, j.id); cell(row, j.state);
          const bar = document.createElement("div"); bar.className = "bar";
          const failed = document.createElement("span"); failed.className = "f";
          failed.style.width = (j.pageCount ? 100 * j.pagesFailed / j.pageCount : 0) + "%";
          const done = document.createElement("span");
          done.style.width = (j.pageCount ? 100 * j.pagesDone / j.pageCount : 0) + "%";
          bar.append(failed, done);
          cell(row, "").append(bar);
          cell(row, j.pagesDone + " done, " + j.pagesFailed + " failed of " + j.pageCount, true);
          cell(row, j.files.join(", ")); cell(row, j.createdAt || "");
          cell(row, j.durationSeconds == null ? "running" : j.durationSeconds.toFixed(1) + " s", true);
        });
        fill("failures", cluster.recentFailures.slice().reverse(), (row, f) => {
          cell(row, f.at); cell(row, f.jobId); cell(row, f.status.file || ""); cell(row, f.pageIndex + 1, true);
          cell(row, f.status.code + ": " + f.status.message);
        });
      } catch (e) {
        document.getElementById("error").textContent = "cannot reach the coordinator: " + e.message;
      }
    }

    refresh();
    setInterval(refresh, 2000);

    """#
}
