import json
err = {"$ref": "#/components/responses/Error"}
def errs(*codes):
    return {str(c): err for c in codes}
job_id = {"name": "id", "in": "path", "required": True, "schema": {"type": "string", "minLength": 1}, "description": "The job id (`job-...`)."}
status = {
  "type": "object", "required": ["code", "message", "file", "pageIndex", "details"],
  "properties": {
    "code": {"type": "string", "description": "The gRPC status code name.", "enum": ["OK","CANCELLED","UNKNOWN","INVALID_ARGUMENT","DEADLINE_EXCEEDED","NOT_FOUND","ALREADY_EXISTS","PERMISSION_DENIED","RESOURCE_EXHAUSTED","FAILED_PRECONDITION","ABORTED","OUT_OF_RANGE","UNIMPLEMENTED","INTERNAL","UNAVAILABLE","DATA_LOSS","UNAUTHENTICATED"]},
    "message": {"type": "string"},
    "file": {"type": "string", "nullable": True, "description": "The input file the error is about, if any."},
    "pageIndex": {"type": "integer", "nullable": True, "description": "The page (0-based, within the job) the error is about, if any."},
    "details": {"type": "object", "additionalProperties": {"type": "string"}}}}
job = {
  "type": "object",
  "required": ["id","jobKey","state","pageCount","pagesDone","pagesFailed","priority","files","languages","createdAt","finishedAt","durationSeconds","status","links"],
  "properties": {
    "id": {"type": "string"}, "jobKey": {"type": "string"},
    "state": {"type": "string", "enum": ["QUEUED","RUNNING","SUCCEEDED","PARTIAL","FAILED","CANCELLED","EXPIRED"]},
    "pageCount": {"type": "integer", "minimum": 0}, "pagesDone": {"type": "integer", "minimum": 0}, "pagesFailed": {"type": "integer", "minimum": 0},
    "priority": {"type": "integer"}, "files": {"type": "array", "items": {"type": "string"}}, "languages": {"type": "string"},
    "createdAt": {"type": "string", "format": "date-time"}, "finishedAt": {"type": "string", "format": "date-time", "nullable": True},
    "durationSeconds": {"type": "number", "nullable": True},
    "status": {"allOf": [{"$ref": "#/components/schemas/Status"}], "nullable": True, "description": "The final status once finished."},
    "links": {"type": "object", "properties": {"self": {"type": "string"}, "events": {"type": "string"}, "document": {"type": "string"}}},
    "pageStates": {"type": "array", "items": {"type": "string", "enum": ["PENDING","DISPATCHED","DONE","FAILED","CANCELLED"]}, "description": "With `?pages=true`: every page's state by page index."}}}
options_props = {
  "languages": {"type": "string", "description": "Tesseract languages joined with '+', e.g. `eng+deu` (default `eng`)."},
  "level": {"type": "string", "enum": ["accurate", "fast", "best"]},
  "language_correction": {"type": "boolean"},
  "psm": {"type": "integer", "minimum": 0, "maximum": 13, "description": "Tesseract page segmentation mode (default 3)."},
  "dpi": {"type": "integer", "minimum": 50, "maximum": 2400},
  "candidates": {"type": "integer", "minimum": 1, "maximum": 10},
  "minimum_confidence": {"type": "number", "minimum": 0, "maximum": 1},
  "character_whitelist": {"type": "string"},
  "minimum_text_height": {"type": "number", "minimum": 0, "maximum": 1},
  "detect_only": {"type": "boolean"}, "report_character_boxes": {"type": "boolean"},
  "deskew": {"type": "boolean"}, "auto_rotate": {"type": "boolean"},
  "binarization": {"type": "string", "enum": ["otsu", "sauvola", "none"]},
  "page_timeout_ms": {"type": "integer", "minimum": 1, "maximum": 86400000},
  "pages": {"type": "string", "pattern": "^[1-9][0-9]{0,8}(-([1-9][0-9]{0,8})?)?(,[1-9][0-9]{0,8}(-([1-9][0-9]{0,8})?)?)*$", "description": "Only these pages of the job, 1-based: `1-3,7,10-` (a range's last page is not before its first)."},
  "custom_words": {"type": "array", "items": {"type": "string"}},
  "pdf_text_layer": {"type": "string", "enum": ["report", "skip", "force_ocr", "redo_ocr"], "description": "PDF pages that already carry text: report them as failed (default), skip OCR and take their text, OCR them anyway (in a PDF the page becomes its image), or replace an earlier OCR layer (redo_ocr: visible content kept, invisible text replaced)."},
  "include_pdf_page": {"type": "boolean", "description": "Keep each page's image for `format=pdf` (default true over HTTP)."},
  "engine_mode": {"type": "string", "enum": ["lstm", "legacy", "combined"], "description": "Tesseract's recogniser (default lstm); legacy and combined need the full model on the worker (`ocr-worker --legacy-tessdata`), else the page fails with FAILED_PRECONDITION."},
  "page_detection": {"type": "string", "enum": ["auto", "off"], "description": "auto (default): a photographed page (paper on a darker surround, four corners in the picture) is found, perspective-corrected, lit evenly and straightened before recognition, boxes staying in the photo's pixels and the page's corners in the result's pageQuad; scans are read as they are. off: every image as it is."}}
