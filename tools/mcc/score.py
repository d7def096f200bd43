#!/usr/bin/env python3
"""Score petrel against the MCC oracles in ../shared/mcc.

Runs `petrel -e EXAM --timeout T INSTANCE_DIR` for every selected
(instance, examination) pair, parses the MCC lines petrel prints on stdout and
compares them with the oracle file <INSTANCE>-<SUFFIX>.out beside the model.

Counts per examination: right, wrong, unanswered (CANNOT_COMPUTE, missing,
DO_NOT_COMPETE, timeout, crash) and the MCC-style score (+1 right, -2 wrong).
Prints a table and every wrong answer; exits 1 if any answer is wrong, else 0
(2 for bad usage).

With --results, nothing is run: the JSON Lines files of `petrel batch`
(or tools/mcc/import-mcc.py, for another tool's output) are scored instead,
one table per file.

Examples:
  tools/mcc/score.py --group small --exam StateSpace
  tools/mcc/score.py --results results.jsonl
  tools/mcc/score.py --instance Philosophers-PT-000005 Dekker-PT-010 --jobs 2
  tools/mcc/score.py --instance models/dining3 --exam StateSpace
      (a folder path works too; without <NAME>-<SUFFIX>.out the oracle is
       read from expected-<Examination>.out in that folder)

Standard library only.
"""

import argparse
import concurrent.futures
import json
import os
import signal
import subprocess
import sys
import threading
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DEFAULT_MCC = os.path.normpath(os.path.join(REPO, "..", "shared", "mcc"))

# The 13 MCC examinations and their oracle file suffixes, in contest order.
EXAMS = [
    ("StateSpace", "SS"),
    ("UpperBounds", "UB"),
    ("ReachabilityCardinality", "RC"),
    ("ReachabilityFireability", "RF"),
    ("CTLCardinality", "CTLC"),
    ("CTLFireability", "CTLF"),
    ("LTLCardinality", "LTLC"),
    ("LTLFireability", "LTLF"),
    ("ReachabilityDeadlock", "RD"),
    ("OneSafe", "OS"),
    ("QuasiLiveness", "QL"),
    ("Liveness", "L"),
    ("StableMarking", "SM"),
]
SUFFIX = dict(EXAMS)
EXAM_BY_SUFFIX = {s: e for e, s in EXAMS}
GROUPS = ("small", "col", "large", "scale", "big", "all")

# Reasons an oracle entry is unanswered.
UNANSWERED = ("cannot_compute", "do_not_compete", "timeout", "crash", "missing")


# ---- parsing ---------------------------------------------------------------

def parse_mcc_lines(text):
    """MCC result lines -> (answers, flags).

    answers maps a key (STATE_SPACE key or formula id) to its value, or to
    None for an explicit CANNOT_COMPUTE. A key answered twice with different
    values maps to a string 'A|B' (counted wrong unless it matches exactly).
    flags: set with 'CANNOT_COMPUTE' and/or 'DO_NOT_COMPETE' for the
    bare lines.
    """
    answers = {}
    flags = set()
    for line in text.splitlines():
        f = line.split()
        if not f:
            continue
        if f[0] in ("CANNOT_COMPUTE", "DO_NOT_COMPETE") and len(f) == 1:
            flags.add(f[0])
            continue
        if f[0] not in ("STATE_SPACE", "FORMULA") or len(f) < 3:
            continue
        key, value = f[1], f[2]
        value = None if value == "CANNOT_COMPUTE" else value
        if key in answers and answers[key] != value:
            old = answers[key]
            if old is None:
                answers[key] = value
            elif value is not None:
                answers[key] = "%s|%s" % (old, value)
        else:
            answers[key] = value
    return answers, flags


