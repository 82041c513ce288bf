#!/usr/bin/env python3
"""V19 room (docs/validation.md, V19 (d)): the join's overlap-octave levels of the geometric
part's image sources against the exact specular image sum of the same walls.

`geometric_room SCENE hybrid.phased_images=false hybrid.rays=0 hybrid.scattering=0
material.NAME.scattering=0 hybrid.air_absorption=false sph=SPH_DIR out=GEO_DIR
[record_lowpass=HZ]` joins the image
sources alone (no rays, no noise: octave-band taps at the nearest sample, synthesised and passed
through the emitter's drive filter, geometric/synthesis.hpp) with the SPH records and writes
each receiver's early / late level to GEO_DIR/join.json. This script computes the same levels
for the exact image sum (v19_late_models.py `images`: R(theta) per reflection, exact delays,
summed per frequency; a rigid face's reflections scaled by sqrt(1 - s), s its material's
scattering, which the geometric part moves from its image sources to the rays) the way the join
does: through the emitter's drive high-pass and the records' causal 4th-order Butterworth
low-pass at --lowpass HZ, the overlap octave [crossover / 2, crossover] by zero-phase LR4, the
split where the SPH band's Schroeder curve has fallen 10 dB, the model scaled to the SPH band's
energy. Where the geometric part loses or gains no late energy against its own image model the
two agree. Also printed: the correlation of the two overlap bands (GEO_DIR/NAME.geo.raw.wav through
the same low-pass; best of lags -3 ... 3 samples).

  v19_geo_images.py SCENE SPH_DIR GEO_DIR --lowpass HZ [--run GEOMETRIC_ROOM]
                    [--rigid-scattering S] [--tol DB]

--run GEOMETRIC_ROOM runs that join first (into GEO_DIR, record_lowpass = --lowpass).

Exit 0 when the mean over the receivers of (join's late level - image sum's) is within --tol dB
(and each receiver's within 3 --tol), 1 otherwise.
"""
import argparse
import configparser
import json
import os
import subprocess
import sys

import numpy as np
from scipy import signal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import v19_late_models as models  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scene")
    ap.add_argument("sph")
    ap.add_argument("geo")
    ap.add_argument("--lowpass", type=float, required=True,
                    help="Hz: the records' causal low-pass (0: none)")
    ap.add_argument("--rigid-scattering", type=float, default=0.1)
    ap.add_argument("--tol", type=float, default=0.3)
    ap.add_argument("--run", metavar="GEOMETRIC_ROOM")
    a = ap.parse_args()
    if a.run:
        cp = configparser.ConfigParser(inline_comment_prefixes=("#",))
        cp.read(a.scene)
        os.makedirs(a.geo, exist_ok=True)
        subprocess.run([a.run, a.scene, "hybrid.phased_images=false", "hybrid.rays=0",
                        "hybrid.scattering=0",
                        f"material.{cp['room']['material']}.scattering=0",
                        "hybrid.air_absorption=false", f"sph={a.sph}", f"out={a.geo}",
                        f"record_lowpass={a.lowpass:g}"], check=True, stdout=subprocess.DEVNULL)
    sc = models.scene(a.scene)
    with open(os.path.join(a.geo, "join.json")) as f:
        join = {r["name"]: r for r in json.load(f)["hybrid"]["receivers"]}
    lo, hi = 0.5 * sc["crossover"], sc["crossover"]
    diffs = []
    for name, rcv in sorted(sc["rcv"].items()):
        s, rate = models.read_mono(os.path.join(a.sph, name + ".raw.wav"))
        sb = models.overlap_band(s, rate, lo, hi)
        es = sb**2
        tail = np.cumsum(es[::-1])[::-1]
        split = int(np.argmax(tail <= 0.1 * es.sum()))
        h = models.images(sc, rcv, s.size, rate, False, rigid=np.sqrt(1.0 - a.rigid_scattering))
        h = models.drive_filter(h, rate, sc["drive_hp"])
        if a.lowpass > 0.0:
            h = signal.sosfilt(signal.butter(4, a.lowpass, fs=rate, output="sos"), h)
        hb = models.overlap_band(h, rate, lo, hi)
        g2 = es.sum() / (hb**2).sum()
        early = 10 * np.log10(g2 * (hb[:split] ** 2).sum() / es[:split].sum())
        late = 10 * np.log10(g2 * (hb[split:] ** 2).sum() / es[split:].sum())
        g, _ = models.read_mono(os.path.join(a.geo, name + ".geo.raw.wav"))
        g = g[: s.size]
        if a.lowpass > 0.0:
            g = signal.sosfilt(signal.butter(4, a.lowpass, fs=rate, output="sos"), g)
        gb = models.overlap_band(g, rate, lo, hi)
        corr = max(np.dot(gb, np.roll(hb, k)) for k in range(-3, 4)) / np.sqrt(
            (gb**2).sum() * (hb**2).sum())
        j = join[name]
        diffs.append(j["late_dB"] - late)
        print(f"{name}: split {split / rate * 1e3:4.1f} ms | join early {j['early_dB']:+.2f} "
              f"late {j['late_dB']:+.2f} dB | image sum early {early:+.2f} late {late:+.2f} dB | "
              f"late difference {diffs[-1]:+.2f} dB, correlation {corr:.3f}", flush=True)
    mean = float(np.mean(diffs))
    ok = abs(mean) <= a.tol and max(abs(d) for d in diffs) <= 3 * a.tol
    print(f"mean of {len(diffs)} receivers: late level of the join's image sources minus the "
          f"exact image sum's {mean:+.2f} dB (|.| <= {a.tol:g}, each <= {3 * a.tol:g}): "
          f"{'ok' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
