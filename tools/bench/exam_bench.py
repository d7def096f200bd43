#!/usr/bin/env python3
"""Side-by-side timing of examinations for two (or more) Petrel binaries.

For each instance, thread count and examination, runs every binary in turn
(A B A B ...: interleaved, so that a load that comes and goes on a shared
machine hits each binary alike), --repeat rounds, and reports the median wall
time of each, the ratio of each examination to the same binary's StateSpace
on the instance, and the answers scored against the MCC oracle
(../shared/mcc, tools/mcc/score.py's parsing): a wrong answer is reported,
never hidden behind a fast time.

  tools/bench/exam_bench.py --bins build-base/petrel build/petrel \\
      --instances SharedMemory-PT-000010 --threads 1 2 --repeat 3 \\
      --exams StateSpace ReachabilityFireability ReachabilityCardinality
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "mcc"))
import score  # noqa: E402  (tools/mcc/score.py: oracle parsing)


def run_once(binary, folder, exam, threads, timeout):
    cmd = [binary, "-e", exam, "--threads", str(threads), "--engine", "cpu", "-q", folder]
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True, timeout=timeout)
        out = p.stdout
    except subprocess.TimeoutExpired:
        out = ""
    return time.monotonic() - t0, out


def judge(folder, name, exam, out):
    """-> (right, wrong, unanswered) against the oracle, or None without one."""
    oracle = score.read_oracle(score.oracle_path(folder, name, exam))
    if oracle is None:
        return None
    answers, _ = score.parse_mcc_lines(out)
    right = wrong = unanswered = 0
    for key, expected in oracle.items():
        got = answers.get(key)
        if got is None:
            unanswered += 1
        elif score.same_value(expected, got):
            right += 1
        else:
            wrong += 1
    return right, wrong, unanswered


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bins", nargs="+", required=True, help="petrel binaries to compare")
    ap.add_argument("--mcc", default=os.path.join(HERE, "..", "..", "..", "shared", "mcc"))
    ap.add_argument("--instances", nargs="+", required=True)
    ap.add_argument("--exams", nargs="+", default=["StateSpace", "ReachabilityFireability"])
    ap.add_argument("--threads", nargs="+", type=int, default=[1])
    ap.add_argument("--repeat", type=int, default=3, help="rounds; the median is reported")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--markdown", help="append the table to this file")
    args = ap.parse_args(argv)
    exams = list(dict.fromkeys(["StateSpace"] + args.exams))
    times = {}   # (inst, threads, exam, bin) -> [seconds]
    verdict = {}  # (inst, threads, exam, bin) -> worst judge() seen
    for _ in range(args.repeat):
        for inst in args.instances:
            folder = os.path.join(args.mcc, inst)
            for t in args.threads:
                for exam in exams:
                    for b in args.bins:
                        s, out = run_once(b, folder, exam, t, args.timeout)
                        key = (inst, t, exam, b)
                        times.setdefault(key, []).append(s)
                        j = judge(folder, inst, exam, out)
                        if j is not None and (key not in verdict or j[1] > verdict[key][1] or
                                              j[2] > verdict[key][2]):
                            verdict[key] = j
    names = [os.path.relpath(b) for b in args.bins]
    head = "| instance | thr | examination | " + " | ".join(
        "%s s (x SS) right/wrong/unans" % n for n in names) + " |"
    lines = [head, "|" + "---|" * (3 + len(names))]
    for inst in args.instances:
        for t in args.threads:
            for exam in exams:
                cells = []
                for b in args.bins:
                    med = statistics.median(times[(inst, t, exam, b)])
                    ss = statistics.median(times[(inst, t, "StateSpace", b)])
                    v = verdict.get((inst, t, exam, b))
                    vs = "%d/%d/%d" % v if v else "-"
                    cells.append("%.2f (%.2fx) %s" % (med, med / ss if ss > 0 else 0, vs))
                lines.append("| %s | %d | %s | %s |" % (inst, t, exam, " | ".join(cells)))
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.markdown:
        with open(args.markdown, "a", encoding="utf-8") as fh:
            fh.write(text)
    wrong = sum(v[1] for v in verdict.values())
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
