#!/usr/bin/env bash
# The GPU engine's device test plan (docs/gpu.md): one command for a machine with
# an NVIDIA GPU (compute capability 8.0 or newer, a CUDA 13 driver and toolkit).
#
#   tools/gpu-plan.sh [--quick|--throughput] [RESULTS_FILE]
#                                        (default: gpu-plan-results.md)
#
# A lent machine's window is short (about 15 minutes, 10 per command): run
# --quick first (steps 1-3: the device tests and GPU against CPU answers on
# the first 12 `small` P/T instances, at most about 5 minutes), then
# --throughput (steps 4-5, at most about 6 minutes). Each prints its planned
# length first and writes the results file as it goes, so a run cut off
# still leaves what it measured. Without a usable NVIDIA device every step is
# skipped with the reason (a dry run: a few seconds).
#
#   1. configures and builds a CUDA release build in build-gpu/ (petrel and the
#      test binary only), and lists its cubins / PTX (../shared/tools/list-cubins);
#   2. the GPU tests: petrel_tests --gtest_filter='Gpu*' (GpuDevice.* run on the
#      device now, GpuEmulated*.* are the host emulation);
#   3. GPU against CPU answers on the `small` and `large` groups of ../shared/mcc
#      for StateSpace, UpperBounds, ReachabilityCardinality/Fireability/Deadlock,
#      OneSafe, QuasiLiveness and StableMarking (petrel --engine gpu against
#      --engine cpu, each under --timeout; a value that both print and that
#      differs is a failure, and so is a GPU value the oracle contradicts);
#   4. throughput on Referendum-PT-0015, Raft-PT-03 and Kanban-PT-00010:
#      StateSpace with --engine gpu and with --engine cpu (all cores), states/s,
#      inserts/s (successors offered to the table: edges/s) and bytes/state from
#      the stats line, for the compact table and the id table (--full-store);
#   5. when nsys / ncu are on PATH: an nsys timeline summary of one GPU run and
#      an ncu summary of the first expansion kernels.
# Everything goes to RESULTS_FILE (Markdown); the exit status is 1 when a test
# or a comparison failed. Variables: TIMEOUT (s per run, default 120), MEMORY
# (petrel --memory, default 16G), JOBS (build jobs, default nproc), MCC (the
# instances, default ../shared/mcc); for a lent machine whose time is short:
# PREBUILT (a folder holding petrel and petrel_tests built elsewhere: step 1
# only lists their kernels), STEPS (the steps to run, default "1 2 3 4 5"),
# GPU_TESTS (step 2's gtest filter, default 'Gpu*'), PAR (step 3's runs at a
# time, default nproc/2; the CPU reference runs on one thread), COMPARE_S (step
# 3 starts no run after that many seconds and counts what it left, default
# unlimited), COMPARE_LIMIT (step 3 on the first N `small` instances only),
# TESTS_S (step 2's limit in s), BENCH_TIMEOUT (step 4's s per
# run, default TIMEOUT), BENCH_REPEAT (step 4's GPU repeats, default 2).
set -uo pipefail

mode=full
case "${1:-}" in
--quick) mode=quick; shift ;;
--throughput) mode=throughput; shift ;;
esac
if [ "$mode" = quick ]; then
    : "${STEPS:=1 2 3}" "${TESTS_S:=90}" "${TIMEOUT:=10}" "${COMPARE_S:=120}" "${COMPARE_LIMIT:=12}"
    # GpuDevice.* (with the dot): GpuDevice* would also match GpuDeviceCheck's 153 s
    # CPU-bound comparison, which the quick mode leaves out.
    : "${GPU_TESTS:=GpuDevice.*:GpuDeviceCheck.WalksAreSound:GpuPortfolio*}"
elif [ "$mode" = throughput ]; then
    : "${STEPS:=4 5}" "${BENCH_TIMEOUT:=25}" "${BENCH_REPEAT:=1}" "${TIMEOUT:=25}"
    # Kanban-PT-00010's 1.0e9 states do not fit 16G: there the compact table
    # stopped at 947 M states and the id table at 805 M (out of memory).
    : "${MEMORY:=32G}"
