# A Worms bot for the Entelect 2019 runner, as the starter bots are: it
# reads the round number on stdin, the state from rounds/N/state.json in
# its working directory, and prints "C;N;command". mode.txt beside it
# picks a misbehaviour for the tests.
import json, os, subprocess, sys

mode = open("mode.txt").read().strip() if os.path.exists("mode.txt") else "good"

def command(state):
    me = state["myPlayer"]
    worm = next(w for w in me["worms"] if w["id"] == state["currentWormId"])
    x, y = worm["position"]["x"], worm["position"]["y"]
    cells = state["map"]
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)):
        if not (0 <= x + dx < state["mapSize"] and 0 <= y + dy < state["mapSize"]):
            continue
        c = cells[y + dy][x + dx]
        if c["type"] == "DIRT":
            return "dig %d %d" % (x + dx, y + dy)
        if c["type"] == "AIR" and "occupier" not in c:
            return "move %d %d" % (x + dx, y + dy)
    return "shoot N"

for line in sys.stdin:
    n = int(line)
    with open(os.path.join("rounds", str(n), "state.json")) as f:
        state = json.load(f)
    cmd = command(state)
    print("player %d read round %d" % (state["myPlayer"]["id"], state["currentRound"]), file=sys.stderr, flush=True)
    if mode == "chatter":
        print("thinking about round %d" % n)
        print("C;%d;invalid, an answer to another round" % (n + 1))
        print("stderr of round %d" % n, file=sys.stderr, flush=True)
    elif mode == "late" and n == 3:
        continue  # answered once round 4 has come, too late
    elif mode == "late" and n == 4:
        print("C;3;%s" % cmd)
    elif mode == "flood" and n == 2:
        sys.stdout.write(("x" * 1000 + "\n") * 5000)
    elif mode == "crash" and n == 3:
        sys.exit(1)
    elif mode == "child" and n == 1:
        p = subprocess.Popen(["sleep", "600"])
        open("child.pid", "w").write(str(p.pid))
    elif mode == "long" and n == 2:
        cmd = "nothing " + "y" * 100000
    print("C;%d;%s" % (n, cmd), flush=True)