job_props = {
  "job_key": {"type": "string", "description": "Idempotency key: the same key (for the same client) returns the first job."},
  "priority": {"type": "integer", "minimum": -1000000, "maximum": 1000000},
  "timeout_ms": {"type": "integer", "minimum": 0, "maximum": 31536000000},
  "max_attempts": {"type": "integer", "minimum": 0, "maximum": 100},
  "callback_url": {"type": "string", "format": "uri", "description": "POSTed the job summary (signed) when the job finishes; must match the coordinator's --webhook-allow."}}
query_params = []
for name, schema in list(job_props.items()) + list(options_props.items()):
    if schema.get("type") == "array":
        schema = {"type": "string", "description": "Comma-separated."}
    query_params.append({"name": name, "in": "query", "required": False, "schema": schema})
query_params.append({"name": "filename", "in": "query", "required": False, "schema": {"type": "string"}, "description": "The name of a raw-body upload (default `upload`)."})
submit_json = {"type": "object", "additionalProperties": False, "required": ["files"],
  "properties": dict({"files": {"type": "array", "minItems": 1, "items": {"type": "object", "required": ["name", "content"], "additionalProperties": False,
      "properties": {"name": {"type": "string"}, "content": {"type": "string", "format": "byte", "description": "The file, base64."}}}},
    "options": {"$ref": "#/components/schemas/Options"},
    "labels": {"type": "object", "additionalProperties": {"type": "string"}}}, **job_props)}
