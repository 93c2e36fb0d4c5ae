"""Turns deploy/netns-faults.sh's output into one bench result line (JSON).

    faults.py EXIT_STATUS STDOUT_FILE STDERR_FILE
"""
import json
import sys

runs, ratio = [], None
for line in open(sys.argv[2]):
    fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
    if "run" in fields:
        runs.append(fields)
    elif "throughput_ratio" in fields:
        ratio = float(fields["throughput_ratio"])
print(json.dumps({"bench": "faults", "rc": int(sys.argv[1]), "runs": runs, "throughput_ratio": ratio,
                  "stderr": open(sys.argv[3]).read()[-2000:]}))