def read_oracle(path):
    """Oracle file -> {key: value}, '?' entries left out; None if absent."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        return None
    oracle = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 3 and f[0] in ("STATE_SPACE", "FORMULA") and f[2] != "?":
            if f[0] == "STATE_SPACE" and f[2].startswith("-"):
                continue  # no count is negative: the tool that wrote it had none (Dekker-PT-200)
            oracle[f[1]] = f[2]
    return oracle


def same_value(expected, got):
    if got is None:
        return False
    if expected.upper() in ("TRUE", "FALSE"):
        return got.upper() == expected.upper()
    try:
        return int(expected) == int(got)
    except ValueError:
        return expected == got


# ---- selection -------------------------------------------------------------

def read_index(mcc_dir):
    path = os.path.join(mcc_dir, "INDEX.tsv")
    with open(path, encoding="utf-8") as fh:
        rows = [line.rstrip("\n").split("\t") for line in fh if line.strip()]
    head = rows[0]
    return [dict(zip(head, r)) for r in rows[1:]]


def oracle_path(inst_dir, name, exam):
    p = os.path.join(inst_dir, "%s-%s.out" % (name, SUFFIX[exam]))
    if os.path.exists(p):
        return p
    p2 = os.path.join(inst_dir, "expected-%s.out" % exam)
    return p2 if os.path.exists(p2) else p


def select_instances(args):
    """-> [(name, folder)]"""
    if args.instance:
        out = []
        for item in args.instance:
            if os.sep in item or item.startswith(".") or not os.path.isdir(
                    os.path.join(args.mcc, item)):
                folder = os.path.abspath(item)
            else:
                folder = os.path.join(args.mcc, item)
            if not os.path.isdir(folder):
                sys.exit("score.py: no instance folder '%s'" % item)
            out.append((os.path.basename(folder.rstrip(os.sep)), folder))
        return out
    rows = read_index(args.mcc)
    group = args.group or "small"
    return [(r["instance"], os.path.join(args.mcc, r["instance"]))
            for r in rows if group == "all" or r.get("group") == group]


# ---- running ---------------------------------------------------------------

def run_petrel(args, name, folder, exam):
    cmd = [args.petrel, "-q", "-e", exam, "--timeout", str(args.timeout)]
    if args.threads:
        cmd += ["--threads", str(args.threads)]
    if args.memory:
        cmd += ["--memory", args.memory]
    if args.engine:
        cmd += ["--engine", args.engine]
    cmd.append(folder)
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("BK_"):
            del env[k]  # the command line says everything
    margin = max(10.0, 0.1 * args.timeout)
    t0 = time.monotonic()
    status = "ok"
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=args.timeout + margin)
    except subprocess.TimeoutExpired:
        status = "timeout"
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = proc.communicate()
    seconds = time.monotonic() - t0
    rc = proc.returncode
    if status == "ok" and rc != 0:
        status = "crash"
    return {
        "cmd": cmd,
        "rc": rc,
        "status": status,
        "seconds": round(seconds, 3),
        "stdout": out.decode("utf-8", "replace"),
        "stderr_tail": err.decode("utf-8", "replace")[-2000:],
    }


def techniques_of(text):
    """formula id -> its TECHNIQUES keywords (a space-separated string)."""
    out = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 5 and f[0] == "FORMULA" and f[3] == "TECHNIQUES":
            out[f[1]] = " ".join(f[4:])
    return out


def score_answers(name, folder, exam, oracle, answers, flags, techniques, status, seconds,
                  rc=0, stderr_tail=""):
    """One run's answers ({key: value or None}) against its oracle."""
    counts = {"right": 0, "wrong": 0, "unanswered": 0}
    counts.update({k: 0 for k in UNANSWERED})
    entries = []
    for key in sorted(oracle):
        expected = oracle[key]
        got = answers.get(key, "<absent>")
        if got == "<absent>":
            got = None
            if status == "timeout":
                why = "timeout"
            elif "DO_NOT_COMPETE" in flags:
                why = "do_not_compete"
            elif "CANNOT_COMPUTE" in flags:
                why = "cannot_compute"
            elif status == "crash":
                why = "crash"
            else:
                why = "missing"
            verdict = "unanswered"
        elif got is None:
            why = "cannot_compute"
            verdict = "unanswered"
        else:
            why = None
            verdict = "right" if same_value(expected, got) else "wrong"
        counts[verdict] += 1
        if why:
            counts[why] += 1
        entries.append({"id": key, "expected": expected, "got": got,
                        "verdict": verdict, "reason": why,
                        "techniques": techniques.get(key)})
    extra = sorted(k for k in answers if k not in oracle)
    return {
        "instance": name,
        "folder": folder,
        "exam": exam,
        "status": status,
        "rc": rc,
        "seconds": seconds,
        "counts": counts,
        "entries": entries,
        "unchecked_answers": extra,
        "stderr_tail": stderr_tail if status != "ok" else "",
    }


def score_run(name, folder, exam, oracle, run):
    answers, flags = parse_mcc_lines(run["stdout"])
    return score_answers(name, folder, exam, oracle, answers, flags,
                         techniques_of(run["stdout"]), run["status"], run["seconds"],
                         run["rc"], run["stderr_tail"])


# ---- results files (petrel batch, import-mcc.py) -------------------------------

# A record's status as score.py names the ways a run can fail.
RECORD_STATUS = {"ok": "ok", "timeout": "timeout", "out of memory": "crash", "error": "crash"}


