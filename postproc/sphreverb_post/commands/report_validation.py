"""Assembles the validation report from the cases' result files.

    python3 -m sphreverb_post report-validation DIR [--out DIR/report.md]

Reads DIR/V*/validation.json (schema: case, title, measured, threshold, pass, resolution,
wall_seconds, plots relative to the case directory) and writes a Markdown report: one table row
per case, then each case's plots embedded (paths relative to the report).
"""
import argparse
import glob
import json
import os
import re
import sys
import time


def case_key(path):
    m = re.search(r"V(\d+)", os.path.basename(os.path.dirname(path)))
    return int(m.group(1)) if m else 1 << 30


def cell(v):
    return str(v).replace("|", "\\|").replace("\n", " ")


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--out")
    args = ap.parse_args(argv)
    out = args.out or os.path.join(args.dir, "report.md")
    files = sorted(glob.glob(os.path.join(args.dir, "V*", "validation.json")), key=case_key)
    if not files:
        print(f"validation_report: no {args.dir}/V*/validation.json", file=sys.stderr)
        return 2
    rows = []
    for f in files:
        try:
            with open(f) as fh:
                d = json.load(fh)
        except (OSError, ValueError) as e:
            d = {"case": os.path.basename(os.path.dirname(f)), "title": f"unreadable: {e}",
                 "pass": False}
        d["_dir"] = os.path.dirname(f)
        rows.append(d)
    base = os.path.dirname(os.path.abspath(out))
    lines = ["# sphreverb validation report", "",
             f"Generated {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by "
             "`scripts/validate.sh` from `" + args.dir + "/V*/validation.json`. Cases and "
             "thresholds: docs/validation.md.", "",
             "| case | title | measured | threshold | pass | resolution | wall time |",
             "|---|---|---|---|---|---|---|"]
    for d in rows:
        wall = d.get("wall_seconds")
        wall = f"{wall:.0f} s" if isinstance(wall, (int, float)) else "-"
        lines.append(f"| {cell(d.get('case', '?'))} | {cell(d.get('title', ''))} | "
                     f"{cell(d.get('measured', '-'))} | {cell(d.get('threshold', '-'))} | "
                     f"{'**PASS**' if d.get('pass') else '**FAIL**'} | "
                     f"{cell(d.get('resolution', '-'))} | {wall} |")
    npass = sum(bool(d.get("pass")) for d in rows)
    lines += ["", f"{npass} of {len(rows)} cases pass.", ""]
    for d in rows:
        lines += [f"## {d.get('case', '?')}: {d.get('title', '')}", "",
                  f"Measured {d.get('measured', '-')}; threshold {d.get('threshold', '-')}; "
                  f"{'pass' if d.get('pass') else 'FAIL'}.", ""]
        if d.get("error"):
            lines += [f"Error: {d['error']}", ""]
        for p in d.get("plots", []):
            path = os.path.relpath(os.path.join(d["_dir"], p), base)
            lines += [f"![{d.get('case', '')} {p}]({path})", ""]
    with open(out, "w") as fh:
        fh.write("\n".join(lines))
    print(f"validation_report: {len(rows)} case(s), {npass} pass -> {out}")
    return 0
