#!/usr/bin/env bash
# A turnpost bot in ten lines: wait for our move in game $1, play a random legal move, repeat.
# Needs a signed-in profile (turnpost login) and python3 for reading JSON.
set -euo pipefail
game=$1
field() { python3 -c "import json,sys,random; d=json.load(sys.stdin); print($1)"; }
while state=$(turnpost wait --game "$game" --json); do
  [ "$(field 'd["game"]["status"]' <<<"$state")" = active ] || { echo "game over"; exit 0; }
  ply=$(field 'd["game"]["ply"]' <<<"$state")
  move=$(turnpost moves "$game" --json | field 'random.choice(d["moves"]["moves"])')
  turnpost move "$game" --ply "$ply" "$move" >/dev/null
done
