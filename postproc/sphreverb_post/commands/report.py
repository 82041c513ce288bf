"""One self-contained HTML page of a run: ``OUT/report.html``.

    python3 -m sphreverb_post report OUT [--output FILE]

The page holds the scene facts from ``OUT/summary.json`` (room, materials and their absorption,
particles, spacing, f_max, substeps, steps, wall time, particle-steps/s, ranks, versions) and, for
each receiver ``OUT/NAME.raw.wav`` (float, pascals): the waveform, the spectrum with the
rigid-box modes f = (c/2) sqrt((nx/Lx)^2 + (ny/Ly)^2 + (nz/Lz)^2) marked when the scene has a
[room] box, a spectrogram, the Schroeder energy decay curves per octave, and the ISO 3382-1
table (T20, T30, EDT, C80, D50, Ts; iso3382.py) for the octaves whose centre lies below f_max,
with validity flags and the Sabine and Eyring estimates (room.py) of each octave. A run whose
log (``OUT/sphreverb.log``) holds the energy watch's warning ("the run is unstable": the air's
energy grew past ten times its driven peak) gets that warning as a banner at the top of the page:
its records then hold the growth, and no decay figure of it is a room's.

Every figure and the table analyse ``NAME.raw.wav`` exactly as the solver wrote it, the way
``python3 -m sphreverb_post metrics NAME.raw.wav`` does (same samples, same ISO 3382-1 onset, so
the same numbers): the solver has already high-passed it causally at ``[output] highpass``
(4th-order Butterworth, default 20 Hz; summary.json ``derived.highpass_Hz``), which removes the
sealed room's sub-audio swing (the emitter's net volume displacement) and keeps the silence before
the direct sound. The page adds no filter of its own; with ``[output] highpass = 0`` it says that
the swing is in the record.

Sabine and Eyring use the box's volume and surface, the area-weighted mean random-incidence
absorption of its six faces and c = [fluid] sound_speed. Each face's normal-incidence absorption
is the wall model's value at the octave centres from summary.json (``model_absorption_at_bands``;
the configured ``absorption`` when the model's is absent; 0 for rigid), converted to random
incidence with Paris' formula for a real normalised impedance zeta >= 1 (Kuttruff, Room
Acoustics, Eq. 2.42; docs/theory/walls.md): alpha_n = 1 - ((zeta-1)/(zeta+1))^2,
alpha_st = (8/zeta^2) [zeta - 2 ln(1+zeta) + zeta/(1+zeta)]. Obstacles, the emitter disc and air
absorption are not counted.

Figures are PNGs embedded as base64 data URIs; the page loads nothing else. On load, a one-line
script writes ``N/M`` (figures decoded / figures) into the body's ``data-figures`` attribute.
Exit status: 0 written, 2 bad input (missing or unreadable summary.json or receiver file).
"""
import argparse
import base64
import html
import io
import json
import os
import re
import sys

import numpy as np

from sphreverb_post import iso3382, octave, plots, room
from sphreverb_post.audio import InputError, read_mono
from sphreverb_post.scene import parse_scene

DEFAULT_SOUND_SPEED = 343.0   # [fluid] sound_speed's default (src/config/schema.cpp)
SOLVER_HIGHPASS_ORDER = 4   # [output] highpass: causal Butterworth (src/io/output.cpp)
FACES = ("x_min", "x_max", "y_min", "y_max", "z_min", "z_max")
TABLE_PARAMS = (("T20", "T20 (s)", 3), ("T30", "T30 (s)", 3), ("EDT", "EDT (s)", 3),
                ("C80", "C80 (dB)", 1), ("D50", "D50", 3), ("Ts", "Ts (ms)", 1))
MAX_MODES_DRAWN = 200  # the spectrum marks at most the lowest this many rigid-box modes
BAND_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")


# ----------------------------------------------------------------------------- signal


def _walls_limit(f_max_walls):
    """The force walls' f_max as the summary gives it: null when the scene has no force wall."""
    if f_max_walls is None:
        return "no force wall"
    return f"walls {f_max_walls:.0f} Hz"


def decay_curves(x, rate, bands, onset):
    """Schroeder curves of ``x`` from sample ``onset``, as iso3382.analyse computes them
    (zero-phase octave filter, Lundeby truncation and compensation) for the octaves ``bands``
    (nominal Hz) and, under the key None, for the broadband record.
    Returns {nominal or None: (t s from the onset, level dB)}."""
    x = np.asarray(x, dtype=np.float64) - np.mean(x)
    curves = {}
    for nom in list(bands) + [None]:
        if nom is None:
            pre, y = 0, x[onset:]
        else:
            f1, _, f2 = octave.band_edges(nom)
            pre = int(round(iso3382.PRE_ONSET_BANDWIDTHS / (f2 - f1) * rate))
            y = octave.filter_band(np.concatenate([np.zeros(pre), x]), nom, rate)[onset:]
        e = y ** 2
        dec = iso3382.EnergyDecay(e, rate, iso3382.lundeby(e, rate))
        level = dec.schroeder_db()[pre:]
        curves[nom] = (np.arange(len(level)) / rate, level)
    return curves


