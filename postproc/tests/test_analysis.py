"""sphreverb_post's analysis and the V2/V4/V11 checks (validate v2, v4, v11) on synthetic data
with known answers."""
import json
import os
import tempfile
import unittest

import _common
import numpy as np
from scipy.io import wavfile

from sphreverb_post import (arrival_delay, box_mode_frequencies, isolated_modes,
                            match_modes, read_mono, spectral_peaks, speed_of_sound_tof,
                            sphere_mode_frequencies)
from sphreverb_post import plots
from sphreverb_post.analysis import box_mode_count, lowest_box_modes

RATE = 44100
ROOM = (0.3, 0.24, 0.2)
C = 343.0


def pulse(n, t0, f0=3000.0, width=2e-4):
    """Gaussian-modulated cosine centred at t0 seconds (band-limited well below Nyquist)."""
    t = np.arange(n) / RATE
    return np.exp(-((t - t0) / width) ** 2) * np.cos(2 * np.pi * f0 * (t - t0))


def ringing_box(duration=0.15, shift=1.0, fmax=2500.0, noise=1e-3, seed=1):
    """Sum of lightly damped sines at the analytic box modes (times ``shift``) plus noise."""
    rng = np.random.default_rng(seed)
    t = np.arange(int(duration * RATE)) / RATE
    x = np.zeros_like(t)
    for f, _ in box_mode_frequencies(*ROOM, C, fmax):
        amp, phase, tau = rng.uniform(0.5, 1.0), rng.uniform(0, 2 * np.pi), rng.uniform(0.1, 0.3)
        x += amp * np.exp(-t / tau) * np.sin(2 * np.pi * f * shift * t + phase)
    return x + noise * rng.standard_normal(t.size)


SPHERE = 0.26
# The zeros of j_l' of docs/validation.md (V11) with their (l, n).
SPHERE_ZEROS = [(2.0816, (1, 1)), (3.3421, (2, 1)), (4.4934, (0, 1)), (4.5141, (3, 1)),
                (5.6467, (4, 1)), (5.9404, (1, 2))]


def ringing_sphere(duration=0.12, shift=1.0, noise=1e-3, seed=2):
    """Lightly damped sines at the sphere's six lowest modes (times ``shift``) plus noise; the
    (0,1) and (3,1) pair, 0.46 % apart, rings as two sines."""
    rng = np.random.default_rng(seed)
    t = np.arange(int(duration * RATE)) / RATE
    x = np.zeros_like(t)
    for z, _ in SPHERE_ZEROS:
        f = C * z / (2 * np.pi * SPHERE) * shift
        amp, phase, tau = rng.uniform(0.5, 1.0), rng.uniform(0, 2 * np.pi), rng.uniform(0.1, 0.3)
        x += amp * np.exp(-t / tau) * np.sin(2 * np.pi * f * t + phase)
    return x + noise * rng.standard_normal(t.size)


def run(command, *args):
    """Run a subcommand; return (exit code, stdout + stderr)."""
    code, out, err = _common.run_here(command, *args)
    return code, out + err


class TestDelay(unittest.TestCase):
    def test_fractional_delays(self):
        a = pulse(4096, 0.01)
        for d in (0.37, 12.5, 123.371, -7.81, 300.999):
            got = arrival_delay(a, pulse(4096, 0.01 + d / RATE), RATE) * RATE
            self.assertLess(abs(got - d), 0.01, f"delay {d} samples, got {got}")

    def test_speed_of_sound(self):
        dist = 0.5
        a = pulse(8192, 0.005)
        b = 0.3 * pulse(8192, 0.005 + dist / C)
        self.assertAlmostEqual(speed_of_sound_tof(a, b, RATE, dist) / C, 1.0, delta=1e-4)
        with self.assertRaises(ValueError):
            speed_of_sound_tof(b, a, RATE, dist)

    def test_max_delay_restricts_search(self):
        a = pulse(4096, 0.01)
        b = pulse(4096, 0.01 + 20.25 / RATE) + 2.0 * pulse(4096, 0.01 + 500 / RATE)
        self.assertAlmostEqual(arrival_delay(a, b, RATE) * RATE, 500.0, delta=0.01)
        self.assertAlmostEqual(arrival_delay(a, b, RATE, max_delay=100 / RATE) * RATE,
                               20.25, delta=0.01)


