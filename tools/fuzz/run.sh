#!/usr/bin/env bash
# Builds (tools/fuzz/build.sh) and runs the libFuzzer targets for a while:
#
#   tools/fuzz/run.sh [SECONDS] [LIBFUZZER_ARGS...]     (default 60 s each)
#
# Targets, one after the other: fuzz_pnml (PNML reader; -max_len 65536),
# fuzz_formula (property XML reader, printer, simplifier; -max_len 16384),
# fuzz_rers (RERS property reader and action-based checkers; -max_len 4096) and
# fuzz_mcmt (MCMT reader; tiny systems' instances, search and net; -max_len 16384).
# Seeds, regenerated into $FUZZ_BUILD_DIR/seeds/ on each run:
#   pnml     models/*/model.pnml, and the ../shared/mcc model.pnml files under
#            200 KB with the whitespace between tags squeezed out (kept when
#            that fits -max_len);
#   formula  every property of the ../shared/mcc formula files (the first 4 of
#            each file), one per seed, whitespace squeezed, with the place and
#            transition names renamed onto the fuzz net's p0..p5 / t0..t5 (and
#            the first one of each file also as is: names that do not bind),
#            plus a few hand-written ones;
#   rers     the lines of models/rers/*/properties.txt with their labels
#            renamed onto the fuzz system's a, b, c;
#   mcmt     models/mcmt/*.in as they are, and with the :comment lines
#            dropped (kept when that fits -max_len);
# plus tests/fuzz/regressions/<target>/ (earlier crashes) and what earlier
# runs found ($FUZZ_BUILD_DIR/corpus/<target>/, kept between runs).
#
# A crash, leak, UBSan report, timeout (-timeout 25 s per input) or out-of-
# memory (-rss_limit_mb 2048) stops that target; its input is copied to
# tests/fuzz/regressions/<target>/ (commit it: test_fuzz_regressions.cpp
# replays it in the normal test build) and the script exits 1 after the
# other targets ran. Prints executions and executions/s per target.
#
# Variables: FUZZ_BUILD_DIR  build and work folder (default: build-fuzz)
#            FUZZ_TARGETS    which targets (default: "pnml formula rers mcmt")
#            MCC_DIR         MCC data (default: ../shared/mcc); optional
# Exit status: 0 no finding, 1 a finding or a build error, 2 bad usage.
set -euo pipefail

