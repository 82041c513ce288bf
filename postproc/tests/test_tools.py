"""Command lines and helpers of postprocessing against exact expectations: convolution, mode
markers, diffuse-field formulas, resampling, metrics JSON, and exit code 2 on bad input."""
import json
import os
import tempfile
import unittest

import _common
from _common import run_here, write_float
import numpy as np
from scipy.io import wavfile

from sphreverb_post import audio, room, synth
from sphreverb_post.convolution import convolve

RATE = 44100


class TestConvolution(unittest.TestCase):
    def test_impulse_returns_rir(self):
        rir = np.random.default_rng(0).standard_normal(500)
        dry = np.zeros(64)
        dry[0] = 1.0
        y = convolve(dry, rir)
        np.testing.assert_allclose(y[:500, 0], rir, atol=1e-12)
        np.testing.assert_allclose(y[500:, 0], 0.0, atol=1e-12)

    def test_matches_direct_convolution(self):
        rng = np.random.default_rng(1)
        a, h = rng.standard_normal(3001), rng.standard_normal(777)
        np.testing.assert_allclose(convolve(a, h)[:, 0], np.convolve(a, h), atol=1e-10)

    def test_channel_rule(self):
        rng = np.random.default_rng(2)
        dry, rir = rng.standard_normal(100), rng.standard_normal((50, 2))
        y = convolve(dry, rir)
        self.assertEqual(y.shape, (149, 2))
        np.testing.assert_allclose(y[:, 1], np.convolve(dry, rir[:, 1]), atol=1e-10)
        d2 = rng.standard_normal((100, 2))
        y = convolve(d2, rir)
        np.testing.assert_allclose(y[:, 0], np.convolve(d2[:, 0], rir[:, 0]), atol=1e-10)
        with self.assertRaises(ValueError):
            convolve(d2, rng.standard_normal((50, 3)))


class TestRoom(unittest.TestCase):
    def test_sabine_eyring(self):
        V, S = room.box_volume_area(5.0, 4.0, 3.0)
        self.assertEqual((V, S), (60.0, 94.0))
        self.assertAlmostEqual(room.sabine(V, S, 0.2), 0.161 * V / (S * 0.2), delta=1e-3)
        self.assertAlmostEqual(room.eyring(V, S, 1e-6) / room.sabine(V, S, 1e-6), 1.0, places=5)
        self.assertLess(room.eyring(V, S, 0.3), room.sabine(V, S, 0.3))
        with self.assertRaises(ValueError):
            room.eyring(V, S, 1.0)

    def test_resample_sine(self):
        t1 = np.arange(22050) / 22050.0
        y = audio.resample(np.sin(2 * np.pi * 440 * t1), 22050, 44100)
        t2 = np.arange(y.size) / 44100.0
        err = np.abs(y - np.sin(2 * np.pi * 440 * t2))[2000:-2000]
        self.assertEqual(y.size, 44100)
        self.assertLess(err.max(), 1e-3)


class TestRirFigure(unittest.TestCase):
    def test_modes_marked_at_analytic_frequencies(self):
        from sphreverb_post.commands import rir
        room_m, c = (0.6, 0.495, 0.405), 343.0
        x = synth.exp_decay(0.3, RATE)
        fig, marked = rir.make_figure(x, RATE, room_m, c, fmax=1000.0, max_modes=100)
        f = sorted(m[0] for m in marked)
        want = sorted(0.5 * c * np.sqrt((i / room_m[0]) ** 2 + (j / room_m[1]) ** 2
                                        + (k / room_m[2]) ** 2)
                      for i in range(5) for j in range(5) for k in range(5)
                      if 0 < 0.5 * c * np.sqrt((i / room_m[0]) ** 2 + (j / room_m[1]) ** 2
                                               + (k / room_m[2]) ** 2) <= 1000.0)
        np.testing.assert_allclose(f, want, rtol=1e-12)
        self.assertAlmostEqual(f[0], c / (2 * 0.6), places=9)
        spec_ax = fig.axes[1]
        vlines = sorted(l.get_xdata()[0] for l in spec_ax.lines if l.get_linestyle() == "--"
                        and len(l.get_xdata()) == 2 and l.get_xdata()[0] == l.get_xdata()[1])
        np.testing.assert_allclose(vlines, want, rtol=1e-12)


