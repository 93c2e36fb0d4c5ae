"""Prints, as JSON, the command lines the deploy files start: {"kubernetes-coordinator": [...],
"kubernetes-worker": [...], "compose-coordinator": [...], "compose-worker": [...],
"systemd-coordinator": [...], "systemd-worker": [...]} (systemd's ExecStart split as systemd
splits it, continuation lines joined). DeployTests runs them with their paths replaced."""
import json
import shlex
import sys

import yaml

deploy = sys.argv[1]
out = {}
for doc in yaml.safe_load_all(open(f"{deploy}/kubernetes/ocr-cluster.yaml")):
    if doc and doc.get("kind") == "Deployment":
        container = doc["spec"]["template"]["spec"]["containers"][0]
        out["kubernetes-" + container["name"]] = container["command"] + container.get("args", [])
compose = yaml.safe_load(open(f"{deploy}/compose.yaml"))
for name, service in compose["services"].items():
    out["compose-" + name.removeprefix("ocr-")] = service["command"]
for unit in ("coordinator", "worker"):
    text = open(f"{deploy}/systemd/ocr-{unit}.service").read().replace("\\\n", " ")
    line = next(l for l in text.splitlines() if l.startswith("ExecStart="))
    out["systemd-" + unit] = shlex.split(line.removeprefix("ExecStart="))
print(json.dumps(out))
