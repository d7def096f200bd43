#!/usr/bin/env python3
"""Check `petrel properties` against the verdict files of ../shared/mcc.

Runs `petrel properties` on every instance (or those named), reads what it
prints beside each GenericPropertiesVerdict.xml verdict (agree / disagree /
not decided) and, for every disagreement, asks a second, independent method
who is right:

  SAFE, DEADLOCK, LIVE, DEAD_TRANSITIONS  the instance's own MCC oracle
      (OneSafe, ReachabilityDeadlock, Liveness, QuasiLiveness: the contest's
      consensus for that instance; DEAD_TRANSITIONS = not QuasiLiveness)
  structural properties  a recomputation here, in Python, from the PNML
      arcs (P/T instances)
  REVERSIBLE, DEAD_PLACES (no oracle)  an enumeration of the reachability
      graph here, in Python, where it has at most --enum-states states

A verdict file speaks for every instance of a model ("a priori apply to all
the instances"), so a file verdict that the instance's oracle or the arcs
contradict is a finding about the file, not a Petrel bug. Exits 1 when
Petrel disagrees with the second method (a bug), else 0.

  tools/mcc/check-properties.py                      # every instance, 20 s each
  tools/mcc/check-properties.py --instance Dekker-PT-010 --timeout 5

Standard library only.
"""

import argparse
import concurrent.futures
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import score  # noqa: E402  (read_oracle, oracle_path, read_index)

ORACLE_OF = {"SAFE": ("OneSafe", False), "DEADLOCK": ("ReachabilityDeadlock", False),
             "LIVE": ("Liveness", False), "DEAD_TRANSITIONS": ("QuasiLiveness", True)}


def run_properties(petrel, folder, timeout, memory):
    cmd = [petrel, "properties", "-q", "--timeout", str(timeout), "--memory", memory,
           "--threads", "1", folder]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout * 3 + 30)
    rows = {}
    for line in p.stdout.decode().splitlines():
        f = line.split(None, 3)
        if len(f) == 4 and f[0] != "property" and not line.startswith("#"):
            rows[f[0]] = (f[1], f[2], f[3])
    return p.returncode, rows


# ---- the second method: the structure, recomputed from the PNML ------------

def pnml_arcs(path):
    """(places, transitions, pre, post), pre and post: {(place, transition): weight},
    parallel arcs added."""
    places, trans, pre, post = set(), set(), {}, {}
    arcs = []
    for _, el in ET.iterparse(path):
        tag = el.tag.rsplit("}", 1)[-1]
        if tag == "place":
            places.add(el.get("id"))
        elif tag == "transition":
            trans.add(el.get("id"))
        elif tag == "arc":
            w = 1
            for sub in el.iter():
                if sub.tag.rsplit("}", 1)[-1] == "text" and sub.text and sub.text.strip().isdigit():
                    w = int(sub.text.strip())
            arcs.append((el.get("source"), el.get("target"), w))
    for s, t, w in arcs:
        if s in places:
            pre[(s, t)] = pre.get((s, t), 0) + w
        else:
            post[(t, s)] = post.get((t, s), 0) + w
    return places, trans, pre, post


def enumerate_graph(path, limit):
    """The reachability graph by breadth-first search from the initial
    marking; None beyond limit states. -> (places, markings, edges by
    transition index, transitions)."""
    places, trans, pre, post = pnml_arcs(path)
    m0 = {}
    for _, el in ET.iterparse(path):
        if el.tag.rsplit("}", 1)[-1] == "place":
            for sub in el.iter():
                if sub.tag.rsplit("}", 1)[-1] == "initialMarking":
                    for t in sub.iter():
                        if t.tag.rsplit("}", 1)[-1] == "text" and t.text and t.text.strip():
                            m0[el.get("id")] = int(t.text.strip())
    P = sorted(places)
    at = {p: i for i, p in enumerate(P)}
    T = sorted(trans)
    ins = [[(at[p], w) for (p, u), w in pre.items() if u == t] for t in T]
    delta = []
    for k, t in enumerate(T):
        d = {}
        for (p, u), w in pre.items():
            if u == t:
                d[at[p]] = d.get(at[p], 0) - w
        for (p, u), w in post.items():
            if u == t:
                d[at[p]] = d.get(at[p], 0) + w
        delta.append(list(d.items()))
    start = tuple(m0.get(p, 0) for p in P)
    index, states, edges = {start: 0}, [start], []
    i = 0
    while i < len(states):
        m = states[i]
        out = []
        for k in range(len(T)):
            if all(m[p] >= w for p, w in ins[k]):
                n = list(m)
                for p, d in delta[k]:
                    n[p] += d
                n = tuple(n)
                if n not in index:
                    if len(states) >= limit:
                        return None
                    index[n] = len(states)
                    states.append(n)
                out.append((k, index[n]))
        edges.append(out)
        i += 1
    return P, states, edges, T


