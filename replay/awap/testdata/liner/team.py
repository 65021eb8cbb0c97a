"""An AWAP 2019 player in the distribution's form, written for replaylab's
tests: each bot walks toward the end of the nearest company line it can
reach by a free tile and enters it there."""
from awap2019 import Tile, Direction, State


class Team(object):
    def __init__(self, initial_board, team_size, company_info):
        self.board = initial_board
        self.team_size = team_size
        self.company_info = company_info
        self.team_name = "liner"
        # Every line tile, known from the start as the initial board shows
        # lines and booths.
        self.lines = [t.get_loc() for row in initial_board for t in row if t.get_line() is not None]

    def step(self, visible_board, states, score):
        moves = []
        for s in states:
            here = visible_board[s.x][s.y]
            if s.state == "inline":
                moves.append(Direction.NONE)
            elif here.get_line() is not None and here.is_end_of_line():
                moves.append(Direction.ENTER)
            else:
                moves.append(self.toward(visible_board, (s.x, s.y)))
        return moves

    def toward(self, board, loc):
        if not self.lines:
            return Direction.NONE
        goal = min(self.lines, key=lambda g: abs(g[0] - loc[0]) + abs(g[1] - loc[1]))
        for d in (Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT):
            x, y = d.get_loc(loc)
            if not (0 <= x < len(board) and 0 <= y < len(board[0])):
                continue
            if board[x][y].get_booth() is not None:
                continue
            if abs(goal[0] - x) + abs(goal[1] - y) < abs(goal[0] - loc[0]) + abs(goal[1] - loc[1]):
                return d
        return Direction.NONE
