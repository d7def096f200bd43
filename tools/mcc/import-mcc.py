#!/usr/bin/env python3
"""Another tool's MCC output lines as a petrel batch results file.

Reads text with the MCC's result lines (FORMULA <id> <value> TECHNIQUES ...,
STATE_SPACE <key> <value> ...) and writes one JSON Lines record per
(instance, examination) in the schema of `petrel batch` (docs/batch.md), so
that tools/mcc/score.py --results and tools/mcc/cactus.py compare the tool
with Petrel. Anything else in the text (a tool's own chatter) is ignored.

Which run a line belongs to:
  - a header line `<INSTANCE> <Examination> [<seconds>]` (the oracle files'
    first line, with the run's wall-clock time as an optional third word)
    starts a run; or, without headers,
  - a formula id `<INSTANCE>-<Examination>-<n>` names both.
A run without a time gets time_s null (cactus.py leaves it out).

  tools/mcc/import-mcc.py --tool itstools --version 2024 --out its.jsonl logs/*.txt

Standard library only.
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import score  # noqa: E402

EXAM_NAMES = [e for e, _ in score.EXAMS]


def exam_of_id(fid):
    """(instance, examination) from a formula id, or None."""
    for e in EXAM_NAMES:
        mark = "-%s-" % e
        if mark in fid:
            return fid[:fid.index(mark)], e
    return None


def read_runs(text):
    """[(instance, exam, seconds or None, [lines])], in order of appearance."""
    runs, index, current = [], {}, None
    for line in text.splitlines():
        f = line.split()
        if len(f) in (2, 3) and f[1] in EXAM_NAMES and f[0] not in ("FORMULA", "STATE_SPACE"):
            seconds = float(f[2]) if len(f) == 3 else None
            current = (f[0], f[1])
            if current not in index:
                index[current] = len(runs)
                runs.append([f[0], f[1], seconds, []])
            elif seconds is not None:
                runs[index[current]][2] = seconds
            continue
        if len(f) < 3 or f[0] not in ("FORMULA", "STATE_SPACE"):
            continue
        key = current
        if f[0] == "FORMULA" and exam_of_id(f[1]) is not None:
            key = exam_of_id(f[1])
        if key is None:
            continue
        if key not in index:
            index[key] = len(runs)
            runs.append([key[0], key[1], None, []])
        runs[index[key]][3].append(line)
    return runs


def record(instance, exam, seconds, lines, tool, version, mcc):
    answers = {}
    for line in lines:
        f = line.split()
        value = None if f[2] == "CANNOT_COMPUTE" else f[2]
        tech = f[4:] if value is not None and len(f) > 4 and f[3] == "TECHNIQUES" else []
        if f[1] not in answers or answers[f[1]]["value"] is None:
            answers[f[1]] = {"value": value, "techniques": tech}
    folder = os.path.join(mcc, instance)
    answered = sum(1 for a in answers.values() if a["value"] is not None)
    return {
        "model": instance,
        "path": folder if os.path.isdir(folder) else None,
        "examination": exam,
        "status": "ok",
        "message": None,
        "time_s": seconds,
        "states": None,
        "peak_memory_mb": None,
        "answers": answers,
        "formulas": len(answers),
        "answered": answered,
        "version": version,
        "tool": tool,
        "options": {"imported_from": tool},
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__)
    ap.add_argument("--tool", required=True, help="the tool's name (the plots' legend)")
    ap.add_argument("--version", default="?", help="its version")
    ap.add_argument("--out", required=True, help="the JSON Lines file to write")
    ap.add_argument("--mcc", default=score.DEFAULT_MCC, help="where the instances live")
    ap.add_argument("files", nargs="+", help="text files with MCC result lines ('-': stdin)")
    args = ap.parse_args(argv)
    n = 0
    with open(args.out, "w", encoding="utf-8") as out:
        for path in args.files:
            text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8",
                                                              errors="replace").read()
            for instance, exam, seconds, lines in read_runs(text):
                rec = record(instance, exam, seconds, lines, args.tool, args.version, args.mcc)
                out.write(json.dumps(rec) + "\n")
                n += 1
    print("import-mcc.py: %d run(s) written to %s" % (n, args.out), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
