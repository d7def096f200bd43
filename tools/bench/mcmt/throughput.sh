#!/usr/bin/env bash
# The throughput of an MCMT instance against the P/T net of the same state
# space, in one run: petrel mcmt's breadth-first search of the instance
# (host/logic/mcmt_check.c over the MCMT module), then petrel's explicit
# StateSpace engine on the instance written as a 1-safe net (--write-pnml;
# one state more where the instance has several initial states), both on
# one thread, one after the other, each REPEAT times (the best is kept).
#
#   tools/bench/mcmt/throughput.sh [PETREL] [MODEL] [N] [REPEAT]
# defaults: build-rel/petrel, tools/bench/mcmt/counters.in (8^N states), 8, 3
set -euo pipefail
cd "$(dirname "$0")/../../.."
PETREL=${1:-build-rel/petrel}
MODEL=${2:-tools/bench/mcmt/counters.in}
N=${3:-8}
REPEAT=${4:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$PETREL" mcmt "$MODEL" --procs "$N" -q --write-pnml "$tmp/net.pnml"

best() { sort -n | head -1; }
for k in $(seq "$REPEAT"); do
    /usr/bin/time -f '%e %U' -o "$tmp/t" "$PETREL" mcmt "$MODEL" --procs "$N" -q > "$tmp/out"
    read -r wall user < "$tmp/t"
    echo "$wall $user" >> "$tmp/mcmt"
    /usr/bin/time -f '%e %U' -o "$tmp/t" "$PETREL" "$tmp/net.pnml" --examination StateSpace \
        --no-dd --threads 1 > "$tmp/pt" 2> /dev/null
    read -r wall user < "$tmp/t"
    echo "$wall $user" >> "$tmp/ptt"
done
states=$(sed -n 's/.*states=\([0-9]*\).*/\1/p' "$tmp/out")
pt_states=$(sed -n 's/STATE_SPACE STATES \([0-9]*\).*/\1/p' "$tmp/pt")
m=$(best < "$tmp/mcmt")
p=$(best < "$tmp/ptt")
python3 - "$states" "$pt_states" "$m" "$p" "$MODEL" "$N" <<'PY'
import sys
states, pt_states, m, p, model, n = sys.argv[1:]
mw, mu = map(float, m.split()); pw, pu = map(float, p.split())
print(f"model {model} N={n}: MCMT instance {int(states):,} states, P/T net {int(pt_states):,} states")
print(f"petrel mcmt      : {mw:.2f} s wall, {mu:.2f} s user, {int(states)/mw/1e6:.2f} M states/s")
print(f"petrel P/T engine: {pw:.2f} s wall, {pu:.2f} s user, {int(pt_states)/pw/1e6:.2f} M states/s")
print(f"wall ratio mcmt / P/T: {mw/pw:.2f}")
PY
