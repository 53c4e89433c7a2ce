#!/usr/bin/env python3
"""A complete turnpost engine for `turnpost bot run --engine`, in the standard library only.

It speaks the line protocol of `turnpost bot run` (README, "Outside engines as players"): the
run sends

    turnpost 1                      once, at the start
    game <id> <kind> <k=v,...|->    the game and its options
    position <position text>        as `turnpost engine show` prints it
    moves <move> <move> ...         every legal move
    go <movetime-ms>                answer now, with one line: move <notation>
    quit                            the end (or the end of input)

and it answers each `go` with `move <notation>`, picked from `moves` (it knows no rules). In
Chinese Checkers (one set per seat) it is greedy: it plays the move that brings its peg
closest to the far tip of its target, so its games end; in the other games it plays at random.

Usage: engine.py [--seed N] [--random]
"""

import random
import sys

# Chinese Checkers geometry (the rules' "Board"): rows A-Q are 0-16, holes are numbered along
# a diagonal. The far tip of each point 1-6 (0-based row, number); point 0 is the centre.
TIPS = [(8, 9), (16, 13), (12, 5), (4, 1), (0, 5), (4, 13), (12, 17)]
# The point each seat starts in, by number of players (one set each).
START_POINTS = {2: [1, 4], 3: [1, 3, 5], 4: [1, 3, 4, 6], 6: [1, 2, 3, 4, 5, 6]}


def opposite(point):
    """The point opposite `point`: a set's target."""
    return (point + 2) % 6 + 1


def steps(a, b):
    """Steps between two holes (neighbours along (0,1), (1,0) and (1,1) and their opposites)."""
    dr, dn = b[0] - a[0], b[1] - a[1]
    if (dr >= 0) == (dn >= 0):
        return max(abs(dr), abs(dn))
    return abs(dr) + abs(dn)


def hole(text):
    """`G11` -> (6, 11); None for what is not a hole."""
    if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
        return None
    return (ord(text[0].upper()) - ord("A"), int(text[1:]))


def greedy_chinese_checkers(options, position, moves, rng):
    """The legal move whose peg gains most towards its target's tip (ties at random); None when
    the game is not one this knows (several sets per seat)."""
    if options.get("sets", "1") != "1":
        return None
    starts = START_POINTS.get(int(options.get("players", "2")))
    seat = int(position.split()[-1]) if position.split() else 0
    if not starts or not 1 <= seat <= len(starts):
        return None
    tip = TIPS[opposite(starts[seat - 1])]
    best, best_gain = [], None
    for move in moves:
        cells = [hole(part) for part in move.replace("-", " ").replace(":", " ").split()]
        if len(cells) < 2 or None in cells:
            return None
        gain = steps(cells[0], tip) - steps(cells[-1], tip)
        if best_gain is None or gain > best_gain:
            best, best_gain = [move], gain
        elif gain == best_gain:
            best.append(move)
    return rng.choice(best) if best else None


def choose(kind, options, position, moves, rng, greedy):
    """The move to play."""
    if greedy and kind == "chinese-checkers":
        move = greedy_chinese_checkers(options, position, moves, rng)
        if move is not None:
            return move
    return rng.choice(moves)


def main():
    args = sys.argv[1:]
    seed = None
    if "--seed" in args:
        seed = int(args[args.index("--seed") + 1])
    greedy = "--random" not in args
    rng = random.Random(seed)
    kind, options, position, moves = "", {}, "", []
    for line in sys.stdin:
        word, _, rest = line.rstrip("\n").partition(" ")
        if word == "turnpost":
            if rest.strip() != "1":
                print(f"engine.py: protocol {rest.strip()} is not known", file=sys.stderr)
        elif word == "game":
            parts = rest.split(" ")
            kind = parts[1] if len(parts) > 1 else ""
            pairs = parts[2] if len(parts) > 2 else "-"
            options = {}
            if pairs != "-":
                for pair in pairs.split(","):
                    key, _, value = pair.partition("=")
                    options[key] = value
        elif word == "position":
            position = rest
        elif word == "moves":
            moves = rest.split()
        elif word == "go":
            if moves:
                print("move " + choose(kind, options, position, moves, rng, greedy), flush=True)
            else:
                print("engine.py: asked to move without moves", file=sys.stderr)
        elif word == "quit":
            break
        # Anything else is for a later version of the protocol: ignored.


if __name__ == "__main__":
    main()
