#!/usr/bin/env python3
"""States and time with and without partial-order reduction (stubborn sets).

For each instance and examination, runs the same petrel binary twice in a
row, with and without --no-por (interleaved: a load that comes and goes on a
shared machine hits both alike), and reports the states of its statistics
line (`N states`: what the run explored; 0 where every answer was decided
without exploring), the wall time, and the answers scored against the MCC
oracle (tools/mcc/score.py's parsing): a wrong answer is reported, never
hidden behind a small state count. Exits 1 on any wrong answer.

  tools/bench/por_bench.py --group small --exams RD RF RC LTLC LTLF --timeout 30 \\
      --markdown docs/por-small.md
  tools/bench/por_bench.py --instances Philosophers-PT-000010 --exams RD
"""
import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, "..", "mcc"))
import score  # noqa: E402  (tools/mcc/score.py: oracle parsing, instance groups)
from exam_bench import judge  # noqa: E402  (answers against the oracle)

STATES = re.compile(r": (\d+) states, \d+ edges, ")


def run_once(args, folder, exam, por):
    cmd = [args.petrel, folder, "-e", exam, "--threads", str(args.threads),
           "--timeout", str(args.timeout), "--memory", args.memory]
    if not por:
        cmd.append("--no-por")
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout + 60)
        out, err = p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        out, err = "", ""
    wall = time.monotonic() - t0
    m = STATES.findall(err)
    return wall, (int(m[-1]) if m else 0), out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--petrel", default=os.path.join(ROOT, "build", "petrel"))
    ap.add_argument("--mcc", default=score.DEFAULT_MCC)
    ap.add_argument("--group", choices=["small", "large", "scale"], default=None)
    ap.add_argument("--instance", nargs="+", help="instance names instead of a group")
    ap.add_argument("--exams", nargs="+", default=["RD", "RF", "RC", "LTLC", "LTLF"],
                    help="examination names or suffixes")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--memory", default="2G")
    ap.add_argument("--markdown", help="append the table to this file")
    args = ap.parse_args(argv)
    exams = [score.EXAM_BY_SUFFIX.get(e, e) for e in args.exams]
    insts = score.select_instances(args)
    head = ("| instance | exam | states with | states without | s with | s without "
            "| right/wrong/unans with | without |")
    lines = [head, "|" + "---|" * 8]
    total = {True: [0, 0.0, 0, 0, 0], False: [0, 0.0, 0, 0, 0]}
    wrong = 0
    for name, folder in insts:
        for exam in exams:
            if score.read_oracle(score.oracle_path(folder, name, exam)) is None:
                continue
            row = {}
            for por in (True, False):
                wall, states, out = run_once(args, folder, exam, por)
                j = judge(folder, name, exam, out) or (0, 0, 0)
                row[por] = (states, wall, j)
                t = total[por]
                t[0] += states
                t[1] += wall
                for k in range(3):
                    t[2 + k] += j[k]
                wrong += j[1]
                if j[1]:
                    print("WRONG: %s %s%s" % (name, exam, "" if por else " --no-por"),
                          file=sys.stderr)
            w, wo = row[True], row[False]
            line = "| %s | %s | %d | %d | %.2f | %.2f | %d/%d/%d | %d/%d/%d |" % (
                name, score.SUFFIX[exam], w[0], wo[0], w[1], wo[1], *w[2], *wo[2])
            lines.append(line)
            print(line, flush=True)
    t, u = total[True], total[False]
    lines.append("| **total** | | %d | %d | %.1f | %.1f | %d/%d/%d | %d/%d/%d |" % (
        t[0], u[0], t[1], u[1], t[2], t[3], t[4], u[2], u[3], u[4]))
    text = "\n".join(lines) + "\n"
    print(lines[-1])
    if args.markdown:
        with open(args.markdown, "a", encoding="utf-8") as fh:
            fh.write(text)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
