"""An AWAP 2019 player for replaylab's tests that misbehaves as the
variable AWAP_TEST_MODE says, from the third play step on (before it, it
stands still):

    raise   step raises an exception
    print   __init__ and every step print a line
    slow    the third play step sleeps AWAP_TEST_SLEEP seconds
    dump    the first step prints the visible board's and the states' repr
    garbage the third play step returns a direction, a string and None
"""
import os
import sys
import time

from awap2019 import Direction

MODE = os.environ.get("AWAP_TEST_MODE", "")


class Team(object):
    def __init__(self, initial_board, team_size, company_info):
        self.steps = 0
        if MODE == "print":
            print("init", team_size, len(initial_board), sorted(company_info)[:2])
        if MODE == "dump":
            print("initial", [[repr(t) for t in row] for row in initial_board])
            print("visible", any(t.is_visible() for row in initial_board for t in row))

    def step(self, visible_board, states, score):
        self.steps += 1
        if MODE == "print":
            print("step", self.steps, "score", score)
        if MODE == "dump" and self.steps == 1:
            print("step", self.steps, "score", score)
            for row in visible_board:
                print(" ".join(repr(t) for t in row))
            print(states)
            print([s.get_num_encoding() for s in states])
        if self.steps == 3:
            if MODE == "raise":
                raise RuntimeError("step 3 goes wrong")
            if MODE == "slow":
                time.sleep(float(os.environ["AWAP_TEST_SLEEP"]))
            if MODE == "garbage":
                return [Direction.UP, "JUMP", None]
        return [Direction.NONE] * len(states)
