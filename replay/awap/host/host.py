"""replaylab's host for an AWAP 2019 player: it loads the Team class of the
team.py named on the command line and plays it over replaylab's JSON-lines
protocol. Each request line {"turn":N,"player":P,"view":{...}} becomes the
original's call: Team(initial_board, team_size, company_info) before the
first, then step(visible_board, states, score), whose list of four
Directions is the answer {"turn":N,"command":"A,B,C,D"}. In the idle steps
the original calls no step; neither does the host, which answers NONE for
every bot. An exception ends the host, as it ended the original game.
What the team prints goes to standard error, so no print is mistaken for
an answer. It writes no bytecode cache beside the team's files."""

import sys

sys.dont_write_bytecode = True  # leave no __pycache__ beside the team

import importlib.util
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def load_team(path):
    """The Team class of the file at path, whose directory is importable
    (a team may import its own modules) after ours (our awap2019 first)."""
    sys.path[:0] = [HERE, os.path.dirname(os.path.abspath(path))]
    spec = importlib.util.spec_from_file_location("team", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["team"] = module
    spec.loader.exec_module(module)
    return module.Team


def board_of(view, blank):
    """The board of view as Tiles; blank: as the original's initial copy,
    every tile unseen and empty."""
    from awap2019 import Tile
    if blank:
        return [[Tile(t["x"], t["y"], line=t.get("line"), booth=t.get("booth")) for t in row]
                for row in view["board"]]
    return [[Tile(t["x"], t["y"], t["visible"], t["num_bots"], t["in_line"], t["end_of_line"],
                  t["threshold"], t.get("line"), t.get("booth")) for t in row]
            for row in view["board"]]


def states_of(view, team):
    from awap2019 import Direction, State
    return [State(Direction[s["dir"]], team, s["id"], s["x"], s["y"], s["progress"],
                  s["threshold"], s["line_pos"], s["state"]) for s in view["states"]]


def command_of(moves):
    """The command of step's answer: each Direction's name; anything else
    is passed on as text, for the game to report as an invalid action."""
    from awap2019 import Direction
    if moves is None:
        return ""
    if isinstance(moves, Direction):
        moves = [moves]
    names = []
    for m in moves:
        names.append(m.name if isinstance(m, Direction) else str(m))
    return ",".join(names)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: host.py TEAM.py")
    out = sys.stdout
    sys.stdout = sys.stderr
    team_class = load_team(sys.argv[1])
    team = None
    for line in sys.stdin:
        request = json.loads(line)
        view = request["view"]
        if team is None:
            team = team_class(board_of(view, True), view["team_size"], view["company_info"])
        if view["phase"] == "idle":
            command = ",".join(["NONE"] * view["team_size"])
        else:
            moves = team.step(board_of(view, False), states_of(view, request["player"]), view["score"])
            command = command_of(moves)
        out.write(json.dumps({"turn": request["turn"], "command": command}) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
