#!/usr/bin/env bash
# The run report on a real run: the default run (configs/small_room.ini, 100 ms on 2 ranks through
# scripts/run.sh, which writes report.html; ctest's validation_default_rir makes it in RUN_DIR);
# the page must hold both receivers' ISO 3382-1 tables, eight PNG figures, finite Sabine
# estimates, an onset within 0.5 ms after the direct path from the emitter disc's centre
# (distance / c), and every table cell (value and validity) equal to `python3 -m sphreverb_post
# metrics --json` on the same NAME.raw.wav.
#   report_run.sh SOURCE_DIR RUN_DIR WORK_DIR
set -euo pipefail
src=$1 run=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
[[ -f $run/report.html ]] || { echo "FAIL: no report.html in $run (run the default scene first)"; exit 1; }
for name in left right; do
  PYTHONPATH="$src/postproc" /usr/bin/python3 -m sphreverb_post metrics \
    "$run/$name.raw.wav" --json "$work/$name.metrics.json" > "$work/$name.metrics.txt"
done
PYTHONPATH="$src/postproc" /usr/bin/python3 - "$run/report.html" "$work" <<'PY'
import base64, json, re, sys
import numpy as np
page = open(sys.argv[1], encoding="utf-8").read()
work = sys.argv[2]
imgs = re.findall(r"<img src='data:image/png;base64,([^']+)'", page)
assert len(imgs) == 8, f"{len(imgs)} figures, expected 8"
assert all(base64.b64decode(i)[:4] == b"\x89PNG" for i in imgs), "a figure is not a PNG"
tables = re.findall(r"<table class='iso' data-receiver='(\w+)'", page)
assert tables == ["left", "right"], tables
t30 = re.findall(r'data-band="(\d+)" data-param="T30"', page)
assert "500" in t30, t30
assert "<td>∞</td>" not in page.split("Sabine T60")[1].split("</tr>")[0], "no finite Sabine T"
# Direct path: disc centre (0.008, 0.1, 0.1) m to each receiver, c = 343 m/s.
for name, pos in (("left", (0.45, 0.22, 0.2)), ("right", (0.45, 0.32, 0.2))):
    onset = float(re.search(rf"id='receiver-{name}' data-onset-s='([^']+)'", page).group(1))
    direct = np.linalg.norm(np.subtract(pos, (0.008, 0.1, 0.1))) / 343.0
    assert 0.0 <= onset - direct <= 5e-4, f"{name}: onset {onset:.5f} s, direct {direct:.5f} s"
    print(f"report_run: {name} onset {1000 * onset:.2f} ms, direct path {1000 * direct:.2f} ms")
# The table is `metrics` on the same WAV, cell for cell.
cells = re.findall(r'<td[^>]* data-receiver="(\w+)" data-band="(\w+)" data-param="(\w+)" '
                   r'data-valid="([01])"(?: data-value="([^"]+)")?', page)
assert cells, "no table cells"
for name in ("left", "right"):
    m = json.load(open(f"{work}/{name}.metrics.json"))
    mine = [c for c in cells if c[0] == name]
    # The octaves below f_max (3043 Hz at the default 1.5 cm): 125 Hz to 2 kHz.
    assert {c[1] for c in mine} == {"125", "250", "500", "1000", "2000", "broadband"}, mine
    for _, band, key, valid, value in mine:
        want = m[band][key]
        assert valid == str(int(m[band]["valid"][key])), (name, band, key, valid)
        assert (value == "" and want is None) or float(value) == want, \
            (name, band, key, value, want)
    print(f"report_run: {name}: {len(mine)} table cells equal `metrics` on {name}.raw.wav")
assert "high-passed them at 20 Hz" in page, "the page does not state the solver's high-pass"
print(f"report_run: ok, {len(imgs)} figures, tables {tables}")
PY