def enumerated(path, limit):
    g = enumerate_graph(path, limit)
    if g is None:
        return {}
    P, states, edges, T = g
    N = len(states)
    pred = [[] for _ in range(N)]
    for i, out in enumerate(edges):
        for _, j in out:
            pred[j].append(i)

    def back(targets):
        seen = set(targets)
        todo = list(targets)
        while todo:
            for y in pred[todo.pop()]:
                if y not in seen:
                    seen.add(y)
                    todo.append(y)
        return len(seen)
    fired = {k for out in edges for k, _ in out}
    live = all(back([i for i, out in enumerate(edges) if any(k == t for k, _ in out)]) == N
               for t in range(len(T)))
    return {
        "SAFE": all(x <= 1 for m in states for x in m),
        "DEADLOCK": any(not out for out in edges),
        "REVERSIBLE": back([0]) == N,
        "QUASI_LIVE": len(fired) == len(T),
        "LIVE": live,
        "DEAD_PLACES": any(all(m[p] == 0 for m in states) for p in range(len(P))),
        "DEAD_TRANSITIONS": len(fired) < len(T),
    }


def structure(path):
    P, T, pre, post = pnml_arcs(path)
    ins = {t: {p for (p, u) in pre if u == t} for t in T}
    outs = {t: {p for (p, u) in post if u == t} for t in T}
    cons = {p: {t for (q, t) in pre if q == p} for p in P}
    prod = {p: {t for (q, t) in post if q == p} for p in P}
    win = {t: sum(w for (p, u), w in pre.items() if u == t) for t in T}
    wout = {t: sum(w for (p, u), w in post.items() if u == t) for t in T}
    nodes = list(P) + list(T)
    succ = {x: set() for x in nodes}
    for (p, t) in pre:
        succ[p].add(t)
    for (p, t) in post:
        succ[t].add(p)
    pred = {x: set() for x in nodes}
    for x, ys in succ.items():
        for y in ys:
            pred[y].add(x)

    def reach(start, nxt):
        seen, todo = {start}, [start]
        while todo:
            for y in nxt[todo.pop()]:
                if y not in seen:
                    seen.add(y)
                    todo.append(y)
        return seen
    undirected = {x: succ[x] | pred[x] for x in nodes}
    shared = [(t, u) for p in P for t in cons[p] for u in cons[p] if t != u]
    return {
        "ORDINARY": all(w == 1 for w in list(pre.values()) + list(post.values())),
        "SIMPLE_FREE_CHOICE": all(len(ins[t]) == 1 and len(ins[u]) == 1 for t, u in shared),
        "EXTENDED_FREE_CHOICE": all(ins[t] == ins[u] for t, u in shared),
        "STATE_MACHINE": all(len(ins[t]) == 1 and len(outs[t]) == 1 for t in T),
        "MARKED_GRAPH": all(len(cons[p]) == 1 and len(prod[p]) == 1 for p in P),
        "CONNECTED": not nodes or len(reach(nodes[0], undirected)) == len(nodes),
        "STRONGLY_CONNECTED": not nodes or (len(reach(nodes[0], succ)) == len(nodes) and
                                            len(reach(nodes[0], pred)) == len(nodes)),
        "SOURCE_PLACE": any(not prod[p] for p in P),
        "SINK_PLACE": any(not cons[p] for p in P),
        "SOURCE_TRANSITION": any(not ins[t] for t in T),
        "SINK_TRANSITION": any(not outs[t] for t in T),
        "LOOP_FREE": all(not (ins[t] & outs[t]) for t in T),
        "CONSERVATIVE": all(win[t] == wout[t] for t in T),
        "SUBCONSERVATIVE": all(win[t] >= wout[t] for t in T),
    }


