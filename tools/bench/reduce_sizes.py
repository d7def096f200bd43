#!/usr/bin/env python3
"""Net sizes before and after petrel's structural reductions.

For every instance of a ../shared/mcc group and every examination given,
runs `petrel -v -e EXAM --timeout 60 --threads 1 INSTANCE`, reads the line
"reduction: P places, T transitions -> P' places, T' transitions" from
stderr and stops the run (the reduction comes before any exploration; the
state-equation rule's share of a 60 s budget is its 1.5 s cap), and the
per-formula reductions that follow it ("reduction for ID alone: P places,
T transitions"; a formula without a net of its own counts the joint net's
size). Prints one markdown row per examination: instances, instances
reduced, places and transitions summed before -> after the joint
reduction, and summed over the instances of the mean per formula; with
--each one row per instance too.

Example:
  tools/bench/reduce_sizes.py --group all --exam ReachabilityDeadlock \\
      ReachabilityCardinality LTLCardinality
Standard library only.
"""

import argparse
import os
import re
import subprocess
import sys

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
MCC = os.path.normpath(os.path.join(REPO, "..", "shared", "mcc"))
LINE = re.compile(r"reduction: (\d+) places, (\d+) transitions -> (\d+) places, (\d+) transitions")
ALONE = re.compile(r"reduction for \S+ alone: (\d+) places, (\d+) transitions")
EACH = re.compile(r"reduction per formula: \d+ of (\d+) formulas reduced, (\d+) with")
END = re.compile(r"petrel: (step |answers|\d+\.\d+ s: step)")


def instances(mcc, group):
    with open(os.path.join(mcc, "INDEX.tsv")) as f:
        rows = [l.rstrip("\n").split("\t") for l in f][1:]
    return [r[0] for r in rows if group == "all" or r[2] == group]


def sizes(petrel, folder, exam, seconds):
    """(P, T, P', T', mean P per formula, mean T per formula) or None when
    no reduction line came."""
    cmd = [petrel, "-v", "-e", exam, "--timeout", "60", "--threads", "1", "--memory", "2G",
           folder]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = None
    alone = []
    try:
        for line in p.stderr:
            m = LINE.search(line)
            if m and found is None:
                found = tuple(int(x) for x in m.groups())
                continue
            m = ALONE.search(line)
            if m and found is not None:
                alone.append((int(m.group(1)), int(m.group(2))))
                continue
            m = EACH.search(line)
            if found is not None and (m or END.search(line)):
                n = int(m.group(1)) if m else 1
                rest = max(n - len(alone), 0)
                mp = (sum(a[0] for a in alone) + rest * found[2]) / max(n, 1)
                mt = (sum(a[1] for a in alone) + rest * found[3]) / max(n, 1)
                found = found + (mp, mt)
                break
    finally:
        p.kill()
        p.wait(timeout=seconds)
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--petrel", default=os.path.join(REPO, "build", "petrel"))
    ap.add_argument("--mcc", default=MCC)
    ap.add_argument("--group", default="all",
                    choices=("small", "col", "large", "scale", "big", "all"))
    ap.add_argument("--instance", nargs="+", help="these instances instead of a group")
    ap.add_argument("--exam", nargs="+", default=["ReachabilityDeadlock"])
    ap.add_argument("--each", action="store_true", help="one row per instance too")
    a = ap.parse_args()
    print("| examination | instances | reduced | places before → after → per formula "
          "| transitions before → after → per formula |")
    print("|---|---:|---:|---:|---:|")
    names = a.instance if a.instance else instances(a.mcc, a.group)
    where = "given" if a.instance else a.group
    for exam in a.exam:
        n = reduced = 0
        tot = [0, 0, 0, 0, 0.0, 0.0]
        rows = []
        for inst in names:
            folder = os.path.join(a.mcc, inst)
            if exam != "ReachabilityDeadlock" and not os.path.exists(
                    os.path.join(folder, exam + ".xml")):
                continue
            s = sizes(a.petrel, folder, exam, 30)
            if s is None:  # not reduced for this examination (e.g. coloured globals)
                continue
            if len(s) == 4:  # the run ended before the per-formula line
                s = s + (float(s[2]), float(s[3]))
            n += 1
            reduced += s[:2] != s[2:4]
            tot = [x + y for x, y in zip(tot, s)]
            rows.append((inst, s))
        print(f"| {exam}, {where} | {n} | {reduced} | {tot[0]:,} → {tot[2]:,} → {tot[4]:,.0f} "
              f"| {tot[1]:,} → {tot[3]:,} → {tot[5]:,.0f} |")
        if a.each:
            for inst, s in rows:
                print(f"| {inst} | | | {s[0]:,} → {s[2]:,} → {s[4]:,.0f} "
                      f"| {s[1]:,} → {s[3]:,} → {s[5]:,.0f} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
