#!/usr/bin/env python3
"""Throughput benchmark of Petrel's StateSpace exploration.

Runs chosen MCC instances (../shared/mcc) with 1..N threads and an engine,
checks the four StateSpace values against INDEX.tsv (a wrong value fails the
run: a fast wrong answer is worth nothing), and records states/s, edges/s,
bytes/state, peak RSS and speedup over 1 thread. Writes a Markdown table
(--markdown) and, when gnuplot is installed, a PNG plot (--plot).

  tools/bench/bench.py --instances Referendum-PT-0015 Dekker-PT-020 --threads 1 2
  tools/bench/bench.py --group small --min-states 1000000 --threads 1 2 --repeat 3
  tools/bench/bench.py --instances Peterson-PT-3 --threads 2 --store full tree

With --ranks, each run goes through `mpirun -np R` (the distributed engine,
docs/architecture.md "Distributed exploration"; R = 0: the plain process, no
mpirun), --threads per rank, and the table adds the bytes of states sent per
state:

  tools/bench/bench.py --instances Referendum-PT-0015 --threads 1 --ranks 0 1 2 4
"""
import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
STATS = re.compile(
    r"(?P<states>\d+) states, (?P<edges>\d+) edges, \d+ levels in (?P<secs>[\d.]+) s .*?"
    r"(?:(?P<table>compact|tree|full) table, )?(?P<bps>[\d.]+) bytes/state, peak RSS (?P<rss>[\d.]+) MB, (?P<threads>\d+) thread")
SENT = re.compile(r"MPI rank\(s\): (?P<sent>\d+) bytes of states sent")


def read_index(mcc):
    rows = {}
    with open(os.path.join(mcc, "INDEX.tsv")) as f:
        head = f.readline().rstrip("\n").split("\t")
        for line in f:
            r = dict(zip(head, line.rstrip("\n").split("\t")))
            rows[r["instance"]] = r
    return rows


def no_dd(petrel, known={}):
    """Whether this binary counts StateSpace on decision diagrams first
    (then --no-dd leaves the explicit engines alone, which this measures)."""
    if petrel not in known:
        p = subprocess.run([petrel, "--help"], capture_output=True, text=True)
        known[petrel] = "--no-dd" in p.stdout + p.stderr
    return known[petrel]


def run_one(args, inst, threads, store, ranks=0):
    mpi = [] if ranks == 0 else ["mpirun", "--oversubscribe", "--bind-to", "none", "-np", str(ranks)]
    cmd = mpi + [args.petrel, os.path.join(args.mcc, inst), "-e", "StateSpace",
           "--threads", str(threads), "--engine", args.engine, "--timeout", str(args.timeout)]
    if args.memory:
        cmd += ["--memory", args.memory]
    if store:
        cmd += ["--store", store]
    if no_dd(args.petrel):  # the engines' throughput, not the decision diagrams'
        cmd += ["--no-dd"]
    t0, cpu0 = time.time(), resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout + 60, env=env)
    wall = time.time() - t0
    # CPU seconds and the machine's load: on a shared machine wall time alone misleads
    wall = (wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - cpu0, os.getloadavg()[0])
    values = {}
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) >= 3 and f[0] == "STATE_SPACE":
            values[f[1]] = f[2]
    m = STATS.search(p.stderr)
    sent = SENT.search(p.stderr)
    if m:
        m = dict(m.groupdict(), sent=sent["sent"] if sent else "0")
    return values, m, wall, p