# ----------------------------------------------------------------------------- scene


def floats(value):
    return [float(v) for v in value.split()]


def random_incidence(alpha_n):
    """Paris' random-incidence absorption of a locally reacting wall with the real normalised
    impedance zeta >= 1 whose normal-incidence absorption is ``alpha_n`` (0 stays 0)."""
    a = np.clip(np.asarray(alpha_n, dtype=float), 0.0, 1.0)
    r = np.sqrt(1.0 - a)
    out = np.zeros_like(a)
    ok = a > 0.0
    zeta = (1.0 + r[ok]) / np.maximum(1.0 - r[ok], 1e-300)
    out[ok] = 8.0 / zeta ** 2 * (zeta - 2.0 * np.log1p(zeta) + zeta / (1.0 + zeta))
    return out


def material_alpha(name, materials):
    """(alpha_n at the six octaves, what it is) of material ``name``; None if unknown."""
    if name == "rigid":
        return np.zeros(len(octave.NOMINAL)), "rigid"
    m = materials.get(name)
    if m is None:
        return None, "not in summary.json"
    for key, what in (("model_absorption_at_bands", "wall model"), ("absorption", "configured")):
        if m.get(key) is not None:
            a = np.atleast_1d(np.asarray(m[key], dtype=float))
            if a.size == 1:
                a = np.full(len(octave.NOMINAL), a[0])
            if a.size == len(octave.NOMINAL):
                return a, what
    return None, "no absorption given"


def face_plate(section, lo, hi):
    """(face index, area) of a [boundary] rectangle or disc lying on a face of the box lo-hi
    (its centre on the face's plane within 1e-6 of the box's diagonal, its normal along the
    face's axis); None for any other boundary."""
    shape = section.get("shape")
    if shape not in ("rectangle", "disc") or "center" not in section or "normal" not in section:
        return None
    c, n = np.array(floats(section["center"])), np.array(floats(section["normal"]))
    if c.size != 3 or n.size != 3 or not np.linalg.norm(n) > 0:
        return None
    n = n / np.linalg.norm(n)
    axis = int(np.argmax(np.abs(n)))
    if abs(n[axis]) < 1.0 - 1e-9:
        return None
    tol = 1e-6 * max(1.0, float(np.linalg.norm(hi - lo)))
    side = 0 if abs(c[axis] - lo[axis]) <= tol else 1 if abs(c[axis] - hi[axis]) <= tol else None
    if side is None:
        return None
    if shape == "rectangle":
        w, h = floats(section.get("size", "0 0"))
        area = w * h
    else:
        area = np.pi * float(section.get("radius", 0.0)) ** 2
    return 2 * axis + side, float(area)


def with_face_plates(faces, scene, lo, hi):
    """``faces`` [(face, material, area)] with each [boundary] plate lying on a face of the box
    (face_plate) as a surface of its own, its area taken off the face it covers: the plate's
    material replaces the face's there (src/solver/covered_faces.cpp does the same for
    `sphreverb check`)."""
    faces = list(faces)
    plates = []
    for name, section in scene.items():
        if not name.startswith("boundary."):
            continue
        on = face_plate(section, lo, hi)
        if on is None:
            continue
        f, area = on
        face, material, left = faces[f]
        faces[f] = (face, material, max(0.0, left - area))
        plates.append((name, section.get("material", "rigid"), area))
    return faces + plates


def sound_speed(summary, scene=None):
    """c (m/s) the run used: summary.json's ``diffuse_field.sound_speed_m_per_s``, else the
    scene's [fluid] sound_speed, else its default (343)."""
    c = summary.get("diffuse_field", {}).get("sound_speed_m_per_s")
    if c is None:
        if scene is None:
            scene = parse_scene(summary.get("scene", ""), summary.get("scene_overrides"))
        c = scene.get("fluid", {}).get("sound_speed", DEFAULT_SOUND_SPEED)
    return float(c)


def estimates(model, materials_json):
    """Fill model's materials {name: (faces, alpha_n or None, source)}, alpha_st, sabine and
    eyring from its V, S, c and faces [(face, material, area the air sees)]."""
    materials = {}
    for f, name, _ in model["faces"]:
        if name not in materials:
            a, source = material_alpha(name, materials_json)
            materials[name] = ([], a, source)
        materials[name][0].append(f)
    model["materials"] = materials
    if not all(materials[name][1] is not None for _, name, _ in model["faces"]):
        return model
    V, S, c = model["V"], model["S"], model["c"]
    mean = sum(area * random_incidence(materials[name][1]) for _, name, area in model["faces"]) / S
    model["alpha_st"] = mean
    model["sabine"] = [float(room.sabine(V, S, a, c)) if a > 0 else np.inf for a in mean]
    model["eyring"] = [float(room.eyring(V, S, a, c)) if 0 < a < 1 else
                       (np.inf if a <= 0 else None) for a in mean]
    return model