class TestCommandLines(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        self.rir = os.path.join(self.d, "rir.wav")
        write_float(self.rir, 0.5 * synth.exp_decay(0.8, RATE, noise_db=-70.0), RATE)
        self.notwav = os.path.join(self.d, "notes.wav")
        with open(self.notwav, "w") as f:
            f.write("this is not a WAV file\n")

    def tearDown(self):
        self.tmp.cleanup()

    def test_metrics_json(self):
        out = os.path.join(self.d, "m.json")
        code, so, se = run_here("metrics", self.rir, "--json", out)
        self.assertEqual(code, 0, se)
        self.assertIn("T30 (s)", so)
        with open(out) as f:
            m = json.load(f)
        self.assertEqual(set(m), {"125", "250", "500", "1000", "2000", "4000", "broadband",
                                  "meta"})
        for band in ("125", "4000", "broadband"):
            for k in ("EDT", "T20", "T30", "C50", "C80", "D50", "Ts"):
                self.assertIn(k, m[band])
                self.assertIsInstance(m[band]["valid"][k], bool)
        bb = m["broadband"]
        self.assertAlmostEqual(bb["T30"], 0.8, delta=0.008)
        self.assertAlmostEqual(bb["C80"], 10 * np.log10(np.expm1(13.8155 * 0.08 / 0.8)),
                               delta=0.1)
        self.assertAlmostEqual(m["meta"]["onset_s"], 0.01, delta=1.0 / RATE)

    def test_bad_input_exit_2(self):
        missing = os.path.join(self.d, "missing.wav")
        silent = os.path.join(self.d, "silent.wav")
        write_float(silent, np.zeros(1000), RATE)
        png = os.path.join(self.d, "x.png")
        cases = [("metrics", [missing], "no such file"),
                 ("metrics", [self.notwav], "not a readable WAV"),
                 ("metrics", [silent], "silent"),
                 ("metrics", [self.rir, "--channel", "3"], "channel"),
                 ("metrics", [], "usage"),
                 ("rir", [missing, "--out", png], "no such file"),
                 ("rir", [self.rir], "usage"),
                 ("rir", [self.rir, "--out", png, "--room", "1", "-2", "3"], "positive"),
                 ("compare", [self.rir, "--room", "1", "2", "3", "--alpha", "1.5",
                                      "--out", png], "(0, 1)"),
                 ("convolve", [missing, self.rir, os.path.join(self.d, "o.wav")],
                  "no such file"),
                 ("convolve", [self.rir, self.notwav, os.path.join(self.d, "o.wav")],
                  "not a readable WAV"),
                 ("convolve", [self.rir], "usage"),
                 ("validate v8", ["--rate", "10"], "outside")]
        for command, args, msg in cases:
            code, so, se = run_here(command, *args)
            self.assertEqual(code, 2, f"{command} {args}: {so} {se}")
            self.assertIn(msg, se, f"{command} {args}")
            self.assertNotIn("Traceback", se)

    def test_convolve_cli_impulse_and_rates(self):
        dry = os.path.join(self.d, "dry.wav")
        imp = np.zeros(100)
        imp[0] = 1.0
        write_float(dry, imp, RATE)
        out = os.path.join(self.d, "wet.wav")
        code, so, se = run_here("convolve", dry, self.rir, out, "--no-normalize", "--format",
                           "float")
        self.assertEqual(code, 0, se)
        rate, y = wavfile.read(out)
        _, h = wavfile.read(self.rir)
        self.assertEqual(rate, RATE)
        np.testing.assert_allclose(y[:h.size], h, atol=1e-6)
        # Normalised 16-bit: peak at -1 dBFS.
        code, so, se = run_here("convolve", dry, self.rir, out)
        self.assertEqual(code, 0, se)
        _, y16 = wavfile.read(out)
        self.assertEqual(y16.dtype, np.int16)
        self.assertAlmostEqual(np.abs(y16).max() / 32768.0, 10 ** (-1 / 20), delta=1e-4)
        # Another rate: resampled by default, refused with --no-resample.
        dry2 = os.path.join(self.d, "dry22.wav")
        write_float(dry2, np.sin(2 * np.pi * 200 * np.arange(2205) / 22050), 22050)
        code, so, se = run_here("convolve", dry2, self.rir, out)
        self.assertEqual(code, 0, se)
        self.assertIn("resampled", so)
        code, so, se = run_here("convolve", dry2, self.rir, out, "--no-resample")
        self.assertEqual(code, 2)
        self.assertIn("sample rates differ", se)

    def test_convolve_mono_dry_through_binaural(self):
        # --mono: a stereo dry recording is mixed to one channel, which feeds both ears of a
        # two-channel (binaural) impulse response; without it the channels pair up.
        rng = np.random.default_rng(5)
        dry = os.path.join(self.d, "dry_stereo.wav")
        ears = os.path.join(self.d, "ears.wav")
        d, h = rng.standard_normal((300, 2)), rng.standard_normal((80, 2))
        write_float(dry, d, RATE)
        write_float(ears, h, RATE)
        d, h = d.astype(np.float32).astype(float), h.astype(np.float32).astype(float)
        out = os.path.join(self.d, "wet.wav")
        code, so, se = run_here("convolve", dry, ears, out, "--mono", "--no-normalize", "--format",
                           "float")
        self.assertEqual(code, 0, se)
        _, y = wavfile.read(out)
        self.assertEqual(y.shape, (379, 2))
        for c in range(2):
            np.testing.assert_allclose(y[:, c], np.convolve(d.mean(axis=1), h[:, c]),
                                       atol=1e-5)
        code, so, se = run_here("convolve", dry, ears, out, "--no-normalize", "--format", "float")
        self.assertEqual(code, 0, se)
        _, y = wavfile.read(out)
        np.testing.assert_allclose(y[:, 1], np.convolve(d[:, 1], h[:, 1]), atol=1e-5)

    def test_figures_written(self):
        for command, extra in (("rir", ["--room", "0.6", "0.5", "0.4"]),
                              ("compare", ["--room", "6", "5", "4", "--alpha", "0.1"])):
            png = os.path.join(self.d, command + ".png")
            code, so, se = run_here(command, self.rir, "--out", png, *extra)
            self.assertEqual(code, 0, se)
            with open(png, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")


if __name__ == "__main__":
    unittest.main()
