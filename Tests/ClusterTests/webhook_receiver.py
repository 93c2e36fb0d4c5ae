"""A webhook receiver for WebhookTests: listens on 127.0.0.1:PORT, answers every POST with 204,
and appends one JSON line per request to LOG: path, the X-OCR-* headers, the body, and whether
X-OCR-Signature is the HMAC-SHA256 of the body under SECRET (checked with Python's hmac, an
implementation independent of the coordinator's libsodium)."""
import hashlib
import hmac
import http.server
import json
import sys

port, log, secret = int(sys.argv[1]), sys.argv[2], sys.argv[3].encode()


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        expected = "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()
        record = {
            "path": self.path,
            "signature": self.headers.get("X-OCR-Signature"),
            "valid_signature": hmac.compare_digest(expected, self.headers.get("X-OCR-Signature", "")),
            "delivery": self.headers.get("X-OCR-Delivery"),
            "job": self.headers.get("X-OCR-Job"),
            "content_type": self.headers.get("Content-Type"),
            "body": json.loads(body),
        }
        with open(log, "a") as f:
            f.write(json.dumps(record) + "\n")
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