def mesh_room_model(summary):
    """A room without a [room] box (a mesh room, or the fill box alone) from summary.json's
    ``diffuse_field``: the air's volume and the surfaces it sees as the solver measured them on
    its meshes (`sphreverb check` lists the same); None if the run does not report them."""
    d = summary.get("diffuse_field")
    if not d or not d.get("surfaces") or not d.get("volume_m3"):
        return None
    faces = [(f["name"], f["material"], float(f["area_m2"]) * int(f.get("sides", 1)))
             for f in d["surfaces"]]
    S = sum(a for _, _, a in faces)
    if not S > 0:
        return None
    model = dict(dims=None, V=float(d["volume_m3"]), S=S, c=sound_speed(summary), faces=faces,
                 materials={}, alpha_st=None, sabine=None, eyring=None, source="meshes")
    return estimates(model, summary.get("materials", {}))


def room_model(summary):
    """The room and its diffuse-field estimates from summary.json; None if neither a [room] box
    nor the run's ``diffuse_field`` gives them.

    Returns a dict: dims (m; None for a room that is not a [room] box: no rigid-box modes), V
    (m^3), S (m^2), c (m/s), faces [(face, material, area)] (a box's six faces, less the
    [boundary] plates lying on them, then those plates; for another room the surfaces of
    summary.json's diffuse_field, each area times its sides), source ("box" or "meshes"),
    materials {name: (faces, alpha_n or None, source)}, alpha_st (mean random-incidence
    absorption per octave, None if a face's material is unknown), sabine and eyring (s per
    octave; inf where the mean absorption is 0, None if unknown).
    """
    scene = parse_scene(summary.get("scene", ""), summary.get("scene_overrides"))
    r = scene.get("room")
    if not r or "min" not in r or "max" not in r:
        return mesh_room_model(summary)
    lo, hi = np.array(floats(r["min"])), np.array(floats(r["max"]))
    dims = hi - lo
    V, S = room.box_volume_area(*dims)
    areas = (dims[1] * dims[2],) * 2 + (dims[0] * dims[2],) * 2 + (dims[0] * dims[1],) * 2
    default = r.get("material", "rigid")
    faces = [(f, r.get("material_" + f, default), a) for f, a in zip(FACES, areas)]
    faces = with_face_plates(faces, scene, lo, hi)
    model = dict(dims=dims, V=V, S=S, c=sound_speed(summary, scene), faces=faces, materials={},
                 alpha_st=None, sabine=None, eyring=None, source="box")
    return estimates(model, summary.get("materials", {}))


# ----------------------------------------------------------------------------- analysis


def analyse_receiver(x, rate, f_max, model):
    """ISO 3382-1 table rows of the record ``x`` as written, computed as ``metrics`` computes
    them (iso3382.analyse with its own onset): the octaves with centre below ``f_max``, then the
    broadband record. Returns (rows, iso3382 meta). Each row: band, fc, params (iso3382 dict),
    flags [str], notes [str] (why a value failed its check), sabine, eyring, schroeder_hz."""
    res, meta = iso3382.analyse(x, rate)
    rows = []
    for i, nom in enumerate(octave.NOMINAL):
        b = res.get(str(nom))
        if b is None or not b["fc_hz"] < f_max:
            continue
        row = {"band": str(nom), "fc": b["fc_hz"], "params": b, "flags": [], "notes": [],
               "sabine": None, "eyring": None, "schroeder_hz": None}
        if model is not None and model["sabine"] is not None:
            row["sabine"], row["eyring"] = model["sabine"][i], model["eyring"][i]
        row["flags"], row["notes"] = band_flags(b, f_max, model, row)
        rows.append(row)
    b = res["broadband"]
    row = {"band": "broadband", "fc": None, "params": b, "sabine": None, "eyring": None,
           "schroeder_hz": None}
    row["flags"], row["notes"] = band_flags(b, f_max, None, row)
    rows.append(row)
    return rows, meta


def band_flags(b, f_max, model, row):
    """Short flags of a band and the notes behind them; sets row["schroeder_hz"]."""
    flags, notes = [], []
    reasons = b["reason"]
    if any("does not reach" in reasons.get(k, "") or "peak-to-noise" in reasons.get(k, "")
           for k in ("EDT", "T20", "T30")):
        flags.append("decay range insufficient")
    if any("B*T" in reasons.get(k, "") for k in ("EDT", "T20", "T30")):
        flags.append("B·T < 16")
    by_reason = {}     # parameters that failed for the same reasons share one note
    for k, _, _ in TABLE_PARAMS:
        if k in reasons:
            by_reason.setdefault(reasons[k].replace("; ", ", "), []).append(k)
    notes += [f"{', '.join(keys)}: {why}" for why, keys in by_reason.items()]
    if b.get("fc_hz") is not None:
        if b["f_hi_hz"] > f_max:
            flags.append("above f_max")
            notes.append(f"the band's upper edge {b['f_hi_hz']:.0f} Hz lies above f_max = "
                         f"{f_max:.0f} Hz (the record is low-passed there)")
        if model is not None:
            T = row.get("eyring")
            if T is None or not np.isfinite(T):
                T = b["T30"] or b["T20"]
            if T:
                fs_ = float(room.schroeder_frequency(T, model["V"]))
                row["schroeder_hz"] = fs_
                if b["fc_hz"] < fs_:
                    flags.append("below Schroeder frequency")
    return flags, notes


