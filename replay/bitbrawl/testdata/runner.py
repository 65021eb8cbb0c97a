# A stand-in for BitBrawl's foodfight-runner jar that speaks its protocol
# exactly: each turn it reads three JSON values from stdin, not lines (the
# field state, the team symbol, the player symbol), and answers with one
# JSON value, an action name or null, followed by a space and no newline.
# argv[1] picks a misbehaviour for the tests.
import json, os, subprocess, sys, time

mode = sys.argv[1] if len(sys.argv) > 1 else "good"
decoder = json.JSONDecoder()
buf = ""

def value():
    global buf
    while True:
        buf = buf.lstrip()
        if buf:
            try:
                v, end = decoder.raw_decode(buf)
                buf = buf[end:]
                return v
            except ValueError:
                pass
        chunk = os.read(0, 1 << 16)
        if not chunk:
            sys.exit(0)
        buf += chunk.decode()

ACTIONS = ["moveForward", "turnLeft", "moveForward", "turnRight", "duck", None]

while True:
    field, team, player = value(), value(), value()
    me = [p for t in field["teams"] if t["symbol"] == team for p in t["players"] if p["symbol"] == player]
    if len(me) != 1:
        print("no player %s in team %s" % (player, team), file=sys.stderr)
        sys.exit(3)
    n = field["turnNumber"]
    action = ACTIONS[n % len(ACTIONS)]
    if mode == "chatter":
        print("turn %d: at %s" % (n, me[0]["location"]), file=sys.stderr, flush=True)
        sys.stdout.write("debug%d " % n)
    elif mode == "late" and n == 3:
        time.sleep(float(sys.argv[2]))
    elif mode == "flood" and n == 2:
        sys.stdout.write("x" * 3000000 + " ")
    elif mode == "crash" and n == 3:
        sys.exit(1)
    elif mode == "child" and n == 1:
        p = subprocess.Popen(["sleep", "600"])
        open(sys.argv[2], "w").write(str(p.pid))
    elif mode == "long" and n == 2:
        action = "y" * 100000
    sys.stdout.write(json.dumps(action) + " ")
    sys.stdout.flush()