class TestModes(unittest.TestCase):
    def test_box_modes(self):
        modes = box_mode_frequencies(*ROOM, C, 1000.0)
        self.assertEqual([m[1] for m in modes[:4]], [(1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0)])
        self.assertAlmostEqual(modes[0][0], C / 0.6)
        self.assertAlmostEqual(modes[3][0], 0.5 * C * np.hypot(1 / 0.3, 1 / 0.24))
        self.assertEqual([m[0] for m in modes], sorted(m[0] for m in modes))
        self.assertTrue(all(0 < m[0] <= 1000.0 for m in modes))

    def test_count_and_lowest_equal_the_listing(self):
        # box_mode_count and lowest_box_modes give what the full listing gives, also for a cube
        # (degenerate modes) and at an fmax that is itself a mode's frequency (C / 2 for L = 1).
        for room, fmax in ((ROOM, 3000.0), ((4.5, 3.5, 2.7), 600.0), ((1.0, 1.0, 1.0), 700.0),
                           ((1.0, 1.0, 1.0), C / 2), ((0.3, 0.01, 0.01), 2000.0)):
            modes = box_mode_frequencies(*room, C, fmax)
            self.assertEqual(box_mode_count(*room, C, fmax), len(modes), (room, fmax))
            for n in (1, 7, 200, len(modes) + 5):
                self.assertEqual(lowest_box_modes(*room, C, fmax, n), modes[:n], (room, n))
        self.assertEqual(box_mode_count(*ROOM, C, 100.0), 0)      # below the lowest mode
        self.assertEqual(lowest_box_modes(*ROOM, C, 100.0, 200), [])

    def test_large_room_at_high_fmax_is_bounded(self):
        # A 4.5 x 3.5 x 2.7 m office at 0.45 x 44.1 kHz holds ~35 million modes (Weyl: (4 pi / 3)
        # V (f / c)^3 = 33.0 million, plus the surface and edge terms). Counting them and listing
        # the lowest 200 (what the report's spectrum marks, plots.mode_frequencies) must take well
        # under a second and a few MB, not the gigabytes a listing of them all would.
        import time
        import tracemalloc
        office, fmax = (4.5, 3.5, 2.7), 0.45 * RATE
        tracemalloc.start()
        t0 = time.perf_counter()
        n = box_mode_count(*office, C, fmax)
        low = plots.mode_frequencies(office, C, fmax, 200)
        seconds = time.perf_counter() - t0
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        V, S, L = np.prod(office), 2 * (4.5 * 3.5 + 3.5 * 2.7 + 4.5 * 2.7), 4 * sum(office)
        k = fmax / C
        weyl = 4 * np.pi / 3 * V * k ** 3 + np.pi / 4 * S * k ** 2 + L / 8 * k
        self.assertLess(abs(n - weyl) / weyl, 1e-3)
        self.assertEqual(len(low), 200)
        self.assertEqual(low[0][1], (1, 0, 0))
        self.assertAlmostEqual(low[0][0], C / 9.0)
        self.assertEqual(low, lowest_box_modes(*office, C, low[-1][0], 200))
        self.assertLess(peak, 50e6)
        self.assertLess(seconds, 5.0)

    def test_isolation(self):
        cube = box_mode_frequencies(1.0, 1.0, 1.0, C, 250.0)
        self.assertEqual(isolated_modes(cube), [])          # (1,0,0) and (1,1,0) families are degenerate
        box = [m[1] for m in isolated_modes(box_mode_frequencies(*ROOM, C, 1200.0))]
        self.assertNotIn((0, 1, 1), box)                    # 1116 Hz is 2.4 % from (2,0,0)
        self.assertIn((1, 0, 0), box)

    def test_spectral_peak_single_sine(self):
        t = np.arange(8000) / RATE
        f, a = spectral_peaks(0.7 * np.sin(2 * np.pi * 1234.567 * t), RATE, 500, 3000)
        self.assertEqual(len(f), 1)                         # side lobes rejected
        self.assertAlmostEqual(f[0], 1234.567, delta=0.01)
        self.assertAlmostEqual(a[0], 0.7, delta=0.01)

    def test_match_ringing_box(self):
        freqs, amps = spectral_peaks(ringing_box(), RATE, 300.0, 2500.0)
        results = match_modes(freqs, box_mode_frequencies(*ROOM, C, 2500.0))
        self.assertGreaterEqual(len(results), 6)
        for r in results[:6]:
            self.assertLess(abs(r["rel_error"]), 0.002, r)

    def test_sphere_modes(self):
        modes = sphere_mode_frequencies(1.0, 2 * np.pi, 6.0)   # f = z
        self.assertEqual([m[1] for m in modes], [ln for _, ln in SPHERE_ZEROS])
        for (f, _), (z, _) in zip(modes, SPHERE_ZEROS):
            self.assertAlmostEqual(f, z, delta=6e-5)
        self.assertAlmostEqual(modes[0][0], 2.0815759778, delta=1e-9)
        self.assertAlmostEqual(modes[2][0], 4.4934094579, delta=1e-9)   # tan z = z
        f = sphere_mode_frequencies(SPHERE, C, 1000.0)
        self.assertEqual(len(f), 4)
        self.assertAlmostEqual(f[0][0], C * 2.0815759778 / (2 * np.pi * SPHERE), delta=1e-6)


