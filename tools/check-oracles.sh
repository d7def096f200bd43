#!/usr/bin/env bash
# Checks petrel's StateSpace answers on every instance of the MCC `small`
# group (../shared/mcc) against the oracles: the instances too slow for CI
# unit tests. Extra arguments go to tools/mcc/score.py, e.g.
#
#   tools/check-oracles.sh --timeout 300 --jobs 2 --json /tmp/ss.json
#   tools/check-oracles.sh --petrel build-release/petrel
#
# Exits 1 if any answer is wrong (unanswered ones do not fail the check).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec python3 "$here/mcc/score.py" --group small --exam StateSpace "$@"
