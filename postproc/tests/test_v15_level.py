"""validate v15 --level: the level of a moving monopole's tone ahead of it over the level behind
it. Synthetic records from the duct_v15_source.ini kinematics: the tone sin(2 pi f tau(t)) from the
same retarded-time solution the check uses, its amplitude set by hand, so what is tested is the
amplitude measurement (windows, envelope, band-pass gain) and the ratio's judgement; the receiver
kernel's transform is checked against the Shepard sum the receivers compute on the lattice."""
import json
import os
import tempfile
import unittest

import _common
from _common import run_here, write_float
import numpy as np

from sphreverb_post.validate.v15_doppler import (LinearPath, emission_time, kernel_transform,
                                                 scene_sections, smoothing_gain)

RATE, TONE, C, DX, H = 44100, 800.0, 343.0, 0.015, 0.0195
SCENE = """[time]
sample_rate = 44100
duration = 0.016
[fluid]
spacing = 0.015
[emitter.car]
type = monopole
path = 0 2.5 0.045 0.045; 0.012 2.9116 0.045 0.045
[receiver.ahead]
position = 3.3 0.045 0.045
[receiver.behind]
position = 2.1 0.045 0.045
"""
ARGS = ["--source", "car", "--receivers", "ahead", "behind", "--tone", TONE, "--ends", 0, 6,
        "--level", "ahead", "behind"]


def write_run(path, gain):
    """Both receivers' tone, of amplitude gain(name, dtau/dt, heard frequency) (Pa)."""
    os.makedirs(path)
    with open(os.path.join(path, "summary.json"), "w") as f:
        json.dump({"scene": SCENE, "scene_overrides": {}, "derived": {"h_m": H}}, f)
    sec = scene_sections(path)
    src = LinearPath.of(sec["emitter.car"], "car")
    t = np.arange(int(0.016 * RATE)) / RATE
    for name in ("ahead", "behind"):
        rec = LinearPath.of(sec[f"receiver.{name}"], name)
        coarse = t[::4]
        tau = np.interp(t, coarse, [emission_time(s, rec, src, C) for s in coarse])
        rate = np.gradient(tau, t)  # dtau/dt
        x = gain(name, rate, TONE * rate) * np.sin(2 * np.pi * TONE * tau) * (tau > 0.0)
        write_float(os.path.join(path, name + ".raw.wav"), x, RATE)


class TestMovingMonopoleLevel(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def level(self, gain, *extra):
        out = os.path.join(self.tmp.name, "run")
        write_run(out, gain)
        js = os.path.join(self.tmp.name, "v15.json")
        code, text, err = run_here("validate v15", out, *ARGS, "--json", js, *extra)
        with open(js) as f:
            return code, text + err, json.load(f)["level"]

    def test_convective_amplification_with_the_smoothings_passes(self):
        sigma = 1.5 * DX  # the default width
        code, text, level = self.level(
            lambda name, r, f: 0.3 * r * np.array([smoothing_gain(v, C, sigma, "wendland_c2", H)
                                                   for v in f]))
        self.assertEqual(code, 0, text)
        self.assertIn("V15 level", text)
        # (1 + M)/(1 - M) at M = 0.1 less the Gaussian's and the kernel's loss at 889 vs 727 Hz
        self.assertAlmostEqual(level["convective_ratio_dB"], 20 * np.log10(1.1 / 0.9), places=3)
        self.assertAlmostEqual(level["predicted_ratio_dB"], 1.512, delta=0.002)
        self.assertLess(abs(level["error_dB"]), 0.01)
        # the window's level undoes the band-pass: the absolute amplitude, not only the ratio
        ahead = level["per_receiver"]["ahead"]
        self.assertAlmostEqual(ahead["measured"] / ahead["predicted"], 0.3, delta=0.003)

    def test_a_level_without_the_amplification_fails(self):
        code, text, level = self.level(lambda name, r, f: 0.3 + 0.0 * r)
        self.assertEqual(code, 1, text)
        self.assertIn("FAIL", text)
        self.assertAlmostEqual(level["error_dB"], -1.512, delta=0.01)

    def test_level_tolerance_is_the_judge(self):
        # 0.15 dB too loud ahead: passes at 0.2 dB, fails at 0.1 dB
        sigma = 1.5 * DX
        g = lambda name, r, f: (10 ** (0.15 / 20) if name == "ahead" else 1.0) * r * np.array(
            [smoothing_gain(v, C, sigma, "wendland_c2", H) for v in f])
        self.assertEqual(self.level(g)[0], 0)
        self.tmp.cleanup()
        self.tmp = tempfile.TemporaryDirectory()
        self.assertEqual(self.level(g, "--level-tol", 0.1)[0], 1)

    def test_level_needs_two_listed_receivers_and_no_reflector(self):
        out = os.path.join(self.tmp.name, "run")
        write_run(out, lambda name, r, f: r)
        code, _, err = run_here("validate v15", out, *ARGS[:-3], "--level", "ahead", "nobody")
        self.assertEqual(code, 2, err)


class TestReceiverKernelTransform(unittest.TestCase):
    def test_matches_the_shepard_sum_on_the_lattice(self):
        n = np.arange(-4, 5) + 0.5  # a receiver between lattice sites, as in the duct
        X, Y, Z = np.meshgrid(n * DX, n * DX, n * DX, indexing="ij")
        q = np.sqrt(X ** 2 + Y ** 2 + Z ** 2) / H
        w = np.maximum(0.0, 1.0 - 0.5 * q) ** 4 * (2.0 * q + 1.0)
        for f in (727.27, 888.89, 1500.0):
            k = 2 * np.pi * f / C
            shepard = (w * np.cos(k * X)).sum() / w.sum()
            self.assertAlmostEqual(kernel_transform("wendland_c2", H, k), shepard, delta=5e-4)  # 0.004 dB
        self.assertAlmostEqual(kernel_transform("cubic_spline", H, 0.0), 1.0, places=12)


if __name__ == "__main__":
    unittest.main()
