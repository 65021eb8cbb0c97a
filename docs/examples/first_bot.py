#!/usr/bin/env python3
"""A first Worms bot for replaylab: a starting point to copy and change.

Each turn replaylab writes one JSON line on standard input,
{"turn": N, "player": SEAT, "view": {...}}, and reads one answer line on
standard output. `replaylab view --game worms` prints a real view and
explains its fields. This bot answers in the JSON form
{"turn": N, "command": "..."}, so anything else it prints on standard
output (or standard error) is kept as its debug output, shown per turn
in the inspector.

Its play: the worm whose turn it is shoots an enemy in a straight line
within its weapon's range, or else steps towards the nearest enemy,
digging through dirt on the way.

Try it:
    replaylab record --game worms --bot "python3 docs/examples/first_bot.py" \\
        --bot builtin:tactical -o w.rpl
"""
import json
import sys

# Shooting directions: name and (dx, dy); y grows downwards, so N is y - 1.
DIRECTIONS = {
    "N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1),
    "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1),
}


def choose(view):
    me = view["myPlayer"]
    worm = next(w for w in me["worms"] if w["id"] == me["currentWormId"])
    x, y = worm["position"]["x"], worm["position"]["y"]
    enemies = [w for p in view["opponents"] for w in p["worms"] if w["health"] > 0]
    if not enemies:
        return "nothing"
    reach = worm["weapon"]["range"]
    for e in enemies:
        dx, dy = e["position"]["x"] - x, e["position"]["y"] - y
        in_line = dx == 0 or dy == 0 or abs(dx) == abs(dy)
        if in_line and dx * dx + dy * dy <= reach * reach:
            step = ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))
            name = next(n for n, d in DIRECTIONS.items() if d == step)
            print(f"worm {worm['id']} shoots {name} at {e['position']}", file=sys.stderr)
            return "shoot " + name

    def dist2(cx, cy):
        return min((e["position"]["x"] - cx) ** 2 + (e["position"]["y"] - cy) ** 2 for e in enemies)

    cells = {(c["x"], c["y"]): c["type"] for row in view["map"] for c in row}
    taken = {(w["position"]["x"], w["position"]["y"]) for p in [me] + view["opponents"]
             for w in p["worms"] if w["health"] > 0}
    best = None
    for dx, dy in DIRECTIONS.values():
        cell = (x + dx, y + dy)
        if cells.get(cell) not in ("AIR", "DIRT") or cell in taken:
            continue
        if best is None or dist2(*cell) < dist2(*best):
            best = cell
    if best is None:
        return "nothing"
    verb = "move" if cells[best] == "AIR" else "dig"
    return f"{verb} {best[0]} {best[1]}"


for line in sys.stdin:
    request = json.loads(line)
    answer = {"turn": request["turn"], "command": choose(request["view"])}
    print(json.dumps(answer), flush=True)
