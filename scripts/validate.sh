#!/usr/bin/env bash
# Runs the full-resolution validation cases and writes a report.
#   scripts/validate.sh [V1 V4 ...]          (default: every tests/validation/full/V*.sh)
# Environment: SPHREVERB (default build/sphreverb), VALIDATION_OUT (default out/validation),
# VALIDATION_RANKS (default 2).
# Each case Vn runs as tests/validation/full/Vn.sh SPHREVERB OUT/Vn, printing its measured value
# next to its threshold and writing OUT/Vn/validation.json (+ PNG plots); its output goes to
# OUT/Vn/log.txt as well. Then OUT/report.md is assembled from every OUT/V*/validation.json
# (python3 -m sphreverb_post report-validation). Exit status: 0 if every case that ran passed,
# 1 otherwise.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
exe=${SPHREVERB:-$src/build/sphreverb}
out=${VALIDATION_OUT:-out/validation}
[[ -x $exe ]] || { echo "validate.sh: $exe not found; build first (cmake --build build)" >&2; exit 2; }
mkdir -p "$out"

cases=()
if [[ $# -gt 0 ]]; then
  for c in "$@"; do
    [[ $c =~ ^V[0-9]+$ ]] || { echo "validate.sh: '$c' is not a case name (V1, V2, ...)" >&2; exit 2; }
    [[ -x $src/tests/validation/full/$c.sh ]] ||
      { echo "validate.sh: no tests/validation/full/$c.sh" >&2; exit 2; }
    cases+=("$c")
  done
else
  for f in "$src"/tests/validation/full/V*.sh; do
    [[ -e $f ]] && cases+=("$(basename "$f" .sh)")
  done
  mapfile -t cases < <(printf '%s\n' "${cases[@]}" | sort -V)
fi

failed=()
for c in "${cases[@]}"; do
  echo "=== $c ($(date -u +%H:%M:%S) UTC)"
  rm -rf "${out:?}/$c"
  mkdir -p "$out/$c"
  start=$(date +%s)
  "$src/tests/validation/full/$c.sh" "$exe" "$out/$c" 2>&1 | tee "$out/$c/log.txt"
  rc=${PIPESTATUS[0]}
  if [[ ! -f $out/$c/validation.json ]]; then
    # The case broke before writing its result: record that, so the report shows it.
    /usr/bin/python3 -c 'import json,sys; json.dump({"case": sys.argv[1], "title": "did not complete",
      "measured": "-", "threshold": "-", "pass": False, "resolution": "-",
      "wall_seconds": float(sys.argv[2]), "plots": [], "error": "exit %s; see log.txt" % sys.argv[3]},
      open(sys.argv[4], "w"))' "$c" "$(( $(date +%s) - start ))" "$rc" "$out/$c/validation.json"
  fi
  [[ $rc -eq 0 ]] || failed+=("$c")
done
PYTHONPATH=$src/postproc /usr/bin/python3 -m sphreverb_post report-validation "$out" \
  --out "$out/report.md"
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "validate.sh: failed: ${failed[*]} (report: $out/report.md)"
  exit 1
fi
echo "validate.sh: all ${#cases[@]} case(s) passed (report: $out/report.md)"