def second_opinion(folder, name, prop, coloured, enum_states=150000):
    """'true'/'false' from an independent method, or None. A coloured
    instance is judged on its P/T twin (props.h), whose folder answers."""
    if coloured:
        twin = name.replace("-COL-", "-PT-")
        folder = os.path.join(os.path.dirname(folder), twin)
        if twin == name or not os.path.isdir(folder):
            return None
        name, coloured = twin, False
    if prop in ORACLE_OF:
        exam, negate = ORACLE_OF[prop]
        o = score.read_oracle(score.oracle_path(folder, name, exam))
        v = (o or {}).get(exam)
        if v in ("TRUE", "FALSE"):
            return str((v == "TRUE") != negate).lower()
    if prop in ("REVERSIBLE", "DEAD_PLACES", "SAFE", "DEADLOCK", "LIVE", "QUASI_LIVE",
                "DEAD_TRANSITIONS"):
        e = enumerated(os.path.join(folder, "model.pnml"), enum_states)
        return str(e[prop]).lower() if prop in e else None
    s = structure(os.path.join(folder, "model.pnml"))
    return str(s[prop]).lower() if prop in s else None


def check(args, name, folder):
    try:
        rc, rows = run_properties(args.petrel, folder, args.timeout, args.memory)
    except subprocess.TimeoutExpired:
        return name, "hung", {}, []
    coloured = open(os.path.join(folder, "iscolored")).read().strip() == "TRUE" \
        if os.path.exists(os.path.join(folder, "iscolored")) else False
    findings = []
    for prop, (mine, theirs, cmp) in rows.items():
        if cmp == "disagree":
            findings.append((prop, mine, theirs,
                             second_opinion(folder, name, prop, coloured, args.enum_states)))
    return name, rc, rows, findings


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__)
    ap.add_argument("--petrel", default=os.path.join(score.REPO, "build", "petrel"))
    ap.add_argument("--mcc", default=score.DEFAULT_MCC)
    ap.add_argument("--instance", nargs="+", help="instance names (default: every one)")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per instance")
    ap.add_argument("--memory", default="2G", help="petrel --memory (default 2G)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--enum-states", type=int, default=150000,
                    help="largest graph the Python enumeration explores (default 150000)")
    args = ap.parse_args(argv)
    names = args.instance or sorted(
        d for d in os.listdir(args.mcc)
        if os.path.exists(os.path.join(args.mcc, d, "GenericPropertiesVerdict.xml")))
    totals = {"agree": 0, "disagree": 0, "not decided": 0}
    bugs, notes = [], []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        jobs = [pool.submit(check, args, n, os.path.join(args.mcc, n)) for n in names]
        for job in jobs:
            name, rc, rows, findings = job.result()
            if rc != 0:
                bugs.append("%s: petrel properties exit %s" % (name, rc))
            for _, _, cmp in rows.values():
                totals[cmp] = totals.get(cmp, 0) + 1
            for prop, mine, theirs, second in findings:
                line = "%s %s: petrel %s, verdict file %s, second method %s" % (
                    name, prop, mine, theirs, second or "none")
                (notes if second == mine else bugs).append(line)
            print("%-40s %s" % (name, " ".join("%s=%d" % (k, sum(
                1 for r in rows.values() if r[2] == k)) for k in totals)), flush=True)
    print("\n%d instances: %s" % (len(names), ", ".join("%d %s" % (v, k) for k, v in totals.items())))
    print("\nverdict-file findings (the instance's oracle or the arcs side with petrel):")
    for n in notes or ["none"]:
        print("  " + n)
    print("\npetrel disagreeing with the second method (bugs):")
    for b in bugs or ["none"]:
        print("  " + b)
    return 1 if bugs else 0


if __name__ == "__main__":
    sys.exit(main())
