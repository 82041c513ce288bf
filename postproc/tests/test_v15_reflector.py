"""validate v15 --reflector --subtract: the difference of a run with the tone and the same run
with the tone silenced removes what both share exactly (the plate's own sound), and --direct
measures the incident tone as a control. Synthetic records from the duct_v15_reflector.ini
kinematics: the reflected tone f tau(t) from the same retarded-time solution the check uses, so
what is tested is the subtraction and the gating, not the prediction."""
import json
import os
import tempfile
import unittest

import _common
from _common import run_here, write_float
import numpy as np

from sphreverb_post.validate.v15_doppler import (LinearPath, emission_time,
                                                 reflected_emission, scene_sections)

RATE = 44100
SCENE = """[time]
sample_rate = 44100
duration = 0.047
[emitter.horn]
type = monopole
position = 0.15 0.045 0.045
[boundary.piston]
shape = rectangle
normal = 1 0 0
path = 0 4.395 0.045 0.045; 0.06 4.1892 0.045 0.045
[receiver.mic]
position = 2 0.045 0.045
"""
ONSET, BURST, TONE = 0.015, 0.025, 800.0


def write_run(path, x, scene=SCENE):
    os.makedirs(path)
    with open(os.path.join(path, "summary.json"), "w") as f:
        json.dump({"scene": scene, "scene_overrides": {}}, f)
    write_float(os.path.join(path, "mic.raw.wav"), x, RATE)


def tone_field(outdir, n):
    """The direct burst and its reflection off the moving plate at the receiver (1 Pa each)."""
    sec = scene_sections(outdir)
    src = LinearPath.of(sec["emitter.horn"], "horn")
    rec = LinearPath.of(sec["receiver.mic"], "mic")
    plate = LinearPath.of(sec["boundary.piston"], "piston", key="center")
    t = np.arange(n) / RATE
    coarse = t[::8]
    tau_d = np.interp(t, coarse, [emission_time(s, rec, src, 343.0) for s in coarse])
    tau_r = np.interp(t, coarse, [reflected_emission(s, rec, src, plate, 343.0) for s in coarse])
    on = lambda tau: (tau >= ONSET) & (tau < BURST)
    return (np.where(on(tau_d), np.sin(2 * np.pi * TONE * tau_d), 0.0)
            + np.where(on(tau_r), np.sin(2 * np.pi * TONE * tau_r), 0.0))


class TestReflectorSubtraction(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        d = self.tmp.name
        n = int(0.047 * RATE)
        t = np.arange(n) / RATE
        # The plate's own sound: 50 times the tone, in the tone's band, the same in both runs.
        noise = 50.0 * (np.sin(2 * np.pi * 732.0 * t) + np.sin(2 * np.pi * 1279.0 * t + 1.0))
        self.on, self.off = os.path.join(d, "on"), os.path.join(d, "off")
        write_run(self.off, noise)
        write_run(self.on, np.zeros(n))  # summary first: tone_field reads the scene
        write_float(os.path.join(self.on, "mic.raw.wav"), noise + tone_field(self.on, n), RATE)
        self.args = ["--source", "horn", "--receivers", "mic", "--tone", TONE, "--ends", 0,
                     "--reflector", "piston", "--start", ONSET + 0.002, "--burst", BURST,
                     "--onset", ONSET]

    def tearDown(self):
        self.tmp.cleanup()

    def test_subtraction_recovers_the_shifted_tone(self):
        js = os.path.join(self.tmp.name, "v15.json")
        code, out, err = run_here("validate v15", self.on, *self.args, "--subtract", self.off,
                                  "--direct", "--json", js)
        self.assertEqual(code, 0, out + err)
        with open(js) as f:
            rows = json.load(f)["windows"]
        reflected = [r for r in rows if r["receiver"] == "mic"]
        direct = [r for r in rows if r["receiver"] == "mic direct"]
        self.assertGreaterEqual(len(reflected), 2)
        self.assertGreaterEqual(len(direct), 2)
        for r in reflected:  # f (c + v) / (c - v), v = 3.43 m/s
            self.assertAlmostEqual(r["predicted_Hz"], 816.16, delta=0.05)
            self.assertLess(abs(r["error"]), 1e-3)
        for r in direct:
            self.assertEqual(r["predicted_Hz"], TONE)
            self.assertLess(abs(r["error"]), 1e-3)

    def test_without_subtraction_the_plate_noise_fails_it(self):
        code, out, _ = run_here("validate v15", self.on, *self.args)
        self.assertEqual(code, 1, out)

    def test_silent_run_of_another_plate_motion_is_bad_input(self):
        other = os.path.join(self.tmp.name, "other")
        write_run(other, np.zeros(int(0.047 * RATE)),
                  SCENE.replace("0.06 4.1892", "0.06 4.2"))
        code, _, err = run_here("validate v15", self.on, *self.args, "--subtract", other)
        self.assertEqual(code, 2, err)
        self.assertIn("path differs", err)

    def test_subtract_needs_reflector(self):
        code, _, err = run_here("validate v15", self.on, "--source", "horn", "--receivers", "mic",
                                "--tone", TONE, "--subtract", self.off)
        self.assertEqual(code, 2, err)


if __name__ == "__main__":
    unittest.main()