def check(values, row):
    want = {"STATES": row["states"], "TRANSITIONS": row["ss_edges"],
            "MAX_TOKEN_IN_PLACE": row["max_tok_place"],
            "MAX_TOKEN_PER_MARKING": row["max_tok_marking"]}
    if not values:
        return "unanswered"
    return "ok" if all(values.get(k) == v for k, v in want.items()) else "WRONG"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--petrel", default=os.path.join(ROOT, "build", "petrel"))
    ap.add_argument("--mcc", default=os.path.join(os.path.dirname(ROOT), "shared", "mcc"))
    ap.add_argument("--instances", nargs="*", default=[])
    ap.add_argument("--group", choices=["small", "large"])
    ap.add_argument("--min-states", type=float, default=0)
    ap.add_argument("--max-states", type=float, default=float("inf"))
    ap.add_argument("--threads", nargs="+", type=int, default=[1])
    ap.add_argument("--ranks", nargs="+", type=int, default=None,
                    help="MPI ranks (mpirun -np R; 0: no mpirun), side by side")
    ap.add_argument("--engine", default="cpu", choices=["cpu", "gpu", "auto"])
    ap.add_argument("--repeat", type=int, default=1, help="best of N runs")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--memory", default="")
    ap.add_argument("--store", nargs="+", default=[""], choices=["", "compact", "tree", "full"],
                    help="petrel --store KIND, each in turn (side by side per instance and "
                         "thread count); default: petrel's own choice")
    ap.add_argument("--full-store", action="store_true", help="the same as --store full")
    ap.add_argument("--markdown", help="append the result table to this file")
    ap.add_argument("--plot", help="PNG of states/s against threads (needs gnuplot)")
    args = ap.parse_args()

    index = read_index(args.mcc)
    insts = list(args.instances)
    if args.group:
        insts += [i for i, r in index.items() if r["group"] == args.group and r["type"] == "PT"
                  and args.min_states <= float(r["states"]) <= args.max_states]
    if not insts:
        ap.error("no instances selected")
    if args.full_store:
        args.store = ["full"]

    rows, failed = [], False
    mpi = args.ranks is not None
    runs = [(th, rk) for th in args.threads for rk in (args.ranks or [0])]
    for inst in insts:
        for store in args.store:
            base = None
            for th, rk in runs:
                best = None
                for _ in range(args.repeat):
                    values, m, wall, p = run_one(args, inst, th, store, rk)
                    verdict = check(values, index[inst])
                    if verdict == "WRONG":
                        failed = True
                    if m and (best is None or best[1] is None or float(m["secs"]) < float(best[1]["secs"])):
                        best = (verdict, m, wall)
                    elif best is None:
                        best = (verdict, None, wall)
                verdict, m, (_, user, load) = best
                label = f"{th}" if not mpi else f"{th} x {rk} rank(s)" if rk else f"{th}, no mpirun"
                if m is None:
                    rows.append((inst, label, verdict, None))
                    print(f"{inst:40s} threads={label} {store or 'auto'} {verdict}", flush=True)
                    continue
                secs = max(float(m["secs"]), 1e-9)
                sps, eps = int(m["states"]) / secs, int(m["edges"]) / secs
                base = base or secs if (th, rk) == runs[0] else base
                speedup = (base / secs) if base else 1.0
                r = dict(states=int(m["states"]), secs=secs, sps=sps, eps=eps, bps=float(m["bps"]),
                         rss=float(m["rss"]), speedup=speedup, table=m["table"] or "full",
                         user=user, load=load, sent=int(m["sent"]) / max(int(m["states"]), 1))
                rows.append((inst, label, verdict, r))
                print(f"{inst:40s} threads={label} {r['table']:7s} {verdict:10s} {secs:8.2f} s "
                      f"{sps/1e6:7.2f} Mstates/s {eps/1e6:7.2f} Medges/s {r['bps']:6.1f} B/state "
                      f"{r['rss']:8.1f} MB x{speedup:.2f} user {user:.1f} s load {load:.1f}",
                      flush=True)

    sent_head, sent_sep = (" sent bytes/state |", "---|") if mpi else ("", "")
    table = ["| instance | threads | check | states | time (s) | M states/s | M edges/s | table | bytes/state | peak RSS (MB) | speedup | user s | load |" + sent_head,
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|" + sent_sep]
    for inst, th, verdict, r in rows:
        if r is None:
            table.append(f"| {inst} | {th} | {verdict} | | | | | | | | | | |" + (" |" if mpi else ""))
        else:
            sent = f" {r['sent']:.1f} |" if mpi else ""
            table.append(f"| {inst} | {th} | {verdict} | {r['states']} | {r['secs']:.2f} | {r['sps']/1e6:.2f} | "
                         f"{r['eps']/1e6:.2f} | {r['table']} | {r['bps']:.1f} | {r['rss']:.0f} | {r['speedup']:.2f} | "
                         f"{r['user']:.1f} | {r['load']:.1f} |" + sent)
    print("\n".join(table))
    if args.markdown:
        with open(args.markdown, "a") as f:
            f.write("\n".join(table) + "\n")
    if args.plot and shutil.which("gnuplot"):
        plot(rows, args.plot)
    elif args.plot:
        print("bench.py: no gnuplot, no plot (tools/install-deps.sh --bench)", file=sys.stderr)
    return 1 if failed else 0


def gnuplot(png, xlabel, logx, data):
    script = ["set terminal png size 900,540", f"set output '{png}'",
              f"set xlabel '{xlabel}'", "set ylabel 'M states/s'", "set key outside", "set grid"]
    if logx:
        script.append("set logscale x")
    script.append("plot " + ", ".join(f"'-' with linespoints title '{k}'" for k in data))
    for pts in data.values():
        script += [f"{x} {y}" for x, y in sorted(pts)] + ["e"]
    subprocess.run(["gnuplot"], input="\n".join(script), text=True, check=False)


def plot(rows, png):
    """png: states/s against threads, one line per instance; and beside it
    (<png>-size.png) states/s against state-space size, one line per
    thread count."""
    by_inst, by_threads = {}, {}
    for inst, th, _, r in rows:
        if r:
            by_inst.setdefault(inst, []).append((th, r["sps"] / 1e6))
            by_threads.setdefault(f"{th} thread(s)", []).append((r["states"], r["sps"] / 1e6))
    gnuplot(png, "threads", False, by_inst)
    gnuplot(os.path.splitext(png)[0] + "-size.png", "states", True, by_threads)


if __name__ == "__main__":
    sys.exit(main())
