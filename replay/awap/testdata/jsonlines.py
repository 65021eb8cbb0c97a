"""A trivial career fair bot in replaylab's JSON lines, for the benchmark:
it reads each request and stands still."""
import json
import sys

for line in sys.stdin:
    turn = json.loads(line)["turn"]
    sys.stdout.write(json.dumps({"turn": turn, "command": "NONE,NONE,NONE,NONE"}) + "\n")
    sys.stdout.flush()