cd "$(dirname "$0")/../.."
seconds=60
if (($#)) && [[ "$1" != -* ]]; then
    seconds="$1"
    shift
fi
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || ((seconds < 1)); then
    echo "fuzz/run.sh: SECONDS must be a positive integer, not '$seconds'" >&2
    exit 2
fi
extra=("$@")
out="${FUZZ_BUILD_DIR:-build-fuzz}"
mcc="${MCC_DIR:-../shared/mcc}"
read -r -a targets <<<"${FUZZ_TARGETS:-pnml formula rers mcmt}"

export FUZZ_BUILD_DIR="$out"
tools/fuzz/build.sh || exit 1

# ---- seeds -------------------------------------------------------------------
rm -rf "$out/seeds"
mkdir -p "$out/seeds/pnml" "$out/seeds/formula" "$out/seeds/rers" "$out/seeds/mcmt"
python3 - "$out/seeds" "$mcc" <<'PY'
import glob, hashlib, os, re, sys

seeds, mcc = sys.argv[1], sys.argv[2]
MAX = {"pnml": 65536, "formula": 16384, "rers": 4096, "mcmt": 16384}
count = {"pnml": 0, "formula": 0, "rers": 0, "mcmt": 0}

def put(kind, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    if len(data) > MAX[kind]:
        return
    path = os.path.join(seeds, kind, hashlib.sha1(data).hexdigest())
    if not os.path.exists(path):
        with open(path, "wb") as fh:
            fh.write(data)
        count[kind] += 1

def squeeze(text):
    return re.sub(r">\s+<", "><", text).strip()

for f in sorted(glob.glob("models/*/model.pnml")):
    with open(f, "rb") as fh:
        put("pnml", fh.read())
for f in sorted(glob.glob(os.path.join(mcc, "*", "model.pnml"))):
    if os.path.getsize(f) < 200 * 1024:
        with open(f, encoding="utf-8", errors="replace") as fh:
            put("pnml", squeeze(fh.read()))

HEAD = '<?xml version="1.0"?><property-set xmlns="http://mcc.lip6.fr/">'
TAIL = "</property-set>"

def rename(prop):
    names = {"place": {}, "transition": {}}
    def sub(m):
        kind, name = m.group(1), m.group(2)
        idx = names[kind].setdefault(name, len(names[kind]))
        return "<%s>%s%d</%s>" % (kind, kind[0], idx % 6, kind)
    return re.sub(r"<(place|transition)>([^<]*)</\1>", sub, prop)

exams = ("ReachabilityCardinality", "ReachabilityFireability", "CTLCardinality",
         "CTLFireability", "LTLCardinality", "LTLFireability", "UpperBounds")
for d in sorted(glob.glob(os.path.join(mcc, "*"))):
    if not os.path.isfile(os.path.join(d, "model.pnml")) or \
            os.path.getsize(os.path.join(d, "model.pnml")) > 1024 * 1024:
        continue
    for exam in exams:
        f = os.path.join(d, exam + ".xml")
        if not os.path.isfile(f):
            continue
        with open(f, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        props = re.findall(r"<property>.*?</property>", text, re.S)
        for i, p in enumerate(props[:4]):
            p = re.sub(r"<description>.*?</description>", "", squeeze(p), flags=re.S)
            put("formula", HEAD + rename(p) + TAIL)
            if i == 0:
                put("formula", HEAD + p + TAIL)

# Hand-written: every element the reader knows, on the fuzz net's names.
def prop(i, body):
    return "<property><id>h-%d</id><description>d</description><formula>%s</formula></property>" % (i, body)
tc = "<tokens-count><place>p0</place><place>p2</place><place>p0</place></tokens-count>"
ic = "<integer-constant>%d</integer-constant>"
fire = "<is-fireable><transition>t0</transition><transition>t5</transition></is-fireable>"
hand = [
    "<all-paths><globally><integer-le>%s%s</integer-le></globally></all-paths>" % (tc, ic % 3),
    "<exists-path><finally><conjunction>%s<negation><deadlock/></negation></conjunction></finally></exists-path>" % fire,
    "<all-paths><until><before><true/></before><reach>%s</reach></until></all-paths>" % fire,
    "<exists-path><next><disjunction><false/><integer-le>%s%s</integer-le></disjunction></next></exists-path>" % (ic % 18446744073709551615, tc),
    "<place-bound><place>p4</place><place>p5</place></place-bound>",
    "<all-paths><globally><finally><negation><negation>%s</negation></negation></finally></globally></all-paths>" % fire,
    "<exists-path><until><before><deadlock/></before><reach><false/></reach></until></exists-path>",
    "<all-paths><next><is-fireable><transition>nope</transition></is-fireable></next></all-paths>",
]
put("formula", HEAD + "".join(prop(i, b) for i, b in enumerate(hand)) + TAIL)
for i, b in enumerate(hand):
    put("formula", HEAD + prop(i, b) + TAIL)
# RERS properties, labels renamed onto the fuzz system's (a, b, c).
for f in sorted(glob.glob("models/rers/*/properties.txt")):
    with open(f, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            names = {}
            def lab(m):
                w = m.group(0)
                if w in ("true", "false", "X", "F", "G", "U", "W", "R", "M", "V", "xor",
                         "AG", "EG", "AF", "EF", "AX", "EX", "A", "E"):
                    return w
                return "abc"[names.setdefault(w, len(names)) % 3]
            put("rers", re.sub(r"[A-Za-z_][A-Za-z0-9_.]*", lab, line))
# MCMT systems as they are, and without their :comment lines (shorter, so
# that larger files fit -max_len; the transitions are then named t<k>).
for f in sorted(glob.glob("models/mcmt/*.in")):
    with open(f, "rb") as fh:
        data = fh.read()
    put("mcmt", data)
    put("mcmt", b"\n".join(l for l in data.split(b"\n")
                           if not l.lstrip().startswith(b":comment")))
print("seeds: %d pnml, %d formula, %d rers, %d mcmt" %
      (count["pnml"], count["formula"], count["rers"], count["mcmt"]))
PY

# ---- runs --------------------------------------------------------------------
status=0
summary=()
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
for t in "${targets[@]}"; do
    case "$t" in
    pnml) max_len=65536 ;;
    formula) max_len=16384 ;;
    rers) max_len=4096 ;;
    mcmt) max_len=16384 ;;
    *) echo "fuzz/run.sh: unknown target '$t'" >&2; exit 2 ;;
    esac
    bin="$out/fuzz_$t"
    corpus="$out/corpus/$t"
    regress="tests/fuzz/regressions/$t"
    art="$out/artifacts/$t"
    log="$out/logs/$t.log"
    mkdir -p "$corpus" "$art" "$(dirname "$log")" "$regress"
    stamp="$out/logs/$t.start"
    touch "$stamp"
    echo "fuzz/run.sh: fuzz_$t for $seconds s (log: $log)"
    rc=0
    "$bin" -max_total_time="$seconds" -max_len="$max_len" -timeout=25 -rss_limit_mb=2048 \
        -dict="tests/fuzz/$t.dict" -artifact_prefix="$art/" -print_final_stats=1 \
        "${extra[@]+"${extra[@]}"}" "$corpus" "$out/seeds/$t" "$regress" >"$log" 2>&1 || rc=$?
    runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
    speed="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)"
    units="$(sed -n 's/^stat::new_units_added: *//p' "$log" | tail -1)"
    cov="$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 || true)"
    line="fuzz_$t: ${runs:-?} executions, ${speed:-?}/s, ${units:-?} new units, ${cov:-cov ?}"
    if ((rc != 0)); then
        status=1
        line+=", FAILED (exit $rc)"
        echo "---- last lines of $log ----"
        grep -E 'ERROR|SUMMARY|runtime error|contract broken|Test unit written' "$log" | head -20 || true
        tail -40 "$log"
        # The inputs libFuzzer wrote (or rewrote) during this run.
        while IFS= read -r f; do
            name="$(basename "$f")"
            cp "$f" "$regress/$name"
            echo "fuzz/run.sh: saved $regress/$name (reproduce: $bin $regress/$name)"
            line+=", input $regress/$name"
        done < <(find "$art" -type f -newer "$stamp")
    fi
    summary+=("$line")
done

echo
for l in "${summary[@]}"; do
    echo "$l"
done
exit "$status"
