#!/usr/bin/env python3
"""Cactus plot and per-examination table from results files.

Each FILE is a JSON Lines results file of `petrel batch` (or of
tools/mcc/import-mcc.py, for another tool's output); several files compare
versions or tools side by side. Answers are scored against the MCC oracles
beside each model (score.py): only right answers count as solved; a file
whose records have no oracle counts its non-CANNOT_COMPUTE answers instead.

The cactus plot is the field's standard picture: for each file, the number
of answers solved (x) within a time (y, log scale), each answer taking the
wall-clock time of the run that printed it. It is written as SVG by this
script (standard library only), or as PNG by gnuplot with --png.

  tools/mcc/cactus.py --svg docs/cactus-small.svg small.jsonl
  tools/mcc/cactus.py --markdown --svg cmp.svg old.jsonl:v0.1 new.jsonl:v0.2 its.jsonl

FILE:LABEL names the curve (default: the records' tool and version).
"""

import argparse
import math
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import score  # noqa: E402

EXAM_ORDER = [e for e, _ in score.EXAMS]
COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf"]


def load(spec, mcc):
    """-> (label, rows): rows per run: (exam, seconds, solved, wrong, values)."""
    path, _, label = spec.partition(":") if not os.path.exists(spec) else (spec, "", "")
    recs = score.read_results(path)
    if not label:
        first = recs[0] if recs else {}
        label = "%s %s" % (first.get("tool", "petrel"), first.get("version", "?"))
    rows = []
    for rec in recs:
        r = score.score_record(rec, mcc)
        if r is not None:
            c = r["counts"]
            rows.append((rec["examination"], rec.get("time_s"), c["right"], c["wrong"],
                         len(r["entries"])))
        else:
            n = len(rec.get("answers", {}))
            rows.append((rec["examination"], rec.get("time_s"), rec.get("answered", 0), 0, n))
    return label, rows


def table(curves, markdown):
    """Per examination and file: solved / values (wrong), and the time."""
    exams = [e for e in EXAM_ORDER if any(r[0] == e for _, rows in curves for r in rows)]
    head = ["examination"] + [label for label, _ in curves]
    lines = []
    totals = [[0, 0, 0, 0.0] for _ in curves]
    for e in exams + ["TOTAL"]:
        cells = [e]
        for k, (_, rows) in enumerate(curves):
            if e == "TOTAL":
                s, v, w, t = totals[k]
            else:
                sel = [r for r in rows if r[0] == e]
                s, w, v = sum(r[2] for r in sel), sum(r[3] for r in sel), sum(r[4] for r in sel)
                t = sum(r[1] or 0 for r in sel)
                for i, x in enumerate((s, v, w, t)):
                    totals[k][i] += x
            cells.append("%d/%d%s, %.0fs" % (s, v, " (%d WRONG)" % w if w else "", t))
        lines.append(cells)
    if markdown:
        out = ["| " + " | ".join(head) + " |", "|---" + "|---:" * len(curves) + "|"]
        out += ["| " + " | ".join(c) + " |" for c in lines]
    else:
        widths = [max(len(str(r[i])) for r in [head] + lines) for i in range(len(head))]
        fmt = lambda r: "  ".join(str(x).ljust(w) if i == 0 else str(x).rjust(w)
                                  for i, (x, w) in enumerate(zip(r, widths)))
        out = [fmt(head)] + [fmt(r) for r in lines]
    print("\n".join(out))


def points(rows):
    """Cactus points: (answers solved, seconds), runs by increasing time."""
    pts, solved = [], 0
    for _, t, s, _, _ in sorted((r for r in rows if r[1] is not None), key=lambda r: r[1]):
        if s:
            solved += s
            pts.append((solved, max(t, 0.01)))
    return pts


def svg(curves, path, title):
    W, H, L, R, T, B = 720, 440, 70, 20, 40, 50
    all_pts = [p for _, rows in curves for p in points(rows)]
    xmax = max([p[0] for p in all_pts] + [1])
    ymin = 10 ** math.floor(math.log10(min([p[1] for p in all_pts] + [0.1])))
    ymax = 10 ** math.ceil(math.log10(max([p[1] for p in all_pts] + [1])))
    X = lambda x: L + (W - L - R) * x / xmax
    Y = lambda y: H - B - (H - T - B) * (math.log10(y) - math.log10(ymin)) / \
        (math.log10(ymax) - math.log10(ymin))
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="12">' % (W, H),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="22" font-size="15">%s</text>' % (L, title)]
    decade = ymin
    while decade <= ymax * 1.0001:
        y = Y(decade)
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (L, y, W - R, y))
        out.append('<text x="%d" y="%.1f" text-anchor="end">%g s</text>' % (L - 6, y + 4, decade))
        decade *= 10
    step = 10 ** max(0, math.floor(math.log10(xmax)) - (1 if xmax < 3 * 10 ** math.floor(
        math.log10(xmax)) else 0))
    x = 0
    while x <= xmax:
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>' % (X(x), T, X(x), H - B))
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>' % (X(x), H - B + 16, x))
        x += step
    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>'
               % (L, T, W - L - R, H - T - B))
    out.append('<text x="%d" y="%d" text-anchor="middle">answers solved (right)</text>'
               % ((L + W - R) // 2, H - 12))
    out.append('<text transform="translate(16,%d) rotate(-90)" text-anchor="middle">'
               'wall-clock time of the run</text>' % ((T + H - B) // 2))
    for k, (label, rows) in enumerate(curves):
        pts = points(rows)
        colour = COLOURS[k % len(COLOURS)]
        if pts:
            path_pts = " ".join("%.1f,%.1f" % (X(a), Y(b)) for a, b in [(0, pts[0][1])] + pts)
            out.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>'
                       % (path_pts, colour))
        ly = T + 16 + 18 * k
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>'
                   % (L + 12, ly - 4, L + 36, ly - 4, colour))
        out.append('<text x="%d" y="%d">%s (%d)</text>'
                   % (L + 42, ly, label.replace("&", "&amp;").replace("<", "&lt;"),
                      pts[-1][0] if pts else 0))
    out.append("</svg>")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(out) + "\n")


def png(curves, path, title):
    if not shutil.which("gnuplot"):
        print("cactus.py: no gnuplot (tools/install-deps.sh --bench); no PNG", file=sys.stderr)
        return
    script = ["set terminal png size 720,440",
              "set output '%s'" % path, "set title '%s'" % title, "set logscale y",
              "set xlabel 'answers solved (right)'", "set ylabel 'seconds'", "set key left top",
              "set xrange [0:*]",
              "plot " + ", ".join("'-' with steps lw 2 title '%s'" % label for label, _ in curves)]
    for _, rows in curves:
        script += ["%d %g" % p for p in points(rows)] + ["e"]
    subprocess.run(["gnuplot"], input="\n".join(script) + "\n", text=True, check=False)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__)
    ap.add_argument("files", nargs="+", metavar="FILE[:LABEL]")
    ap.add_argument("--svg", help="write the cactus plot as SVG")
    ap.add_argument("--png", help="write it as PNG with gnuplot")
    ap.add_argument("--title", default="Cactus plot")
    ap.add_argument("--markdown", action="store_true", help="the table in Markdown")
    ap.add_argument("--mcc", default=score.DEFAULT_MCC)
    args = ap.parse_args(argv)
    curves = [load(f, args.mcc) for f in args.files]
    table(curves, args.markdown)
    if args.svg:
        svg(curves, args.svg, args.title)
    if args.png:
        png(curves, args.png, args.title)
    return 0


if __name__ == "__main__":
    sys.exit(main())