# ----------------------------------------------------------------------------- figures


def _figure(width=6.0, height=3.6):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(width, height))
    return fig, ax


def png_data_uri(fig, dpi=100):
    import matplotlib.pyplot as plt
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png", dpi=dpi)
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def receiver_figures(x, rate, f_max, model, rows, onset, highpass_note):
    """[(data URI, caption)] of one receiver's record ``x`` as written: waveform, spectrum,
    spectrogram, octave EDCs. ``highpass_note`` says what filter the solver applied."""
    figs = []
    fig, ax = _figure()
    plots.waveform(ax, x, rate)
    ax.axvline(1000.0 * onset / rate, color="k", ls=":", lw=0.8, label="onset (t = 0 below)")
    ax.set(ylabel="pressure (Pa)", title="waveform")
    ax.legend(fontsize=7, loc="upper right")
    figs.append((png_data_uri(fig), f"Pressure at the receiver as written ({highpass_note}); "
                 "dotted: the ISO 3382-1 onset (first sample within 20 dB of the peak), t = 0 "
                 "of the decay curves and the table."))

    fig, ax = _figure()
    box = tuple(model["dims"]) if model is not None and model["dims"] is not None else None
    c = model["c"] if model is not None else DEFAULT_SOUND_SPEED
    f_top = min(f_max, 0.5 * rate)
    marked = plots.spectrum(ax, x, rate, box, c, f_top, max_modes=MAX_MODES_DRAWN)
    ax.set_ylabel("level (dB re max)")
    cap = f"Magnitude spectrum of the record from 10 Hz up to f_max = {f_max:.0f} Hz."
    if marked:
        total = plots.mode_count(box, c, f_top)
        which = (f"the {total}" if total == len(marked) else
                 f"the lowest {len(marked)} (up to {marked[-1][0]:.0f} Hz) of the {total}")
        cap += (f" Dashed red: {which} rigid-box modes f = (c/2)√((n_x/L_x)² + "
                f"(n_y/L_y)² + (n_z/L_z)²) up to f_max (c = {c:g} m/s; lowest "
                f"{marked[0][0]:.0f} Hz {marked[0][1]}).")
    figs.append((png_data_uri(fig), cap))

    fig, ax = _figure()
    plots.spectrogram(ax, x, rate, min(1.5 * f_max, 0.5 * rate))
    fig.colorbar(ax.collections[-1], ax=ax, label="level (dB re max)")
    ax.axhline(f_max, color="w", ls=":", lw=0.8)
    figs.append((png_data_uri(fig), "Spectrogram of the record (Hann frames, 75 % "
                 f"overlap); dotted white line: f_max = {f_max:.0f} Hz."))

    fig, ax = _figure()
    bands = [int(r["band"]) for r in rows if r["band"] != "broadband"]
    curves = decay_curves(x, rate, bands, onset)
    low = 0.0
    for k, nom in enumerate(bands):
        t, L = curves[nom]
        ax.plot(1000.0 * t, L, lw=1.1, color=BAND_COLOURS[k % len(BAND_COLOURS)],
                label=f"{nom} Hz")
        low = min(low, L.min())
    t, L = curves[None]
    ax.plot(1000.0 * t, L, color="0.3", ls="--", lw=0.9, label="broadband")
    low = min(low, L.min())
    ax.set(xlabel="time after onset (ms)", ylabel="energy decay (dB)",
           title="Schroeder energy decay curves", ylim=(max(low, -80.0) - 2.0, 2.0))
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    figs.append((png_data_uri(fig), "Schroeder backward integrals per octave (ISO 3382-1; "
                 "Lundeby truncation with the tail's energy compensated), from the broadband "
                 "onset. T20 and T30 are fitted to −5…−25 dB and −5…−35 dB of these "
                 "curves. A curve that levels off and drops at the end met the record's floor "
                 "(or its end) before any stationary noise: only the part above is a decay."))
    return figs


# ----------------------------------------------------------------------------- HTML

CSS = """
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 0; background: #f4f5f7;
       color: #1d2330; }
header { background: #24344d; color: #fff; padding: 18px 32px; }
header h1 { margin: 0 0 4px 0; font-size: 24px; }
header p { margin: 0; color: #c9d3e3; font-size: 13px; }
main { max-width: 1180px; margin: 0 auto; padding: 8px 24px 32px 24px; }
section { background: #fff; border-radius: 6px; padding: 12px 20px 16px 20px; margin: 16px 0;
          box-shadow: 0 1px 3px rgba(0,0,0,0.12); }
h2 { font-size: 19px; margin: 6px 0 10px 0; color: #24344d; }
h3 { font-size: 15px; margin: 14px 0 6px 0; color: #24344d; }
table { border-collapse: collapse; font-size: 13px; margin: 4px 0 8px 0; }
th, td { border-bottom: 1px solid #dde1e8; padding: 4px 10px; text-align: right; }
th { background: #eef1f6; font-weight: 600; }
td.l, th.l { text-align: left; }
table.facts td:first-child { text-align: left; color: #4a5568; }
table.facts td:nth-child(2) { text-align: left; }
.cols { display: flex; gap: 24px; flex-wrap: wrap; align-items: flex-start; }
.invalid { color: #9aa3b1; }
.flag { display: inline-block; background: #fde8cf; color: #8a4b08; border-radius: 3px;
        padding: 0 5px; margin: 1px 2px; font-size: 11px; white-space: nowrap; }
.grid { display: grid; grid-template-columns: 1fr 1fr; gap: 14px; }
figure { margin: 0; }
figure img { width: 100%; height: auto; border: 1px solid #e2e6ec; }
figcaption { font-size: 12px; color: #4a5568; margin-top: 3px; }
p.note, ul.notes { font-size: 12px; color: #4a5568; }
p.warning { background: #fff4e5; border-left: 4px solid #dd6b20; padding: 6px 10px; }
div.unstable { border: 2px solid #c53030; background: #fff5f5; color: #742a2a; padding: 8px 12px;
  margin: 8px 0; font-size: 14px; }
ul.notes { margin: 4px 0; padding-left: 20px; }
pre { font-size: 11px; background: #f6f8fa; padding: 8px; overflow-x: auto; }
"""


