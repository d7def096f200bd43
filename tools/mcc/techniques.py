#!/usr/bin/env python3
"""Answered share per examination and per technique, from score.py --json.

score.py scores answers and keeps each answer's TECHNIQUES keywords in its
JSON file; this counts, per examination, the right answers by the keywords
that decided them. A line naming several keywords
counts once, under its most specific one: TOPOLOGICAL (traps) before
LINEAR_EQUATIONS, then RANDOM_WALK, DECISION_DIAGRAMS, ..., EXPLICIT.

  tools/mcc/score.py --group scale --exam UpperBounds --json /tmp/s.json
  tools/mcc/techniques.py /tmp/s.json

Prints a Markdown table. Standard library only.
"""

import json
import sys

ORDER = ("TOPOLOGICAL", "LINEAR_EQUATIONS", "RANDOM_WALK", "DECISION_DIAGRAMS",
         "STRUCTURAL_REDUCTION", "STUBBORN_SETS", "EXPLICIT")


def deciding(words):
    """The most specific keyword of a TECHNIQUES string."""
    ws = set((words or "").split())
    return next((w for w in ORDER if w in ws), "OTHER")


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) == 2 else 2
    with open(argv[1], encoding="utf-8") as fh:
        doc = json.load(fh)
    table = {}
    for run in doc["runs"]:
        row = table.setdefault(run["exam"], {"values": 0, "right": 0, "wrong": 0})
        for e in run["entries"]:
            row["values"] += 1
            if e["verdict"] in ("right", "wrong"):
                row[e["verdict"]] += 1
            if e["verdict"] == "right":
                k = deciding(e.get("techniques"))
                row[k] = row.get(k, 0) + 1
    cols = [w for w in ORDER + ("OTHER",) if any(w in r for r in table.values())]
    print("| exam | values | answered | wrong | " + " | ".join(cols) + " |")
    print("|---|---:|---:|---:|" + "---:|" * len(cols))
    for exam, r in table.items():
        share = 100.0 * r["right"] / r["values"] if r["values"] else 0.0
        cells = " | ".join(str(r.get(c, 0)) for c in cols)
        print("| %s | %d | %d (%.1f %%) | %d | %s |" % (exam, r["values"], r["right"], share,
                                                      r["wrong"], cells))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
