"""ISO 3382-1 building blocks against exact expectations: octave filter response, onset rule,
Schroeder curve of a pure exponential, Lundeby noise floor, parameters of ideal decays."""
import unittest

import _common  # noqa: F401  (import path)
import numpy as np

from sphreverb_post import iso3382, octave, synth

RATE = 44100


class TestOctave(unittest.TestCase):
    def test_centres_are_base10(self):
        self.assertAlmostEqual(octave.exact_centre(1000), 1000.0)
        self.assertAlmostEqual(octave.exact_centre(125), 1000.0 * 10 ** -0.9, places=9)
        f1, fm, f2 = octave.band_edges(500)
        self.assertAlmostEqual(f2 / f1, 10 ** 0.3, places=12)
        self.assertAlmostEqual(np.sqrt(f1 * f2), fm, places=9)

    def test_combined_response(self):
        for rate in (44100, 48000):
            for nom in octave.NOMINAL:
                f1, fm, f2 = octave.band_edges(nom)
                db = octave.response_db(nom, rate, [fm, f1, f2, fm / 2, 2 * fm])
                self.assertLess(abs(db[0]), 0.02, f"{nom} Hz at fm")
                self.assertLess(abs(db[1] + 3.0103), 0.02, f"{nom} Hz at f1")
                self.assertLess(abs(db[2] + 3.0103), 0.02, f"{nom} Hz at f2")
                self.assertLess(db[3], -55.0)
                self.assertLess(db[4], -55.0)

    def test_band_too_high_is_refused(self):
        self.assertFalse(octave.fits(4000, 8000))
        with self.assertRaises(ValueError):
            octave.design(4000, 8000)

    def test_zero_phase(self):
        x = np.zeros(8192)
        x[4096] = 1.0
        y = octave.filter_band(x, 1000, RATE)
        self.assertEqual(int(np.argmax(np.abs(y))), 4096)
        np.testing.assert_allclose(y[4096 - 1000:4096], y[4097:4097 + 1000][::-1], atol=1e-12)


class TestOnset(unittest.TestCase):
    def test_twenty_db_rule(self):
        x = np.zeros(1000)
        x[500] = 1.0
        x[300] = 10 ** (-25 / 20)          # 25 dB below the peak: ignored
        self.assertEqual(iso3382.onset_index(x), 500)
        x[400] = 10 ** (-15 / 20)          # 15 dB below: this is the start
        self.assertEqual(iso3382.onset_index(x), 400)

    def test_silent(self):
        with self.assertRaises(ValueError):
            iso3382.onset_index(np.zeros(100))


class TestSchroeder(unittest.TestCase):
    def test_pure_exponential_is_a_line(self):
        for T in (0.4, 1.7):
            e = synth.exp_decay(T, RATE, duration=1.2 * T, delay=0.0) ** 2
            floor = iso3382.lundeby(e, RATE)
            dec = iso3382.EnergyDecay(e, RATE, floor)
            L = dec.schroeder_db()
            t = np.arange(L.size) / RATE
            keep = L > -60.0
            dev = np.abs(L[keep] + 60.0 * t[keep] / T)
            self.assertLess(dev.max(), 0.02, f"T = {T}: max deviation {dev.max():.4f} dB")
            slope = np.polyfit(t[keep], L[keep], 1)[0]
            self.assertAlmostEqual(-60.0 / slope, T, delta=1e-4 * T)

    def test_lundeby_noise_floor(self):
        T, noise_db = 1.0, -50.0
        x = synth.exp_decay(T, RATE, duration=1.5, delay=0.0, noise_db=noise_db, seed=3)
        fl = iso3382.lundeby(x ** 2, RATE)
        self.assertTrue(fl["ok"])
        self.assertAlmostEqual(10 * np.log10(fl["noise"]), noise_db, delta=0.5)
        # The decay 10^(-6 t/T) meets the floor at t = -noise_db T / 60.
        self.assertAlmostEqual(fl["crossing"], -noise_db * T / 60.0, delta=0.05 * T)
        self.assertAlmostEqual(-60.0 / fl["late"][1], T, delta=0.05 * T)


class TestParameters(unittest.TestCase):
    def test_expected_formulas(self):
        # docs/validation.md writes 13.82 for 6 ln 10 = 13.8155: the two agree to 0.01 dB / 0.1 %.
        for T in (0.3, 1.0, 3.0):
            e = iso3382.expected(T)
            self.assertAlmostEqual(e["C80"], 10 * np.log10(np.exp(13.82 * 0.08 / T) - 1),
                                   delta=0.01)
            self.assertAlmostEqual(e["D50"], 1 - np.exp(-13.82 * 0.05 / T), delta=1e-3)
            self.assertAlmostEqual(e["Ts"], T / 13.82, delta=1e-3 * T)

    def test_ideal_decay_broadband(self):
        for T in (0.5, 2.0):
            res, meta = iso3382.analyse(synth.exp_decay(T, RATE), RATE, bands=())
            b, e = res["broadband"], iso3382.expected(T)
            self.assertAlmostEqual(meta["onset_s"], 0.01, delta=0.5 / RATE)
            for k in ("EDT", "T20", "T30", "Ts"):
                self.assertLess(abs(b[k] / e[k] - 1.0), 0.002, k)
            for k in ("C50", "C80"):
                self.assertLess(abs(b[k] - e[k]), 0.01, k)
            self.assertLess(abs(b["D50"] - e["D50"]), 1e-3)
            self.assertTrue(all(b["valid"].values()))

    def test_band_keys_and_skips(self):
        x = synth.exp_decay(0.5, 11025)
        res, meta = iso3382.analyse(x, 11025)
        self.assertIn("2000", res)
        self.assertNotIn("4000", res)              # upper edge 5.6 kHz > 0.45 x 11025 Hz
        self.assertEqual(meta["skipped_bands"], [4000])
        for band in res.values():
            for k in iso3382.PARAMETERS:
                self.assertIn(k, band)
                self.assertIn(k, band["valid"])

    def test_invalid_when_floor_is_high(self):
        x = synth.exp_decay(1.0, RATE, duration=1.5, noise_db=-30.0, seed=5)
        b = iso3382.analyse(x, RATE, bands=())[0]["broadband"]
        self.assertTrue(b["valid"]["EDT"])
        self.assertFalse(b["valid"]["T20"])
        self.assertFalse(b["valid"]["T30"])
        self.assertIn("peak-to-noise", b["reason"]["T30"])


if __name__ == "__main__":
    unittest.main()