def esc(v):
    return html.escape(str(v))


def fmt(v, digits=3, scale=1.0):
    if v is None or (isinstance(v, float) and not np.isfinite(v)):
        return "∞" if isinstance(v, float) and np.isinf(v) else "—"
    return f"{v * scale:.{digits}f}"


def kv_table(rows, cls="facts"):
    body = "".join(f"<tr><td>{esc(k)}</td><td>{v}</td></tr>" for k, v in rows)
    return f'<table class="{cls}">{body}</table>'


def facts_rows(summary, out_dir, model):
    d = summary.get("derived", {})
    scene = parse_scene(summary.get("scene", ""), summary.get("scene_overrides"))
    fluid, time = scene.get("fluid", {}), scene.get("time", {})
    ranks = summary.get("ranks")
    rate = float(time.get("sample_rate", 0) or 0)
    pss = summary.get("particle_steps_per_second")
    rows = [("scene", esc(summary.get("scene_path", "?"))),
            ("overrides", esc(", ".join(f"{k} = {v}" for k, v in
                                        summary.get("scene_overrides", {}).items()) or "none"))]
    if model is not None and model["dims"] is not None:
        L = model["dims"]
        rows.append(("room (box)", f"{L[0]:g} × {L[1]:g} × {L[2]:g} m; V = {model['V']:.4g} "
                                   f"m³, S = {model['S']:.4g} m²"))
    elif model is not None:
        rows.append(("room (meshes)", f"air volume V = {model['V']:.4g} m³, surface the air "
                                      f"sees S = {model['S']:.4g} m² (as the run measured them)"))
    else:
        rows.append(("room", "no [room] box in the scene; the run reports no volume"))
    rows += [
        ("walls", esc(walls_text(d.get("room_walls"), model))),
        ("particles", f"{summary.get('particles', 0):,}".replace(",", " ")),
        ("spacing dx", f"{float(fluid['spacing']) * 1000:g} mm" if "spacing" in fluid else "—"),
        ("smoothing length h", f"{d['h_m'] * 1000:g} mm" if "h_m" in d else "—"),
        ("sound speed c", f"{sound_speed(summary, scene):g} m/s"),
        ("f_max (highest usable frequency)",
         f"{d.get('f_max_Hz', float('nan')):.0f} Hz (bulk {d.get('f_max_bulk_Hz', 0):.0f} Hz, "
         f"{_walls_limit(d.get('f_max_walls_Hz', 0))}); receivers low-passed there: "
         f"{'yes' if d.get('lowpass') else 'no'}"),
        ("sample rate", f"{rate:g} Hz" if rate else "—"),
        ("samples", f"{d.get('samples', '—')} ({d['samples'] / rate * 1000:.1f} ms)"
         if rate and "samples" in d else str(d.get("samples", "—"))),
        ("substeps per sample", f"{d.get('substeps', '—')} (dt = "
                                f"{d.get('dt_s', float('nan')) * 1e6:.3g} µs)"),
        ("steps", f"{summary.get('steps', '—')}"),
        ("wall time", f"{summary.get('wall_seconds', float('nan')):.1f} s stage 2, "
                      f"{summary.get('total_wall_seconds', float('nan')):.1f} s total"),
        ("particle-steps/s", f"{pss:.3g} ({pss / ranks:.3g} per rank)" if pss and ranks
         else "—"),
        ("ranks", f"{ranks} ({', '.join(map(str, summary.get('particles_per_rank', [])))} "
                  f"particles)"),
        ("versions", esc(", ".join(f"{k} {v}" for k, v in summary.get("versions", {}).items()))),
    ]
    return rows


def walls_text(room_walls, model):
    """How the room is walled: summary.json's derived.room_walls for a [room] box; a room
    given by meshes is walled by their ghost particles ("none" there means no [room] box)."""
    if model is not None and model["source"] == "meshes":
        return "ghost walls of the meshes"
    return room_walls or "not reported by this run"


