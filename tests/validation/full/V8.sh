#!/usr/bin/env bash
# V8 full: the ISO 3382-1 analysis chain (python3 -m sphreverb_post metrics) on synthetic
# exponential decays, broadband and in the six octaves, five and four reverberation times, with
# and without noise.
#   tests/validation/full/V8.sh EXE OUTDIR      (EXE unused: V8 needs no solver run)
# Writes OUTDIR/validation.json and OUTDIR/v8_errors.png; exits non-zero on failure.
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: V8.sh EXE OUTDIR" >&2; exit 2; }
out=$2
here=$(cd "$(dirname "$0")/../../.." && pwd)
export PYTHONPATH=$here/postproc  # python3 -m sphreverb_post
mkdir -p "$out"
start=$(date +%s.%N)
set +e
/usr/bin/python3 -m sphreverb_post validate v8 --full --json "$out/v8_detail.json" \
  --plot "$out/v8_errors.png" | tee "$out/v8.log"
rc=${PIPESTATUS[0]}
set -e
[[ $rc -le 1 ]] || { echo "V8: the check failed to run (exit $rc)" >&2; exit "$rc"; }
/usr/bin/python3 - "$out" "$start" <<'PY'
import json, sys, time
out, start = sys.argv[1], float(sys.argv[2])
d = json.load(open(f"{out}/v8_detail.json"))
s = d["summary"]
measured = (f"broadband: EDT/T20/T30 max |err| {s['A_T_pct']:.3f} %, C80 {s['A_C80_db']:.4f} dB, "
            f"D50 {s['A_D50']:.5f}, Ts {s['A_Ts_pct']:.3f} %; octaves 125 Hz-4 kHz: "
            f"EDT/T20/T30 {s['B_T_pct']:.3f} % (all six at once {s['B_mixed_T_pct']:.3f} %), "
            f"C80 {s['B_C80_db']:.3f} dB")
json.dump({"case": "V8", "title": "ISO 3382-1 analysis chain on synthetic exponential decays",
           "measured": measured,
           "threshold": "EDT/T20/T30 within 1 %; C80 within 0.1 dB broadband (0.3 dB in octave "
                        "bands, filter skirt); D50 within 0.005; Ts within 1 %; validity flags",
           "pass": bool(d["pass"]),
           "resolution": f"{d['rate_hz']} Hz, T = 0.3-4 s broadband, 0.3-2.5 s per octave, "
                         "noise floor none/-60/-50 dB",
           "wall_seconds": round(time.time() - start, 2), "plots": ["v8_errors.png"]},
          open(f"{out}/validation.json", "w"), indent=2)
PY
exit "$rc"