fi
cd "$(dirname "$0")/.."
root=$(pwd)
out=${1:-gpu-plan-results.md}
case "$out" in /*) ;; *) out="$root/$out" ;; esac
timeout_s=${TIMEOUT:-120}
memory=${MEMORY:-16G}
jobs=${JOBS:-$(nproc)}
mcc=${MCC:-$root/../shared/mcc}
build=build-gpu
petrel=$build/petrel
tests=$build/tests/petrel_tests
if [ -n "${PREBUILT:-}" ]; then
    petrel=$PREBUILT/petrel
    tests=$PREBUILT/petrel_tests
fi
steps=" ${STEPS:-1 2 3 4 5} "
step() { case "$steps" in *" $1 "*) return 0 ;; esac; return 1; }
par=${PAR:-$(( $(nproc) / 2 > 0 ? $(nproc) / 2 : 1 ))}
compare_s=${COMPARE_S:-0}
bench_timeout=${BENCH_TIMEOUT:-$timeout_s}
failed=0

say() { printf '%s\n' "$*" | tee -a "$out"; }
block() { say '```'; "$@" 2>&1 | tee -a "$out"; local rc=${PIPESTATUS[0]}; say '```'; return "$rc"; }

: >"$out"
say "# GPU device plan: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
say ""
say "commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), timeout ${timeout_s} s, memory $memory"
# The planned length: each step's bounds (the build aside: PREBUILT skips it).
planned=0
step 2 && planned=$((planned + ${TESTS_S:-600}))
step 3 && planned=$((planned + ${COMPARE_S:-1800} + 2 * ${timeout_s%.*}))
step 4 && planned=$((planned + 12 * ${bench_timeout%.*}))
step 5 && planned=$((planned + 120))
say "plan: mode $mode, steps${steps% }, at most about $planned s$([ -z "${PREBUILT:-}" ] && step 1 && echo ' after the build')"
say ""
say "## Machine"
if ! nvidia-smi -L >/dev/null 2>&1; then
    say "no usable NVIDIA device (nvidia-smi -L failed or is absent): every step skipped"
    say ""
    say "## Result: SKIPPED"
    exit 0
fi
block nvidia-smi --query-gpu=name,compute_cap,memory.total,driver_version --format=csv || true
block nproc

if step 1 && [ -n "${PREBUILT:-}" ]; then
say ""
say "## 1. Prebuilt binaries ($PREBUILT)"
block "$petrel" --version || failed=1
if command -v cuobjdump >/dev/null; then block cuobjdump --list-elf "$petrel" || true; fi
elif step 1; then
say ""
say "## 1. Build"
if ! block cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DPETREL_CUDA=ON ||
   ! block cmake --build "$build" -j "$jobs" --target petrel_cli petrel_tests; then
    say "build failed"
    exit 1
fi
block "$root/../shared/tools/list-cubins" "$petrel" || true
block "$petrel" --version || true
fi

if step 2; then
say ""
say "## 2. GPU tests (${GPU_TESTS:-Gpu*})"
block timeout "${TESTS_S:-86400}" "$tests" --gtest_filter="${GPU_TESTS:-Gpu*}" --gtest_brief=1 || failed=1
fi

if step 3; then
say ""
say "## 3. GPU against CPU answers (small, large)"
block python3 - "$petrel" "$mcc" "$timeout_s" "$memory" "$par" "$compare_s" "${COMPARE_LIMIT:-0}" <<'EOF' || failed=1
import os, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor
petrel, mcc, timeout, memory = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
par, compare_s, limit = int(sys.argv[5]), float(sys.argv[6]), int(sys.argv[7])
start = time.monotonic()
exams = {"StateSpace": "SS", "UpperBounds": "UB", "ReachabilityCardinality": "RC",
         "ReachabilityFireability": "RF", "ReachabilityDeadlock": "RD", "OneSafe": "OS",
         "QuasiLiveness": "QL", "StableMarking": "SM"}
head, *rows = open(os.path.join(mcc, "INDEX.tsv")).read().splitlines()
head = head.split("\t")
rows = [dict(zip(head, r.split("\t"))) for r in rows]
def answers(inst, exam, engine):
    if compare_s > 0 and time.monotonic() - start > compare_s:
        return None, {}
    threads = ["--threads", "1"] if engine == "cpu" else []
    engines_only = ["--no-dd"] if exam == "StateSpace" else []  # the engines, not the diagrams
    p = subprocess.run([petrel, os.path.join(mcc, inst), "-e", exam, "--engine", engine,
                        "--timeout", timeout, "--memory", memory, "-q"] + threads + engines_only,
                       capture_output=True, text=True)
    vals = {}
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) >= 3 and f[0] in ("FORMULA", "STATE_SPACE"):
            vals[f[0] + " " + f[1]] = f[2]
    return p.returncode, vals
def oracle(inst, suffix):
    path = os.path.join(mcc, inst, f"{inst}-{suffix}.out")
    vals = {}
    if os.path.exists(path):
        for line in open(path).read().splitlines()[1:]:
            f = line.split()
            if len(f) >= 3 and f[2] != "?":
                vals["FORMULA " + f[1]] = f[2]
    return vals
bad = same = gpu_only = cpu_only = left = 0
insts = [r["instance"] for r in rows if r["group"] in ("small", "large") and r["type"] == "PT"]
if limit > 0:  # --quick: the first `limit` small instances
    insts = [r["instance"] for r in rows if r["group"] == "small" and r["type"] == "PT"][:limit]
jobs = [(inst, exam, suffix) for inst in insts for exam, suffix in exams.items()]
def both(job):
    inst, exam, _ = job
    return answers(inst, exam, "gpu"), answers(inst, exam, "cpu")
with ThreadPoolExecutor(max_workers=par) as pool:
    done = list(pool.map(both, jobs))
for (inst, exam, suffix), ((rc_g, g), (rc_c, c)) in zip(jobs, done):
        r = {"instance": inst}
        if rc_g is None or rc_c is None:
            left += 1
            continue
        o = oracle(r["instance"], suffix)
        for k in sorted(set(g) | set(c)):
            gv, cv = g.get(k, "CANNOT_COMPUTE"), c.get(k, "CANNOT_COMPUTE")
            known = [v for v in (gv, cv) if v != "CANNOT_COMPUTE"]
            if len(known) == 2 and gv != cv or (k in o and gv not in ("CANNOT_COMPUTE", o[k])):
                bad += 1
                print(f"DIFFER {r['instance']} {exam} {k}: gpu {gv} cpu {cv} oracle {o.get(k, '?')}")
            elif len(known) == 2:
                same += 1
            elif gv != "CANNOT_COMPUTE":
                gpu_only += 1
            elif cv != "CANNOT_COMPUTE":
                cpu_only += 1
        if rc_g != 0:
            bad += 1
            print(f"EXIT {r['instance']} {exam}: --engine gpu exited {rc_g}")
print(f"answers equal {same}, GPU only {gpu_only}, CPU only {cpu_only}, differing or wrong {bad}, "
      f"(instance, examination) pairs not run (COMPARE_S) {left} of {len(jobs)}, "
      f"{time.monotonic() - start:.0f} s with {par} at a time")
sys.exit(1 if bad else 0)
EOF
fi

if step 4; then
say ""
say "## 4. Throughput (StateSpace)"
bench="python3 tools/bench/bench.py --petrel $petrel --mcc $mcc --timeout $bench_timeout --memory $memory"
insts="Referendum-PT-0015 Raft-PT-03 Kanban-PT-00010"
say "inserts/s = successors offered to the table per second = M edges/s below."
block $bench --instances $insts --engine gpu --repeat "${BENCH_REPEAT:-2}" || failed=1
block $bench --instances $insts --engine gpu --full-store || failed=1
block $bench --instances $insts --engine cpu --threads "$(nproc)" || failed=1
fi

if step 5; then
say ""
say "## 5. Profiles"
if command -v nsys >/dev/null; then
    block nsys profile --stats=true -o "$build/plan-nsys" --force-overwrite true \
        "$petrel" "$mcc/Referendum-PT-0015" -e StateSpace --no-dd --engine gpu --memory "$memory" -q || true
else
    say "nsys: not on PATH"
fi
if command -v ncu >/dev/null; then
    block ncu --clock-control none --kernel-name regex:gpu_expand_kernel --launch-count 5 --section SpeedOfLight \
        --section Occupancy --section MemoryWorkloadAnalysis \
        "$petrel" "$mcc/Referendum-PT-0015" -e StateSpace --no-dd --engine gpu --memory "$memory" -q || true
else
    say "ncu: not on PATH"
fi
fi

say ""
say "## Result: $([ "$failed" = 0 ] && echo PASS || echo FAIL)"
exit "$failed"
