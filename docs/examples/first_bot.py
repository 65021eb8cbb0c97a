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
digging through dirt on the way. Its answers also carry a debug drawing
(a line to the enemy it aims at or walks to, a mark on the cell it
chooses), which the inspector draws over the board when you tick its
seat under "Debug drawing".

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
    """Returns the command and the debug drawing of the turn."""
    me = view["myPlayer"]
    worm = next(w for w in me["worms"] if w["id"] == me["currentWormId"])
    x, y = worm["position"]["x"], worm["position"]["y"]
    enemies = [w for p in view["opponents"] for w in p["worms"] if w["health"] > 0]
    if not enemies:
        return "nothing", []
    reach = worm["weapon"]["range"]
    for e in enemies:
        ex, ey = e["position"]["x"], e["position"]["y"]
        dx, dy = ex - x, ey - y
        in_line = dx == 0 or dy == 0 or abs(dx) == abs(dy)
        if in_line and dx * dx + dy * dy <= reach * reach:
            step = ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))
            name = next(n for n, d in DIRECTIONS.items() if d == step)
            print(f"worm {worm['id']} shoots {name} at ({ex}, {ey})", file=sys.stderr)
            return "shoot " + name, [{"line": [x, y, ex, ey], "color": "red"}, {"text": "fire!", "at": [ex, ey - 1]}]

    def dist2(cx, cy):
        return min((e["position"]["x"] - cx) ** 2 + (e["position"]["y"] - cy) ** 2 for e in enemies)

    target = min(enemies, key=lambda e: (e["position"]["x"] - x) ** 2 + (e["position"]["y"] - y) ** 2)
    drawing = [{"line": [x, y, target["position"]["x"], target["position"]["y"]], "color": "gray"}]
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
        return "nothing", drawing
    verb = "move" if cells[best] == "AIR" else "dig"
    return f"{verb} {best[0]} {best[1]}", drawing + [{"mark": list(best), "color": "green"}]


for line in sys.stdin:
    request = json.loads(line)
    command, drawing = choose(request["view"])
    answer = {"turn": request["turn"], "command": command, "debug": drawing}
    print(json.dumps(answer), flush=True)
