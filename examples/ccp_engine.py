#!/usr/bin/env python3
"""A minimal CCP engine: it plays a random legal move. Standard library only.

CCP is the Chinese Checkers Protocol of the public CCERL engine benchmark; `turnpost bot run
--engine 'python3 examples/ccp_engine.py' --protocol ccp` lets an engine that speaks it play
2-player Chinese Checkers on turnpost (README, "Outside engines as players"). It is sent

    ccp                                               answered with `id ...` lines and `ccpok`
    isready                                           answered with `readyok`
    position cells <121 chars> player <0|1> ply <N>   the position (or `position startpos`)
    go movetime <ms>                                  answered with `bestmove <from>-...-<to>`
    quit                                              the end (or the end of input)

Unlike turnpost's own protocol, CCP sends no legal moves: the engine knows the board and the
rules, so this one generates its moves itself, over CCP's cell ids.

The board as CCP numbers it: axial hex coordinates (q, r) with s = -q - r; the 121 holes are
the two big triangles q, r, s >= -4 and q, r, s <= 4 together; cell ids 0-120 run by r (top
row first), then by q. Player 0 starts in the top point (r < -4, ids 0-9) and moves first;
its goal is the bottom point (r > 4), player 1's the other way round. A cell of the position
is `.` (empty), `0` or `1`.

A move is a step to an adjacent empty hole, or a chain of hops, each over one adjacent peg
(either colour) into the empty hole beyond; a chain never lands on a hole twice nor on the hole
it started from, which is empty while its peg moves. Goal lock: a peg on a hole of its goal
(at the start or after any hop of the chain) may only step or hop to holes of its goal.

Usage: ccp_engine.py [--seed N]
"""

import random
import sys

DIRECTIONS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]


def build_board():
    """The coordinates of each cell id, and the id of each coordinate."""
    coords = []
    for r in range(-8, 9):
        for q in range(-8, 9):
            s = -q - r
            if min(q, r, s) >= -4 or max(q, r, s) <= 4:
                coords.append((q, r))
    coords.sort(key=lambda c: (c[1], c[0]))
    assert len(coords) == 121
    return coords, {c: i for i, c in enumerate(coords)}


COORDS, ID_AT = build_board()
# For each cell and direction: the adjacent cell and the cell beyond it (None off the board).
ADJACENT = [[ID_AT.get((q + dq, r + dr)) for dq, dr in DIRECTIONS] for q, r in COORDS]
BEYOND = [[ID_AT.get((q + 2 * dq, r + 2 * dr)) for dq, dr in DIRECTIONS] for q, r in COORDS]
# The goal of each player: player 0 goes to the bottom point, player 1 to the top one.
GOAL = [
    {i for i, (_, r) in enumerate(COORDS) if r > 4},
    {i for i, (_, r) in enumerate(COORDS) if r < -4},
]
START_CELLS = "0" * 10 + "." * 101 + "1" * 10


def legal_moves(cells, player):
    """Every legal move of `player` as a path of cell ids (one path per destination)."""
    me = str(player)
    goal = GOAL[player]
    moves = []
    for start in range(121):
        if cells[start] != me:
            continue
        locked = start in goal
        for to in ADJACENT[start]:
            if to is not None and cells[to] == "." and (not locked or to in goal):
                moves.append([start, to])
        # Hop chains, depth first; each destination once (any chain to it is the same move).
        reached = {start}
        stack = [(start, locked, [start])]
        while stack:
            at, locked_here, path = stack.pop()
            for direction in range(6):
                over, to = ADJACENT[at][direction], BEYOND[at][direction]
                if over is None or to is None:
                    continue
                if over == start or cells[over] == ".":
                    continue  # nothing to hop over (the start hole is empty now)
                if cells[to] != "." or to in reached or (locked_here and to not in goal):
                    continue
                reached.add(to)
                chain = path + [to]
                moves.append(chain)
                stack.append((to, locked_here or to in goal, chain))
    return moves


def main():
    seed = None
    if "--seed" in sys.argv:
        seed = int(sys.argv[sys.argv.index("--seed") + 1])
    rng = random.Random(seed)
    cells, player = START_CELLS, 0

    def say(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "ccp":
            say("id name turnpost-ccp-random")
            say("id author turnpost examples")
            say("ccpok")
        elif command == "isready":
            say("readyok")
        elif command == "position":
            if words[1:2] == ["startpos"]:
                cells, player = START_CELLS, 0
            elif words[1:2] == ["cells"] and len(words) >= 5 and words[3] == "player":
                cells, player = words[2], int(words[4])
        elif command == "go":
            moves = legal_moves(cells, player) if len(cells) == 121 else []
            if moves:
                say("bestmove " + "-".join(str(cell) for cell in rng.choice(moves)))
            else:
                say("bestmove 0000")
        elif command == "quit":
            return


if __name__ == "__main__":
    main()
