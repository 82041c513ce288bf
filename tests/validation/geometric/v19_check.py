"""V19 (docs/validation.md): the join of the SPH and geometric responses of a [hybrid] run.

usage: v19_check.py OUTDIR [--sph DIR] [--realisations DIR ...] [--level-tol 2] [--t30-tol 0.10]
                    [--only levels|t30]

Over the receivers of the run in OUTDIR (summary.json's "hybrid" block; or join.json, the same
block as `geometric_room SCENE sph=DIR out=OUTDIR` writes it when it joins the SPH records
DIR/NAME.raw.wav of an earlier run again, --sph DIR):
  1. overlap octave [crossover / 2, crossover]: the calibrated geometric part's early and late
     energies against the SPH part's (early_dB, late_dB of summary.json, geometric/hybrid.hpp),
     averaged in dB over the receivers (a spatial average, as ISO 3382-1 averages positions: in
     a room below its Schroeder frequency one position's band energy follows its modes, which
     the geometric part does not model), each within --level-tol dB;
  2. T30 continuous across the crossover: in the octave band that holds the crossover (125 Hz
     ... 4 kHz, ISO 3382-1 chain of sphreverb_post.iso3382, T20 where T30 is out of range) the
     receiver-averaged full-band decay time within --t30-tol of the SPH response's. Where that
     octave reaches above f_max (a crossover above f_max / 2, the default 0.7 f_max among them)
     the SPH response is no valid reference over all of it: said in the output.
--realisations DIR ...: further joins of the same scene with other [hybrid] seeds (rays and
noise; `geometric_room ... hybrid.seed=S out=DIR`): the full response's octave decay times are
then those of the mean band energy over OUTDIR and these (per receiver; the SPH record is one),
the expectation rather than one draw: one realisation's octave T30 scatters by about 10 %, and
the receivers of one run share the tail's noise, so the mean over them does not average it out.
--only asserts one of the two (both are printed).
Prints every receiver's values and every octave's SPH and full T30 for the record. Exit 0 when
all pass, 1 otherwise.
"""
import argparse
import json
import math
import os
import sys
import warnings

import numpy as np
import scipy.io.wavfile as wavfile

from sphreverb_post import iso3382, octave

BANDS = (125, 250, 500, 1000, 2000, 4000)


def decay_times(x, rate):
    """band -> (T30 or T20 in s, which) for the octave bands of one response."""
    res, _ = iso3382.analyse(np.asarray(x, dtype=np.float64), rate, bands=BANDS, broadband=False)
    out = {}
    for b, r in res.items():
        if r["T30"] is not None:
            out[int(b)] = (r["T30"], "T30")
        elif r["T20"] is not None:
            out[int(b)] = (r["T20"], "T20")
        else:
            out[int(b)] = (math.nan, "-")
    return out


def mean_decay_times(xs, rate):
    """band -> (T30 or T20 in s, which) of the mean band energy of the responses xs (the onset
    of the first)."""
    xs = [np.asarray(x, dtype=np.float64) - np.mean(x) for x in xs]
    i0 = iso3382.onset_index(xs[0])
    out = {}
    for nom in BANDS:
        f1, _, f2 = octave.band_edges(nom)
        pre = int(round(iso3382.PRE_ONSET_BANDWIDTHS / (f2 - f1) * rate))
        e = np.mean([octave.filter_band(np.concatenate([np.zeros(pre), x]), nom, rate)[i0:] ** 2
                     for x in xs], axis=0)
        r = iso3382.band_parameters(np.sqrt(e), rate, bandwidth=f2 - f1, pre=pre)
        if r["T30"] is not None:
            out[nom] = (r["T30"], "T30")
        elif r["T20"] is not None:
            out[nom] = (r["T20"], "T20")
        else:
            out[nom] = (math.nan, "-")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--sph", help="directory of the SPH records NAME.raw.wav (default OUTDIR)")
    ap.add_argument("--realisations", nargs="+", default=[],
                    help="further join directories of the scene (other seeds)")
    ap.add_argument("--level-tol", type=float, default=2.0)
    ap.add_argument("--t30-tol", type=float, default=0.10)
    ap.add_argument("--only", choices=("levels", "t30"))
    a = ap.parse_args()
    warnings.simplefilter("ignore", wavfile.WavFileWarning)
    sph_dir = a.sph or a.outdir
    path = f"{a.outdir}/summary.json"
    if not os.path.exists(path):
        path = f"{a.outdir}/join.json"
    with open(path) as f:
        summary = json.load(f)
    h, f_max = summary["hybrid"], summary["derived"]["f_max_Hz"]
    fc = h["crossover_Hz"]
    band = min(BANDS, key=lambda b: abs(math.log2(fc / b)))
    f_hi = octave.band_edges(band)[2]
    early, late, t_sph, t_full = [], [], [], []
    for r in h["receivers"]:
        name = r["name"]
        rate, sph = wavfile.read(f"{sph_dir}/{name}.raw.wav")
        full = [wavfile.read(f"{d}/{name}.full.raw.wav")[1] for d in [a.outdir] + a.realisations]
        ts = decay_times(sph, rate)
        tf = mean_decay_times(full, rate) if a.realisations else decay_times(full[0], rate)
        early.append(r["early_dB"]), late.append(r["late_dB"])
        t_sph.append(ts[band][0]), t_full.append(tf[band][0])
        print(f"V19 {name}: overlap octave early {r['early_dB']:+.2f} dB, late {r['late_dB']:+.2f} "
              f"dB; {band} Hz octave full {tf[band][1]} {1e3 * tf[band][0]:.1f} ms vs SPH "
              f"{ts[band][1]} {1e3 * ts[band][0]:.1f} ms")
        print("    octave T SPH / full (ms): " + "  ".join(
            f"{b}: {1e3 * ts[b][0]:.1f} / {1e3 * tf[b][0]:.1f}" for b in BANDS if b in ts))
    if a.realisations:
        print(f"V19 full-response decay times: mean band energy of {1 + len(a.realisations)} "
              "realisations")
    e_mean, l_mean = float(np.mean(early)), float(np.mean(late))
    ratio = float(np.nanmean(t_full)) / float(np.nanmean(t_sph)) - 1.0
    lv_ok = abs(e_mean) <= a.level_tol and abs(l_mean) <= a.level_tol
    t_ok = math.isfinite(ratio) and abs(ratio) <= a.t30_tol
    print(f"V19 mean of {len(early)} receivers: crossover {fc:.0f} Hz, overlap {fc / 2:.0f}-{fc:.0f} "
          f"Hz: early {e_mean:+.2f} dB, late {l_mean:+.2f} dB (|.| <= {a.level_tol:g}) "
          f"{'ok' if lv_ok else 'FAIL'}; {band} Hz octave T full {1e3 * np.nanmean(t_full):.1f} ms "
          f"vs SPH {1e3 * np.nanmean(t_sph):.1f} ms ({100 * ratio:+.1f} %, <= "
          f"{100 * a.t30_tol:.0f} %) {'ok' if t_ok else 'FAIL'}")
    if f_hi > f_max:
        print(f"V19 note: the {band} Hz octave reaches {f_hi:.0f} Hz, above f_max = {f_max:.0f} Hz, "
              "where the SPH response is no valid reference")
    ok = {"levels": lv_ok, "t30": t_ok}.get(a.only, lv_ok and t_ok)
    print("V19" + (f" ({a.only} only)" if a.only else ""), "PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
