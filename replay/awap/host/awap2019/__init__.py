"""A clean-room stand-in for the awap2019 package of the AWAP 2019 career
fair, written for replaylab: the classes a player's Team meets (Tile,
Direction, State) with the names, attributes and methods players call,
filled from replaylab's view of the match. The game itself is not here:
replaylab plays it."""

import enum

__all__ = ["Tile", "Direction", "State"]


class Direction(enum.Enum):
    """A bot's move; x and y are the step in rows and columns (None where
    the move goes nowhere)."""

    NONE = (None, None)
    LEFT = (0, -1)
    UP = (-1, 0)
    RIGHT = (0, 1)
    DOWN = (1, 0)
    ENTER = (0, 0)
    REPLACE = (None, 0)

    def __init__(self, x, y):
        self.x = x
        self.y = y

    def get_loc(self, loc):
        """The location this move leads to from loc."""
        if self.x is None:
            return loc
        return (loc[0] + self.x, loc[1] + self.y)

    @classmethod
    def get_dir(cls, loc1, loc2):
        """The move from loc1 to the neighbouring loc2, NONE if there is none."""
        step = (loc2[0] - loc1[0], loc2[1] - loc1[1])
        for d in (cls.LEFT, cls.UP, cls.RIGHT, cls.DOWN):
            if (d.x, d.y) == step:
                return d
        return cls.NONE


class _Bot(object):
    """A bot on a tile. The view counts bots without telling whose they
    are, so a tile's bot lists hold these stand-ins."""

    __slots__ = ()

    def __repr__(self):
        return "Bot"


class Tile(object):
    """One tile of the board, as the team sees it. Its bots are counted
    only; bots and bots_in_line are lists of that many stand-ins, made
    when asked for, as a board is built every step."""

    __slots__ = ("loc", "visible", "num_bots", "in_line", "end_of_line",
                 "threshold", "line", "booth")

    def __init__(self, x, y, visible=False, num_bots=0, in_line=0,
                 end_of_line=False, threshold=1, line=None, booth=None):
        self.loc = (x, y)
        self.visible = visible
        self.num_bots = num_bots
        self.in_line = in_line
        self.end_of_line = end_of_line
        self.threshold = threshold
        self.line = line
        self.booth = booth

    @property
    def bots(self):
        """The bots on the tile not in line."""
        return [_Bot() for _ in range(max(self.num_bots - self.in_line, 0))]

    @property
    def bots_in_line(self):
        return [_Bot() for _ in range(self.in_line)]

    def get_loc(self):
        return self.loc

    def get_line(self):
        """The company whose line the tile is part of, or None."""
        return self.line

    def get_booth(self):
        """The company whose booth the tile is, or None."""
        return self.booth

    def get_num_bots(self):
        """All bots on the tile, those in line included."""
        return self.num_bots

    def get_bots_in_line(self):
        return self.bots_in_line

    def is_end_of_line(self):
        return self.end_of_line

    def is_visible(self):
        return self.visible

    def get_threshold(self):
        return self.threshold

    def __str__(self):
        return "({}, {})".format(self.num_bots - self.in_line, self.in_line)

    def __repr__(self):
        if self.booth is not None:
            return "BOOTH"
        kind = "E" if self.end_of_line else "L" if self.line is not None else "T"
        return "{}{:02d}{:02d}".format(kind, self.num_bots - self.in_line, self.in_line)


class State(object):
    """One of the team's bots."""

    def __init__(self, dir, team_id, id, x, y, progress, threshold, line_pos, state):
        self.dir = dir
        self.team_id = team_id
        self.id = id
        self.x = x
        self.y = y
        self.progress = progress
        self.threshold = threshold
        self.line_pos = line_pos
        self.state = state

    def get_num_encoding(self):
        return " ".join(str(v) for v in (
            self.team_id, self.id, self.x, self.y, self.state,
            self.progress, self.threshold, self.line_pos))

    def __repr__(self):
        return "ID_{:02d} @{:02d}.{:02d} P_{:02d}_T_{:02d}_L_{:02d}".format(
            self.id, self.x, self.y, self.progress, self.threshold, self.line_pos)
