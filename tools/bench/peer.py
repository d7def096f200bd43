#!/usr/bin/env python3
"""Run the contest peer (../shared/peers/run-peer.sh) over MCC instances.

One (instance, examination) after the other, each with the same budget, like
`tools/mcc/score.py` runs petrel; the peer's MCC lines go into a text log with
a `<INSTANCE> <Examination> <seconds>` header per run, which
`tools/mcc/import-mcc.py` turns into JSON Lines that `tools/mcc/score.py
--results` scores beside petrel's (`--json` of score.py holds petrel's).

  tools/bench/peer.py --group scale --exam RD OS QL SM L --timeout 10 --out peer.txt
  tools/mcc/import-mcc.py --tool verifypn --version 4.4.2 --out peer.jsonl peer.txt
  tools/mcc/score.py --results peer.jsonl

The peer runs in PEER_MODE=direct with PEER_CORES=1 unless the environment
says otherwise (see ../shared/peers/README.md). Standard library only.
"""

import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "mcc"))
import score  # noqa: E402

DEFAULT_PEER = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "peers",
                                             "run-peer.sh"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--peer", default=DEFAULT_PEER, help="run-peer.sh (default: %(default)s)")
    ap.add_argument("--mcc", default=score.DEFAULT_MCC)
    sel = ap.add_mutually_exclusive_group()
    sel.add_argument("--group", choices=score.GROUPS)
    sel.add_argument("--instance", nargs="+")
    ap.add_argument("--exam", nargs="+", required=True, help="examinations (names or suffixes)")
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--out", required=True, help="the text log to write")
    args = ap.parse_args()
    if not os.access(args.peer, os.X_OK):
        sys.exit("peer.py: %s: not an executable script" % args.peer)
    exams = [score.EXAM_BY_SUFFIX.get(e, e) for e in args.exam]
    unknown = [e for e in exams if e not in score.SUFFIX]
    if unknown:
        sys.exit("peer.py: unknown examination(s): %s" % " ".join(unknown))
    instances = score.select_instances(args)
    env = dict(os.environ)
    env.setdefault("PEER_MODE", "direct")
    env.setdefault("PEER_CORES", "1")
    with open(args.out, "w") as log:
        for name, folder in instances:
            for exam in exams:
                t0 = time.monotonic()
                out = subprocess.run([args.peer, folder, exam, "%g" % args.timeout], env=env,
                                     capture_output=True, text=True).stdout
                log.write("%s %s %.3f\n%s" % (name, exam, time.monotonic() - t0, out))
                log.flush()
                print("peer.py: %s %s done" % (name, exam), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