def materials_html(model):
    if model is None:
        return ("<p class='note'>The scene has no [room] box and the run's summary.json does "
                "not report the air's volume and surfaces (diffuse_field): no rigid-box modes "
                "and no Sabine or Eyring estimates.</p>")
    head = "".join(f"<th>{n} Hz</th>" for n in octave.NOMINAL)
    body = []
    for name, (faces, a, source) in model["materials"].items():
        where = ", ".join(faces)
        if source == "rigid":
            body.append(f"<tr><td class='l'>{esc(name)}</td><td class='l'>{esc(where)}</td>"
                        f"<td class='l'>rigid: α = 0</td>"
                        f"{''.join('<td>0</td>' for _ in octave.NOMINAL)}</tr>")
            continue
        if a is None:
            body.append(f"<tr><td class='l'>{esc(name)}</td><td class='l'>{esc(where)}</td>"
                        f"<td class='l' colspan='{len(octave.NOMINAL) + 1}'>{esc(source)}"
                        f"</td></tr>")
            continue
        for label, vals in ((f"α normal ({source})", a), ("α random (Paris)",
                                                           random_incidence(a))):
            cells = "".join(f"<td>{v:.3f}</td>" for v in vals)
            body.append(f"<tr><td class='l'>{esc(name)}</td><td class='l'>{esc(where)}</td>"
                        f"<td class='l'>{label}</td>{cells}</tr>")
    est = []
    if model["alpha_st"] is not None:
        for label, vals, d in (("mean α random", model["alpha_st"], 3),
                               ("Sabine T60 (s)", model["sabine"], 3),
                               ("Eyring T60 (s)", model["eyring"], 3)):
            cells = "".join(f"<td>{fmt(v, d)}</td>" for v in vals)
            est.append(f"<tr><td class='l' colspan='3'>{label}</td>{cells}</tr>")
    return (f"<table><tr><th class='l'>material</th><th class='l'>faces</th><th class='l'>"
            f"absorption</th>{head}</tr>{''.join(body)}{''.join(est)}</table>"
            f"<p class='note'>Assumed for Sabine T = 24 ln10 V/(c S ᾱ) and Eyring T = 24 ln10 "
            f"V/(−c S ln(1−ᾱ)): {ROOM_TEXT[model['source']]}; ᾱ the area-weighted mean of the "
            "random-incidence absorption, converted from each surface's normal-incidence α (the "
            "wall model's value at the octave centre when summary.json reports it) by Paris' "
            "formula for a real impedance ζ ≥ 1; c from [fluid] sound_speed. The emitter disc "
            "and air absorption are not counted; a rigid room has no finite estimate (∞).</p>")


ROOM_TEXT = {
    "box": "the box's volume V and surface S from [room] min/max, over its six faces (less the "
           "[boundary] plates lying on them, counted with their own material); obstacles are "
           "not counted",
    "meshes": "the air's volume V (the room mesh's, less its objects) and the surfaces the air "
              "sees S (a plate in the air counted on both sides), as the run measured them "
              "(summary.json diffuse_field; `sphreverb check` lists the same)"}


def iso_table(name, rows):
    head = "".join(f"<th>{label}</th>" for _, label, _ in TABLE_PARAMS)
    body = []
    for r in rows:
        b = r["params"]
        label = f"{r['band']} Hz" if r["fc"] is not None else "broadband"
        cells = []
        for key, _, digits in TABLE_PARAMS:
            v, ok = b.get(key), b["valid"].get(key, False)
            text = fmt(v, digits, 1000.0 if key == "Ts" else 1.0)
            if not ok and v is not None:
                text = f"({text})"
            attrs = (f' data-receiver="{esc(name)}" data-band="{esc(r["band"])}" '
                     f'data-param="{key}" data-valid="{int(bool(ok))}"'
                     + (f' data-value="{v!r}"' if v is not None else ""))
            tip = f' title="{esc(b["reason"][key])}"' if key in b["reason"] else ""
            cls = "" if ok else ' class="invalid"'
            cells.append(f"<td{cls}{attrs}{tip}>{text}</td>")
        flags = "".join(f"<span class='flag'>{esc(f)}</span>" for f in r["flags"])
        fs_ = fmt(r["schroeder_hz"], 0)
        body.append(f"<tr><td class='l'>{label}</td>{''.join(cells)}"
                    f"<td>{fmt(b.get('dynamic_range_db'), 1)}</td>"
                    f"<td>{fmt(r['sabine'])}</td><td>{fmt(r['eyring'])}</td><td>{fs_}</td>"
                    f"<td class='l'>{flags}</td></tr>")
    return (f"<table class='iso' data-receiver='{esc(name)}'><tr><th class='l'>octave</th>"
            f"{head}<th>PNR (dB)</th><th>Sabine (s)</th><th>Eyring (s)</th><th>f_S (Hz)</th>"
            f"<th class='l'>flags</th></tr>{''.join(body)}</table>")


def record_highpass(summary):
    """The [output] highpass (Hz, 0 = off) the solver applied to the records: summary.json's
    ``derived.highpass_Hz``, else the scene's key (with the overrides), else None (unknown)."""
    hp = summary.get("derived", {}).get("highpass_Hz")
    if hp is None:
        scene = parse_scene(summary.get("scene", ""), summary.get("scene_overrides"))
        hp = scene.get("output", {}).get("highpass")
    try:
        return None if hp is None else float(hp)
    except ValueError:
        return None