retry_after = {"description": "Seconds until asking about an unfinished job again is worthwhile (or follow its events).", "schema": {"type": "integer"}}
def cancel(operation, summary):
    return {"operationId": operation, "summary": summary, "parameters": [job_id],
            "responses": dict({"200": {"description": "the job after the cancel", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Job"}}}}}, **errs(400, 401, 404, 409, 503, 504))}
doc = {
 "openapi": "3.0.3",
 "info": {"title": "ocr-cluster coordinator HTTP API", "version": "1.0.0",
   "description": "The REST face of the coordinator's RPCs (PROTOCOL.md): submit scans, follow them, fetch the merged document, cancel. Errors are JSON `Status` objects with the gRPC code name; RESOURCE_EXHAUSTED is 429 (413 for a body over the limit), FAILED_PRECONDITION 409, UNAVAILABLE 503. With `--http-tokens`, every path but /healthz and /readyz needs `Authorization: Bearer TOKEN` (or `?access_token=`)."},
 "servers": [{"url": "http://127.0.0.1:8080"}],
 "security": [{"bearer": []}, {}],
 "paths": {
  "/healthz": {"get": {"operationId": "healthz", "summary": "The process is alive.", "security": [],
      "responses": {"200": {"description": "alive", "content": {"text/plain": {"schema": {"type": "string"}}}}}}},
  "/readyz": {"get": {"operationId": "readyz", "summary": "Accepting jobs: the journal is restored and writable, the scheduler answers.", "security": [],
      "responses": {"200": {"description": "ready", "content": {"text/plain": {"schema": {"type": "string"}}}},
                    "503": {"description": "not ready, and why", "content": {"text/plain": {"schema": {"type": "string"}}}}}}},
  "/metrics": {"get": {"operationId": "metrics", "summary": "Prometheus metrics (text exposition format 0.0.4).",
      "responses": dict({"200": {"description": "metrics", "content": {"text/plain": {"schema": {"type": "string"}}}}}, **errs(401, 503))}},
  "/openapi.json": {"get": {"operationId": "openapi", "summary": "This document.",
      "responses": dict({"200": {"description": "OpenAPI 3", "content": {"application/json": {"schema": {"type": "object"}}}}}, **errs(401))}},
  "/": {"get": {"operationId": "statusPage", "summary": "The live status page (HTML; polls /v1/cluster and /v1/jobs).",
      "responses": dict({"200": {"description": "HTML", "content": {"text/html": {"schema": {"type": "string"}}}}}, **errs(401))}},
  "/v1/jobs": {
    "post": {"operationId": "submitJob", "summary": "Submit scans as one job (SubmitJob).",
      "description": "The files as the raw body (one file; name it with `?filename=`), as multipart/form-data (each part with a file name is a file; a part `options` holds JSON options), or as JSON with base64 contents. Options and job fields may also be query arguments.",
      "parameters": query_params,
      "requestBody": {"required": True, "content": {
        "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
        "image/tiff": {"schema": {"type": "string", "format": "binary"}},
        "application/pdf": {"schema": {"type": "string", "format": "binary"}},
        "multipart/form-data": {"schema": {"type": "object", "properties": {
            "file": {"type": "array", "items": {"type": "string", "format": "binary"}},
            "options": {"type": "string", "description": "Options as a JSON object (see Options)."}}}},
        "application/json": {"schema": {"$ref": "#/components/schemas/SubmitJSON"}}}},
      "responses": dict({
        "202": {"description": "accepted; follow `Location`", "headers": {"Location": {"schema": {"type": "string"}}, "Retry-After": retry_after},
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Job"}}}},
        "200": {"description": "`job_key` matched an earlier job: that job", "headers": {"Location": {"schema": {"type": "string"}}, "Retry-After": retry_after},
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Job"}}}},
        "413": {"description": "the body is over the limit", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Status"}}}}},
        **errs(400, 401, 404, 409, 429, 503, 504))},
    "get": {"operationId": "listJobs", "summary": "The newest jobs this client may see (ListJobs).",
      "parameters": [
        {"name": "state", "in": "query", "required": False, "schema": {"type": "string", "pattern": "^(QUEUED|RUNNING|SUCCEEDED|PARTIAL|FAILED|CANCELLED|EXPIRED)(,(QUEUED|RUNNING|SUCCEEDED|PARTIAL|FAILED|CANCELLED|EXPIRED))*$"}, "description": "Only jobs in these states, comma-separated."},
        {"name": "limit", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 1, "maximum": 10000, "default": 100}},
        {"name": "page_token", "in": "query", "required": False, "schema": {"type": "string"}, "description": "nextPageToken of the previous page; omit for the first."}],
      "responses": dict({"200": {"description": "jobs, newest first", "content": {"application/json": {"schema": {"type": "object", "required": ["jobs", "nextPageToken"],
          "properties": {"jobs": {"type": "array", "items": {"$ref": "#/components/schemas/Job"}},
                         "nextPageToken": {"type": "string", "description": "page_token for the jobs after these; empty on the last page."}}}}}}}, **errs(400, 401, 503, 504))}},
  "/v1/jobs/{id}": {
    "get": {"operationId": "getJob", "summary": "The job now (GetJob).",
      "parameters": [job_id, {"name": "pages", "in": "query", "required": False, "schema": {"type": "boolean"}, "description": "Include every page's state."}],
      "responses": dict({"200": {"description": "the job", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Job"}}}}}, **errs(400, 401, 404, 503, 504))},
    "delete": {"operationId": "deleteJob", "summary": "Delete a finished job and what is kept of it (DeleteJob): its results, journal rows and uploads no other job uses. 409 while it runs: cancel it first (POST /v1/jobs/{id}:cancel). As google.longrunning's DeleteOperation.",
      "parameters": [job_id],
      "responses": dict({"204": {"description": "deleted"}}, **errs(400, 401, 404, 409, 503, 504))}},
  "/v1/jobs/{id}:cancel": {"post": cancel("cancelJob", "Cancel the job (CancelJob): queued pages are dropped, running ones stopped.")},
  "/v1/jobs/{id}/cancel": {"post": cancel("cancelJobByPath", "The same as POST /v1/jobs/{id}:cancel, for clients that cannot put a colon in a path.")},
  "/v1/jobs/{id}/events": {
    "get": {"operationId": "jobEvents", "summary": "The job's events as Server-Sent Events until it finishes (WatchJob).",
      "description": "Events `page_completed`, `page_failed`, `progress`, `finished` (then the stream ends) and `error`; `data` is JSON. Each `id` is the lowest page index not yet delivered on the stream: reconnecting with `Last-Event-ID` (browsers do it themselves) resumes there; a page above it may come twice (tell them apart by `pageIndex`). A comment every 15 s keeps idle connections open.",
      "parameters": [job_id,
        {"name": "Last-Event-ID", "in": "header", "required": False, "schema": {"type": "string", "pattern": "^[0-9]{1,9}$"}},
        {"name": "from_page", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 0, "maximum": 999999999}}],
      "responses": dict({"200": {"description": "an event stream", "content": {"text/event-stream": {"schema": {"type": "object",
          "properties": {"event": {"type": "string", "enum": ["page_completed", "page_failed", "progress", "finished", "error"]},
                         "id": {"type": "string", "pattern": "^[0-9]+$"}, "data": {"type": "string", "description": "JSON: PageCompletedEvent, PageFailedEvent, ProgressEvent, FinishedEvent or Status."}}}}}}}, **errs(400, 401, 404, 503, 504))}},
  "/v1/jobs/{id}/document": {
    "get": {"operationId": "jobDocument", "summary": "The merged document of a finished job. Several pages of PAGE XML (one document per page) come as a zip of JOB-0001.xml...; `page` gives one page in any format. A job that ended with no page recognised has none (409 saying why); every document carries its job's final state in X-OCR-Job-State (PARTIAL and CANCELLED documents lack pages).",
      "parameters": [job_id, {"name": "format", "in": "query", "required": False,
          "schema": {"type": "string", "enum": ["txt", "json", "hocr", "alto", "tsv", "page", "pdf"], "default": "json"}},
          {"name": "page", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 1}, "description": "Only this page (1-based); 400 OUT_OF_RANGE past the last."}],
      "responses": dict({"200": {"description": "the document", "headers": {"X-OCR-Job-State": {"description": "How the job ended: SUCCEEDED, PARTIAL, FAILED, CANCELLED or EXPIRED.", "schema": {"type": "string"}}}, "content": {
          "application/zip": {"schema": {"type": "string", "format": "binary"}},
          "text/plain": {"schema": {"type": "string"}}, "application/json": {"schema": {"type": "object"}},
          "application/xhtml+xml": {"schema": {"type": "string"}}, "application/xml": {"schema": {"type": "string"}},
          "text/tab-separated-values": {"schema": {"type": "string"}}, "application/pdf": {"schema": {"type": "string", "format": "binary"}}}},
          "409": {"description": "the job is still running (Retry-After says when to ask again), or it ended with no page recognised",
                  "headers": {"Retry-After": retry_after}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Status"}}}}},
          **errs(400, 401, 404, 503, 504))}},
  "/v1/cluster": {
    "get": {"operationId": "clusterStatus", "summary": "Workers, slots, queue, throughput and recent page failures (ClusterStatus).",
      "responses": dict({"200": {"description": "the cluster", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Cluster"}}}}}, **errs(401, 503, 504))}}},
 "components": {
  "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "description": "A token from the coordinator's --http-tokens file."}},
  "responses": {"Error": {"description": "an error", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Status"}}}}},
  "schemas": {
    "Status": status, "Job": job,
    "Options": {"type": "object", "additionalProperties": False, "properties": options_props},
    "SubmitJSON": submit_json,
    "Cluster": {"type": "object", "required": ["workers", "totalSlots", "busySlots", "queueDepth", "activeJobs", "pagesPerSecond", "pagesDone", "uptimeSeconds", "throughput", "recentFailures"],
      "properties": {
        "workers": {"type": "array", "items": {"type": "object", "required": ["uid", "host", "slots", "busy", "held", "languages", "version", "pagesDone", "lastSeenMsAgo", "labels"],
           "properties": {"uid": {"type": "string"}, "host": {"type": "string"}, "slots": {"type": "integer"},
              "busy": {"type": "integer", "description": "Slots recognising a page now."},
              "held": {"type": "integer", "description": "Pages the worker holds: busy slots and prefetched pages."},
              "languages": {"type": "array", "items": {"type": "string"}}, "version": {"type": "string"}, "pagesDone": {"type": "integer"}, "lastSeenMsAgo": {"type": "integer"},
              "labels": {"type": "object", "additionalProperties": {"type": "string"}, "description": "The worker's --label KEY=VALUE pairs."}}}},
        "totalSlots": {"type": "integer"}, "busySlots": {"type": "integer"}, "queueDepth": {"type": "integer"}, "activeJobs": {"type": "integer"},
        "pagesPerSecond": {"type": "number"}, "pagesDone": {"type": "integer"}, "uptimeSeconds": {"type": "number"},
        "throughput": {"type": "array", "items": {"type": "number"}, "description": "Pages per second in each of the last 60 ten-second intervals, oldest first."},
        "recentFailures": {"type": "array", "items": {"type": "object", "required": ["at", "jobId", "pageIndex", "status"],
           "properties": {"at": {"type": "string", "format": "date-time"}, "jobId": {"type": "string"}, "pageIndex": {"type": "integer"}, "status": {"$ref": "#/components/schemas/Status"}}}}}}}}}
open(__import__('os').path.join(__import__('os').path.dirname(__file__), '..', '..', 'openapi.json'), 'w').write(json.dumps(doc, indent=2) + "\n")
