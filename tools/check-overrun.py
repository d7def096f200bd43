#!/usr/bin/env python3
"""Deadline check: every instance of the MCC data with a short --timeout.

Runs `petrel -e EXAM --timeout T INSTANCE` for every instance of INDEX.tsv
(all groups) and every examination asked, measures the wall-clock time of
the whole process (reading, unfolding, compiling, the portfolio, exit) and
lists the worst overruns. The contract (issue "Hardening, second round"):
with --timeout 9 the process exits within 10 s. Exit status 1 when any run
passed T + slack, or crashed; 0 otherwise.

Example (the figures in docs/benchmarks.md):
  tools/check-overrun.py --exam CTLFireability --timeout 9 --jobs 2
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def instances(mcc):
    with open(os.path.join(mcc, "INDEX.tsv")) as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    head, body = rows[0], rows[1:]
    col = head.index("instance")
    return [r[col] for r in body if r and os.path.isdir(os.path.join(mcc, r[col]))]


def one(petrel, mcc, name, exam, timeout, threads, hard_limit):
    cmd = [petrel, "-e", exam, "--timeout", str(timeout), "--threads", str(threads),
           os.path.join(mcc, name)]
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=hard_limit)
        rc = p.returncode
        err = p.stderr.decode(errors="replace").strip().splitlines()
    except subprocess.TimeoutExpired:
        rc, err = "killed", ["(killed at the hard limit)"]
    return name, exam, time.monotonic() - t0, rc, err[-1] if err else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--petrel", default=os.path.join(ROOT, "build", "petrel"))
    ap.add_argument("--mcc", default=os.path.join(ROOT, "..", "shared", "mcc"))
    ap.add_argument("--exam", nargs="+", default=["CTLFireability"])
    ap.add_argument("--timeout", type=float, default=9.0)
    ap.add_argument("--slack", type=float, default=1.0,
                    help="seconds past --timeout still within the contract (default 1)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--worst", type=int, default=10, help="rows of the worst-runs table")
    a = ap.parse_args()
    names = instances(a.mcc)
    hard = a.timeout + a.slack + 60
    runs = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        futs = [pool.submit(one, a.petrel, a.mcc, n, e, a.timeout, a.threads, hard)
                for n in names for e in a.exam]
        for f in concurrent.futures.as_completed(futs):
            runs.append(f.result())
    runs.sort(key=lambda r: -r[2])
    limit = a.timeout + a.slack
    bad = [r for r in runs if r[2] > limit or not isinstance(r[3], int) or r[3] not in (0,)]
    print(f"{len(runs)} runs ({len(names)} instances x {len(a.exam)} examination(s)), "
          f"--timeout {a.timeout:g}, limit {limit:g} s, --threads {a.threads}, --jobs {a.jobs}")
    print(f"worst {min(a.worst, len(runs))} by wall-clock time:")
    print(f"{'instance':32} {'examination':24} {'seconds':>8}  exit")
    for name, exam, sec, rc, _ in runs[:a.worst]:
        print(f"{name:32} {exam:24} {sec:8.2f}  {rc}")
    for name, exam, sec, rc, last in bad:
        print(f"OVER {name} {exam}: {sec:.2f} s, exit {rc}: {last}")
    print(f"{len(bad)} run(s) over the limit or failed" if bad else
          f"every run exited within {limit:g} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