def read_results(path):
    """The records of a JSON Lines results file, in order (blank lines skipped).
    A file written with `petrel batch --per-formula` (one line per answer,
    each with 'formula', 'value', 'techniques') is folded back into one
    record per run, with the 'answers' map of the default format."""
    with open(path, encoding="utf-8") as fh:
        lines = [json.loads(line) for line in fh if line.strip()]
    records, by_run = [], {}
    for r in lines:
        if "formula" not in r:
            records.append(r)
            continue
        key = (r.get("path"), r.get("examination"))
        if key not in by_run:
            run = {k: v for k, v in r.items() if k not in ("formula", "value", "techniques")}
            run["answers"] = {}
            by_run[key] = run
            records.append(run)
        if r["formula"] is not None:
            by_run[key]["answers"][r["formula"]] = {"value": r["value"],
                                                    "techniques": r["techniques"]}
    return records


def score_record(rec, mcc=DEFAULT_MCC):
    """A results record scored against the oracle beside its model (or, by
    instance name, in mcc); None when there is no oracle file."""
    name, exam = rec["model"], rec["examination"]
    folder = rec.get("path") or os.path.join(mcc, name)
    if not os.path.isdir(folder):
        folder = os.path.join(mcc, name)
    oracle = read_oracle(oracle_path(folder, name, exam)) if exam in SUFFIX else None
    if oracle is None:
        return None
    answers = {k: a.get("value") for k, a in rec.get("answers", {}).items()}
    techniques = {k: " ".join(a.get("techniques") or []) for k, a in rec.get("answers", {}).items()}
    return score_answers(name, folder, exam, oracle, answers, set(), techniques,
                         RECORD_STATUS.get(rec.get("status"), "crash"), rec.get("time_s") or 0.0,
                         stderr_tail=rec.get("message") or "")


def score_results_file(path, mcc=DEFAULT_MCC, out=sys.stdout):
    """Prints the table of one results file; returns (results, wrong list)."""
    results, exams, no_oracle = [], [], 0
    for rec in read_results(path):
        r = score_record(rec, mcc)
        if r is None:
            no_oracle += 1
            continue
        results.append(r)
        if r["exam"] not in exams:
            exams.append(r["exam"])
    exams.sort(key=lambda e: [x for x, _ in EXAMS].index(e))
    table, total = summarize(results, exams)
    print("%s:" % path, file=out)
    print_table(table, total, out)
    if no_oracle:
        print("%d record(s) without an oracle file were skipped" % no_oracle, file=out)
    wrong = [(r["instance"], r["exam"], e["id"], e["expected"], e["got"])
             for r in results for e in r["entries"] if e["verdict"] == "wrong"]
    for w in wrong:
        print("  WRONG %s\t%s\t%s\texpected %s\tgot %s" % w, file=out)
    return results, wrong


# ---- report ----------------------------------------------------------------

def summarize(results, exams):
    keys = ("runs", "right", "wrong", "unanswered") + UNANSWERED + ("score", "seconds")
    table = {e: dict.fromkeys(keys, 0) for e in exams}
    for r in results:
        row = table[r["exam"]]
        row["runs"] += 1
        row["seconds"] += r["seconds"]
        for k, v in r["counts"].items():
            row[k] += v
    total = dict.fromkeys(keys, 0)
    for row in table.values():
        row["score"] = row["right"] - 2 * row["wrong"]
        for k in keys:
            total[k] += row[k]
    for row in list(table.values()) + [total]:
        row["seconds"] = round(row["seconds"], 1)
    return table, total


