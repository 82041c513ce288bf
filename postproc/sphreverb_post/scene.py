"""The scene a run used, as sphreverb echoes it in OUTDIR/summary.json (`scene`, the INI text,
and `scene_overrides`, the command line's --SECTION.KEY values)."""
import json
import os

import numpy as np


def parse_scene(text, overrides=None):
    """The scene text as {section: {key: value string}}, ``#`` comments removed, then the
    ``SECTION.KEY`` overrides applied (the section is all before the last dot)."""
    scene, section = {}, ""
    for raw in (text or "").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
            scene.setdefault(section, {})
        elif "=" in line:
            key, value = (s.strip() for s in line.split("=", 1))
            scene.setdefault(section, {})[key] = value
    for name, value in (overrides or {}).items():
        section, _, key = name.rpartition(".")
        scene.setdefault(section, {})[key] = str(value)
    return scene


def run_summary(outdir):
    """OUTDIR/summary.json as a dict."""
    with open(os.path.join(outdir, "summary.json")) as f:
        return json.load(f)


def run_scene(outdir):
    """The scene of the run in OUTDIR: {section: {key: value string}}, overrides applied."""
    summary = run_summary(outdir)
    return parse_scene(summary.get("scene", ""), summary.get("scene_overrides"))


def vec(value):
    """A scene value of whitespace-separated numbers as an array."""
    return np.array([float(w) for w in value.split()])


def receiver_positions(scene):
    """Receiver name -> position (m) of every [receiver.NAME] with a position."""
    return {sec.split(".", 1)[1]: vec(keys["position"]) for sec, keys in scene.items()
            if sec.startswith("receiver.") and "position" in keys}
