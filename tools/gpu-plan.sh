#!/usr/bin/env bash
# The GPU engine's device test plan (docs/gpu.md): one command for a machine with
# an NVIDIA GPU (compute capability 8.0 or newer, a CUDA 13 driver and toolkit).
#
#   tools/gpu-plan.sh [RESULTS_FILE]     (default: gpu-plan-results.md)
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
# instances, default ../shared/mcc).
set -uo pipefail

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
failed=0

say() { printf '%s\n' "$*" | tee -a "$out"; }
block() { say '```'; "$@" 2>&1 | tee -a "$out"; local rc=${PIPESTATUS[0]}; say '```'; return "$rc"; }

: >"$out"
say "# GPU device plan: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
say ""
say "commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), timeout ${timeout_s} s, memory $memory"
say ""
say "## Machine"
block nvidia-smi --query-gpu=name,compute_cap,memory.total,driver_version --format=csv || true
block nproc

say ""
say "## 1. Build"
if ! block cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DPETREL_CUDA=ON ||
   ! block cmake --build "$build" -j "$jobs" --target petrel_cli petrel_tests; then
    say "build failed"
    exit 1
fi
block "$root/../shared/tools/list-cubins" "$petrel" || true
block "$petrel" --version || true

say ""
say "## 2. GPU tests"
block "$build/tests/petrel_tests" --gtest_filter='Gpu*' --gtest_brief=1 || failed=1

say ""
say "## 3. GPU against CPU answers (small, large)"
block python3 - "$petrel" "$mcc" "$timeout_s" "$memory" <<'EOF' || failed=1
import os, subprocess, sys
petrel, mcc, timeout, memory = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
exams = {"StateSpace": "SS", "UpperBounds": "UB", "ReachabilityCardinality": "RC",
         "ReachabilityFireability": "RF", "ReachabilityDeadlock": "RD", "OneSafe": "OS",
         "QuasiLiveness": "QL", "StableMarking": "SM"}
head, *rows = open(os.path.join(mcc, "INDEX.tsv")).read().splitlines()
head = head.split("\t")
rows = [dict(zip(head, r.split("\t"))) for r in rows]
def answers(inst, exam, engine):
    p = subprocess.run([petrel, os.path.join(mcc, inst), "-e", exam, "--engine", engine,
                        "--timeout", timeout, "--memory", memory, "-q"],
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
bad = same = gpu_only = cpu_only = 0
for r in rows:
    if r["group"] not in ("small", "large") or r["type"] != "PT":
        continue
    for exam, suffix in exams.items():
        rc_g, g = answers(r["instance"], exam, "gpu")
        rc_c, c = answers(r["instance"], exam, "cpu")
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
print(f"answers equal {same}, GPU only {gpu_only}, CPU only {cpu_only}, differing or wrong {bad}")
sys.exit(1 if bad else 0)
EOF

say ""
say "## 4. Throughput (StateSpace)"
bench="python3 tools/bench/bench.py --petrel $petrel --mcc $mcc --timeout $timeout_s --memory $memory"
insts="Referendum-PT-0015 Raft-PT-03 Kanban-PT-00010"
say "inserts/s = successors offered to the table per second = M edges/s below."
block $bench --instances $insts --engine gpu --repeat 2 || failed=1
block $bench --instances $insts --engine gpu --full-store || failed=1
block $bench --instances $insts --engine cpu --threads "$(nproc)" || failed=1

say ""
say "## 5. Profiles"
if command -v nsys >/dev/null; then
    block nsys profile --stats=true -o "$build/plan-nsys" --force-overwrite true \
        "$petrel" "$mcc/Referendum-PT-0015" -e StateSpace --engine gpu --memory "$memory" -q || true
else
    say "nsys: not on PATH"
fi
if command -v ncu >/dev/null; then
    block ncu --kernel-name regex:gpu_expand_kernel --launch-count 5 --section SpeedOfLight \
        --section Occupancy --section MemoryWorkloadAnalysis \
        "$petrel" "$mcc/Referendum-PT-0015" -e StateSpace --engine gpu --memory "$memory" -q || true
else
    say "ncu: not on PATH"
fi

say ""
say "## Result: $([ "$failed" = 0 ] && echo PASS || echo FAIL)"
exit "$failed"