def print_table(table, total, out):
    cols = [("examination", None), ("runs", "runs"), ("right", "right"),
            ("wrong", "wrong"), ("unans", "unanswered"), ("cc", "cannot_compute"),
            ("dnc", "do_not_compete"), ("t/o", "timeout"), ("crash", "crash"),
            ("miss", "missing"), ("score", "score"), ("time_s", "seconds")]
    rows = [[e] + [row[k] for _, k in cols[1:]] for e, row in table.items()]
    rows.append(["TOTAL"] + [total[k] for _, k in cols[1:]])
    widths = [max(len(str(x)) for x in [c[0]] + [r[i] for r in rows])
              for i, c in enumerate(cols)]

    def fmt(r):
        return "  ".join(str(x).ljust(w) if i == 0 else str(x).rjust(w)
                         for i, (x, w) in enumerate(zip(r, widths)))
    print(fmt([c[0] for c in cols]), file=out)
    print("  ".join("-" * w for w in widths), file=out)
    for r in rows[:-1]:
        print(fmt(r), file=out)
    print("  ".join("-" * w for w in widths), file=out)
    print(fmt(rows[-1]), file=out)


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Run petrel over MCC instances and score it against the oracles.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--petrel", default=os.path.join(REPO, "build", "petrel"),
                    help="petrel binary (default: %(default)s)")
    ap.add_argument("--mcc", default=DEFAULT_MCC,
                    help="MCC data folder with INDEX.tsv (default: %(default)s)")
    sel = ap.add_mutually_exclusive_group()
    sel.add_argument("--group", choices=GROUPS,
                     help="instances of this INDEX.tsv group (default: small)")
    sel.add_argument("--instance", nargs="+", metavar="NAME",
                     help="instance names (or folders) instead of a group")
    sel.add_argument("--results", nargs="+", metavar="FILE",
                     help="score these JSON Lines results files (petrel batch) instead "
                          "of running petrel")
    ap.add_argument("--exam", nargs="+", metavar="EXAM",
                    help="examinations (names or suffixes SS, UB, ...; default: all 13)")
    ap.add_argument("--timeout", type=float, default=60.0,
                    help="seconds per run, passed to petrel (default: %(default)s)")
    ap.add_argument("--threads", type=int, help="petrel --threads")
    ap.add_argument("--memory", help="petrel --memory, e.g. 4G")
    ap.add_argument("--engine", choices=("auto", "cpu", "gpu"), help="petrel --engine")
    ap.add_argument("--jobs", type=int, default=1, help="parallel runs (default: 1)")
    ap.add_argument("--json", metavar="FILE", help="write all results to FILE")
    ap.add_argument("-q", "--quiet", action="store_true", help="no per-run progress lines")
    args = ap.parse_args(argv)

    if args.results:
        any_wrong = False
        for i, path in enumerate(args.results):
            if i:
                print()
            _, wrong = score_results_file(path, args.mcc)
            any_wrong = any_wrong or bool(wrong)
        return 1 if any_wrong else 0
    if args.timeout <= 0 or args.jobs < 1:
        ap.error("--timeout must be > 0 and --jobs >= 1")
    exams = []
    for e in args.exam or [e for e, _ in EXAMS]:
        e = EXAM_BY_SUFFIX.get(e, e)
        if e not in SUFFIX:
            ap.error("unknown examination '%s'" % e)
        if e not in exams:
            exams.append(e)
    args.petrel = os.path.abspath(args.petrel)
    if not os.access(args.petrel, os.X_OK):
        ap.error("petrel binary not found: %s (build it, or pass --petrel)" % args.petrel)
    if not args.instance and not os.path.exists(os.path.join(args.mcc, "INDEX.tsv")):
        ap.error("no INDEX.tsv in %s (pass --mcc)" % args.mcc)

    jobs = []
    no_oracle = []
    for name, folder in select_instances(args):
        for exam in exams:
            oracle = read_oracle(oracle_path(folder, name, exam))
            if oracle is None:
                no_oracle.append("%s %s" % (name, exam))
            else:
                jobs.append((name, folder, exam, oracle))
    if not jobs:
        print("score.py: nothing to run (no oracle files for the selection)", file=sys.stderr)
        return 2

    lock = threading.Lock()
    done = [0]

    def work(job):
        name, folder, exam, oracle = job
        res = score_run(name, folder, exam, oracle, run_petrel(args, name, folder, exam))
        with lock:
            done[0] += 1
            if not args.quiet:
                c = res["counts"]
                print("[%d/%d] %-40s %-24s %-7s %7.2fs  right %d wrong %d unanswered %d"
                      % (done[0], len(jobs), name, exam, res["status"], res["seconds"],
                         c["right"], c["wrong"], c["unanswered"]),
                      file=sys.stderr, flush=True)
        return res

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(work, jobs))

    table, total = summarize(results, exams)
    print_table(table, total, sys.stdout)
    wrong = [(r["instance"], r["exam"], e["id"], e["expected"], e["got"])
             for r in results for e in r["entries"] if e["verdict"] == "wrong"]
    if no_oracle:
        print("\n%d pair(s) without an oracle file were skipped" % len(no_oracle))
    crashes = [r for r in results if r["status"] == "crash"]
    if crashes:
        print("\nCrashes (non-zero exit):")
        for r in crashes:
            last = r["stderr_tail"].strip().splitlines()[-1:] or [""]
            print("  %s %s rc=%s %s" % (r["instance"], r["exam"], r["rc"], last[0]))
    if wrong:
        print("\nWRONG answers (%d):" % len(wrong))
        print("  instance\texamination\tid\texpected\tgot")
        for w in wrong:
            print("  %s\t%s\t%s\t%s\t%s" % w)
    else:
        print("\nno wrong answers")

    if args.json:
        doc = {
            "petrel": args.petrel,
            "mcc": args.mcc,
            "timeout": args.timeout,
            "threads": args.threads,
            "jobs": args.jobs,
            "exams": exams,
            "summary": table,
            "total": total,
            "wrong": [dict(zip(("instance", "exam", "id", "expected", "got"), w))
                      for w in wrong],
            "skipped_no_oracle": no_oracle,
            "runs": results,
        }
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=1)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