def highpass_text(hp):
    """How the records were filtered below the audio band, in words."""
    if hp is None:
        return "output high-pass not reported by this run"
    if hp <= 0.0:
        return "no output high-pass: [output] highpass = 0"
    return (f"high-passed by the solver at {hp:g} Hz, causal Butterworth of order "
            f"{SOLVER_HIGHPASS_ORDER}")


def spatial_files(r):
    """Names of a receiver's Ambisonic and binaural files from its summary.json entry."""
    a = r.get("ambisonic") or {}
    return [a[k] for k in ("raw_wav", "wav", "binaural_wav") if a.get(k)]


def receiver_html(name, path, x, rate, f_max, model, hp=None, extra_files=()):
    rows, meta = analyse_receiver(x, rate, f_max, model)
    onset = int(round(meta["onset_s"] * rate))
    figs = receiver_figures(x, rate, f_max, model, rows, onset, highpass_text(hp))
    notes = [f"<b>{esc(r['band'])}{' Hz' if r['fc'] else ''}</b>: "
             + "; ".join(esc(n) for n in r["notes"]) for r in rows if r["notes"]]
    fig_html = "".join(f"<figure><img src='{uri}' alt='{esc(name)}: figure {i + 1}'>"
                       f"<figcaption>{esc(cap)}</figcaption></figure>"
                       for i, (uri, cap) in enumerate(figs))
    peak = float(np.max(np.abs(x)))
    octaves = [r["band"] for r in rows if r["fc"] is not None]
    return (f"<section class='receiver' id='receiver-{esc(name)}' "
            f"data-onset-s='{meta['onset_s']!r}'><h2>Receiver {esc(name)}</h2>"
            f"<p class='note'>{esc(os.path.basename(path))}: {len(x)} samples at {rate} Hz "
            f"({1000 * len(x) / rate:.1f} ms), peak {peak:.3g} Pa, ISO 3382-1 onset at "
            f"{1000 * meta['onset_s']:.2f} ms; {esc(highpass_text(hp))}."
            + (f" Also written: {esc(', '.join(extra_files))} (not analysed here)."
               if extra_files else "") + "</p>"
            f"<div class='grid'>{fig_html}</div>"
            f"<h3>ISO 3382-1 parameters (octaves below f_max: {', '.join(octaves) or 'none'} "
            f"Hz)</h3>{iso_table(name, rows)}"
            "<p class='note'>Values in parentheses fail their ISO 3382-1 validity check (grey; "
            "reasons below). PNR: peak-to-noise ratio of the band's smoothed energy. f_S = 2000 "
            "√(T/V): the Schroeder frequency from the Eyring estimate (the measured T when the "
            "estimate is infinite); below it the room is modal and Sabine/Eyring do not "
            "apply. Ts in ms.</p>"
            + (f"<ul class='notes'>{''.join(f'<li>{n}</li>' for n in notes)}</ul>"
               if notes else "")
            + "</section>")


def analysis_note(hp):
    """The paragraph that says what the page analyses."""
    text = ("Every figure and table on this page analyses the receivers' records NAME.raw.wav "
            "(pascals) exactly as the solver wrote them, as <code>python3 -m sphreverb_post "
            "metrics NAME.raw.wav</code> does (the same numbers); the page applies no filter of "
            "its own. ")
    if hp is not None and hp > 0.0:
        text += (f"The solver high-passed them at {hp:g} Hz ([output] highpass; causal "
                 f"Butterworth of order {SOLVER_HIGHPASS_ORDER}, nothing spreads before the "
                 "direct sound), which removes the closed room's sub-audio pressure swing (the "
                 "emitter's net volume displacement).")
    elif hp is not None:
        text += ("<b>This run wrote them without a high-pass ([output] highpass = 0)</b>: the "
                 "closed room's sub-audio pressure swing (the emitter's net volume "
                 "displacement) is in the records and may dominate the waveform, move the onset "
                 "and lengthen the low octaves; rerun with [output] highpass = 20 to remove it.")
    else:
        text += "This run does not report its output high-pass ([output] highpass)."
    return f"<p class='note'>{text}</p>"


SCRIPT = ("<script>window.addEventListener('load',function(){var i=document.images,n=0;"
          "for(var k=0;k<i.length;k++){if(i[k].complete&&i[k].naturalWidth>0)n++;}"
          "document.body.setAttribute('data-figures',n+'/'+i.length);});</script>")


def join_check_html(h):
    """summary.json's hybrid.join_check (V19's criteria on the run's own join) as a section: the
    levels and the crossover octave's decay, and every failed criterion as a warning."""
    j = h.get("join_check")
    if not j:
        return ""
    measure = j.get("decay_measure", "none")
    decay = (f"{j['octave_Hz']:.0f} Hz octave {measure} full {1e3 * j['full_decay_s']:.1f} ms vs "
             f"SPH {1e3 * j['sph_decay_s']:.1f} ms"
             if measure != "none" else
             f"{j.get('octave_Hz', 0):.0f} Hz octave decay not measured (record too short)")
    verdict = "passes" if j.get("passes") else "FAILS"
    warnings = "".join(f"<p class='warning'>Warning: {esc(w)}</p>" for w in j.get("warnings", []))
    return ("<section><h2>Full band: the join</h2>"
            f"<p>Crossover {h['crossover_Hz']:.0f} Hz. {esc(j.get('criteria', 'V19'))}: overlap "
            f"octave early {j['early_dB']:+.2f} dB, late {j['late_dB']:+.2f} dB; {esc(decay)}: "
            f"<b>{verdict}</b>.</p>{warnings}</section>")


