#!/usr/bin/env bash
# Packs what tools/gpu-plan.sh needs on a lent GPU machine that cannot build
# Petrel (no Debian -dev packages there, nothing to download) into one
# archive: the Release binaries of BUILD (petrel, petrel_tests), the shared
# libraries they link (glibc aside; libstdc++ and libgcc_s apart, for an
# image that lacks them) and the P/T instances of the `small` and `large`
# groups of ../shared/mcc (models, formula files of the plan's examinations,
# oracles), about 23 MB.
#
#   tools/gpu-pack.sh [BUILD] [ARCHIVE]    (defaults: build, .gpu/gpk.tar.xz)
#
# On the device machine (docs/gpu.md, "The device test plan"):
#   mkdir -p /tmp/gpk /work/shared && tar xJf .gpu/gpk.tar.xz -C /tmp/gpk &&
#   mv /tmp/gpk/mcc /work/shared/mcc && export LD_LIBRARY_PATH=/tmp/gpk/lib
# (the test binary finds ../shared/mcc beside the source folder it was built
# in: link the checkout there when the paths differ).
set -euo pipefail

cd "$(dirname "$0")/.."
build=${1:-build}
archive=${2:-.gpu/gpk.tar.xz}
mcc=${MCC:-../shared/mcc}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib" "$stage/libfb" "$stage/mcc" "$(dirname "$archive")"
cp "$build/petrel" "$build/tests/petrel_tests" "$stage/bin/"
for b in "$stage/bin/petrel" "$stage/bin/petrel_tests"; do ldd "$b"; done |
    awk '/=>/ && $3 ~ /^\// {print $1, $3}' | sort -u |
    while read -r name path; do
        case "$name" in
        libc.so* | libm.so* | libpthread* | libdl.so* | librt.so* | ld-linux*) ;;
        libstdc++* | libgcc_s*) cp -L "$path" "$stage/libfb/" ;;
        *) cp -L "$path" "$stage/lib/" ;;
        esac
    done
awk -F'\t' 'NR == 1 || (($3 == "small" || $3 == "large") && $2 == "PT")' "$mcc/INDEX.tsv" \
    >"$stage/mcc/INDEX.tsv"
for inst in $(awk -F'\t' 'NR > 1 {print $1}' "$stage/mcc/INDEX.tsv"); do
    mkdir -p "$stage/mcc/$inst"
    for f in model.pnml instance iscolored equiv_col ReachabilityCardinality.xml \
        ReachabilityFireability.xml UpperBounds.xml GenericPropertiesDefinition.xml; do
        if [ -e "$mcc/$inst/$f" ]; then cp "$mcc/$inst/$f" "$stage/mcc/$inst/"; fi
    done
    cp "$mcc/$inst/"*.out "$stage/mcc/$inst/"
done
tar cJf "$archive" -C "$stage" bin lib libfb mcc
echo "$archive: $(du -h "$archive" | cut -f1)"