class TestScripts(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, x):
        wavfile.write(os.path.join(self.dir, name + ".raw.wav"), RATE, x.astype(np.float32))

    def test_read_mono(self):
        x = ringing_box(0.01)
        self.write("r", x)
        y, rate = read_mono(os.path.join(self.dir, "r.raw.wav"))
        self.assertEqual((rate, y.dtype), (RATE, np.float64))
        np.testing.assert_allclose(y, x, atol=1e-6)

    def test_modes_pass_fail_missing(self):
        room = ["--room", *ROOM]
        self.write("good", ringing_box())
        self.write("bad", ringing_box(shift=1.05))
        js = os.path.join(self.dir, "v4.json")
        code, out = run("validate v4", self.dir, "--receiver", "good", *room, "--json", js)
        self.assertEqual(code, 0, out)
        self.assertIn("PASS", out)
        with open(js) as f:
            self.assertTrue(json.load(f)["pass"])
        code, out = run("validate v4", self.dir, "--receiver", "bad", *room)
        self.assertEqual(code, 1, out)
        self.assertIn("FAIL", out)
        code, out = run("validate v4", self.dir, "--receiver", "nope", *room)
        self.assertEqual(code, 2, out)
        self.assertIn("nope.raw.wav", out)

    def test_sphere_modes_pass_fail_thresholds(self):
        common = ["--radius", SPHERE, "--dx", 0.015]
        self.write("good", ringing_sphere())
        self.write("off2", ringing_sphere(shift=1.02))      # within 3 %, not within 1.5 %
        js = os.path.join(self.dir, "v11.json")
        code, out = run("validate v11", self.dir, "--receiver", "good", *common, "--json", js)
        self.assertEqual(code, 0, out)
        self.assertIn("PASS", out)
        with open(js) as f:
            res = json.load(f)
        self.assertTrue(res["pass"])
        self.assertEqual([(m["l"], m["n"]) for m in res["modes"]], [ln for _, ln in SPHERE_ZEROS])
        # (1,1) and (2,1) lie at >= 30 PPW at 1.5 cm, the others at 18-30 PPW.
        self.assertEqual([m["tol"] for m in res["modes"]], [0.015] * 2 + [0.03] * 4)
        for m in res["modes"]:
            self.assertLess(abs(m["rel_error"]), 0.004, m)   # the 0.46 % pair may merge
        code, out = run("validate v11", self.dir, "--receiver", "off2", *common)
        self.assertEqual(code, 1, out)
        self.assertEqual(out.count("FAIL"), 3, out)         # two modes and the verdict
        code, out = run("validate v11", self.dir, "--receiver", "off2", "--radius", SPHERE,
                        "--tol", 0.03)
        self.assertEqual(code, 0, out)
        # At 2 cm the upper modes fall below 18 PPW: no threshold applies.
        code, out = run("validate v11", self.dir, "--receiver", "good", "--radius", SPHERE,
                        "--dx", 0.02)
        self.assertEqual(code, 2, out)
        self.assertIn("PPW", out)
        code, out = run("validate v11", self.dir, "--receiver", "nope", *common)
        self.assertEqual(code, 2, out)

    def test_tof_pass_fail_missing(self):
        dist = 0.25
        self.write("near", pulse(8192, 0.004))
        self.write("far", 0.8 * pulse(8192, 0.004 + dist / C))
        common = [self.dir, "--near", "near", "--far", "far"]
        code, out = run("validate v2", *common, "--distance", dist)
        self.assertEqual(code, 0, out)
        self.assertIn("PASS", out)
        code, out = run("validate v2", *common, "--distance", 1.03 * dist)
        self.assertEqual(code, 1, out)
        code, out = run("validate v2", self.dir, "--near", "near", "--far", "gone",
                        "--distance", dist)
        self.assertEqual(code, 2, out)
        self.assertIn("gone.raw.wav", out)

    def test_tof_amplitude(self):
        """--amplitude: a plane pulse rho0 c u (u the disc's velocity times the share of the duct
        it covers, by area) passes; 1.2 dB too strong fails; filtered records are bad input."""
        width, dist, rho0 = 0.0015, 0.3, 1.204
        n_drive = int(round(width * RATE))
        drive = np.sin(np.pi * np.arange(n_drive) / n_drive) ** 2   # Hann pulse, peak 1
        wavfile.write(os.path.join(self.dir, "drive.wav"), RATE, drive.astype(np.float32))
        share = np.pi * 0.045 ** 2 / 0.01      # disc of radius 4.5 cm inside the 10 cm square
        u = share * 1e-6 * RATE * drive

        def record(delay, gain=1.0):                   # delayed by a fraction of a sample too
            f = np.fft.rfftfreq(4096, 1.0 / RATE)
            shifted = np.fft.rfft(u, 4096) * np.exp(-2j * np.pi * f * delay)
            return gain * rho0 * C * np.fft.irfft(shifted, 4096)

        def summary(output):
            scene = ("[fluid]\nspacing = 0.01\n[room]\nmin = 0 0 0\nmax = 1.2 0.1 0.1\n"
                     "[emitter]\ncenter = 0.005 0.05 0.05\nnormal = 1 0 0\nradius = 0.045\n"
                     "deflection = 1e-6\ndrive = velocity\n" + output)
            with open(os.path.join(self.dir, "summary.json"), "w") as f:
                json.dump({"scene": scene, "scene_overrides": {},
                           "derived": {"f_max_Hz": 4565.0}}, f)

        summary("[output]\nhighpass = 0\nlowpass = false\n")
        common = [self.dir, "--near", "near", "--far", "far", "--distance", dist,
                  "--amplitude", os.path.join(self.dir, "drive.wav")]
        self.write("near", record(0.001))
        self.write("far", record(0.001 + dist / C))
        code, out = run("validate v2", *common)
        self.assertEqual(code, 0, out)
        self.assertIn("63.6 %", out)
        self.assertEqual(out.count("PASS"), 3, out)
        self.write("far", record(0.001 + dist / C, gain=10 ** (1.2 / 20)))
        code, out = run("validate v2", *common)
        self.assertEqual(code, 1, out)
        self.assertIn("far: spectrum +1.200 dB", out)
        summary("")                                    # the default 20 Hz output high-pass
        code, out = run("validate v2", *common)
        self.assertEqual(code, 2, out)
        self.assertIn("highpass = 0", out)


if __name__ == "__main__":
    unittest.main()