def hybrid_sections(summary, out_dir, model, hp=None):
    """With [hybrid]: one section per receiver's full-band response (NAME.full.raw.wav), analysed
    like the SPH one up to 0.45 of the sample rate, headed by the crossover and the overlap-octave
    mismatch from summary.json."""
    h = summary.get("hybrid")
    if not h:
        return []
    out = [join_check_html(h)]
    for r in h.get("receivers", []):
        wav = os.path.join(out_dir, r["raw_wav"])
        x, rate = read_mono(wav, 0)
        name = f"{r['name']}.full (SPH below {h['crossover_Hz']:.0f} Hz, geometric above; " \
               f"overlap mismatch {r['mismatch_dB']:+.1f} dB before calibration)"
        out.append(receiver_html(name, wav, x, rate, 0.45 * rate, model, hp))
    return out


def instability_warnings(out_dir):
    """The energy watch's warnings in OUT/sphreverb.log (the lines saying "the run is unstable"),
    without their time stamp; [] without a log."""
    try:
        with open(os.path.join(out_dir, "sphreverb.log"), encoding="utf-8", errors="replace") as f:
            lines = [ln.rstrip("\n") for ln in f if "the run is unstable" in ln]
    except OSError:
        return []
    return [re.sub(r"^.*?\bwarning\s+", "", ln, count=1) for ln in lines]


def instability_html(out_dir):
    """A banner for each instability warning of the run ("" if none)."""
    return "".join(
        "<div class='unstable'><strong>This run is unstable:</strong> its records hold energy "
        f"that grew after the sources stopped; no decay figure below is the room's.<br>{esc(w)}"
        "</div>" for w in instability_warnings(out_dir))


def write_report(out_dir, output=None):
    """Write the page of run ``out_dir`` to ``output`` (default OUT/report.html); returns its
    path. Raises InputError for a missing or unreadable summary.json or receiver file."""
    path = os.path.join(out_dir, "summary.json")
    try:
        with open(path) as f:
            summary = json.load(f)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file (is {out_dir} a run's output directory?)")
    except (OSError, ValueError) as e:
        raise InputError(f"{path}: not readable JSON ({e})")
    d = summary.get("derived", {})
    model = room_model(summary)
    receivers = summary.get("receivers", [])
    hp = record_highpass(summary)
    sections = []
    for r in receivers:
        wav = os.path.join(out_dir, r.get("raw_wav", r["name"] + ".raw.wav"))
        x, rate = read_mono(wav, 0)
        f_max = float(d.get("f_max_Hz", 0.5 * rate))
        sections.append(receiver_html(r["name"], wav, x, rate, f_max, model, hp,
                                      spatial_files(r)))
    sections += hybrid_sections(summary, out_dir, model, hp)
    groups = summary.get("groups", [])
    names = ", ".join(g.get("name", "?") for g in groups)
    group_note = (f"<p class='note'>Receiver groups ({esc(names)}) are not analysed on this "
                  "page.</p>" if groups else "")
    title = f"sphreverb run: {os.path.basename(os.path.abspath(out_dir))}"
    page = (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body>"
        f"<header><h1>{esc(title)}</h1><p>{esc(os.path.abspath(out_dir))} · scene "
        f"{esc(summary.get('scene_path', '?'))} · {len(receivers)} receiver(s)</p>"
        f"{instability_html(out_dir)}</header>"
        "<main><section><h2>Scene and run</h2><div class='cols'><div>"
        f"{kv_table(facts_rows(summary, out_dir, model))}</div></div>"
        f"<h3>Wall materials and diffuse-field estimates</h3>{materials_html(model)}"
        f"{analysis_note(hp)}"
        f"{group_note}"
        "<details><summary>scene file as run (overrides not applied)</summary>"
        f"<pre>{esc(summary.get('scene', ''))}</pre></details></section>"
        f"{''.join(sections)}</main>{SCRIPT}</body></html>\n")
    output = output or os.path.join(out_dir, "report.html")
    with open(output, "w", encoding="utf-8") as f:
        f.write(page)
    return output


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", help="the run's output directory (holds summary.json)")
    ap.add_argument("--output", help="page to write (default OUT/report.html)")
    args = ap.parse_args(argv)
    name = prog or "report"
    try:
        if not os.path.isdir(args.out):
            raise InputError(f"{args.out}: not a directory")
        path = write_report(args.out, args.output)
    except (InputError, ValueError) as e:
        print(f"{name}: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"{name}: cannot write the page: {e}", file=sys.stderr)
        return 2
    print(f"{name}: wrote {path}")
    return 0
