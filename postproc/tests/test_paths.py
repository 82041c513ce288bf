"""sphreverb_post.commands.compare_paths.compare on a synthetic linear 'solver' with an exactly known answer."""
import unittest

import _common  # noqa: F401  (import path)
import numpy as np

from sphreverb_post.commands import compare_paths


class TestComparePaths(unittest.TestCase):
    def setUp(self):
        rng = np.random.default_rng(4)
        self.h = rng.standard_normal(400) * np.exp(-np.arange(400) / 80.0)
        self.clip = rng.standard_normal(300)
        self.b = 0.1 * rng.standard_normal(400)           # response to no input at all

    def test_linear_system_agrees(self):
        direct = np.convolve(self.clip, self.h)[:400]
        res, _, _ = compare_paths.compare(self.clip, self.h, direct)
        self.assertLess(res["difference_db"], -250.0)
        self.assertAlmostEqual(res["gain"], 1.0, places=12)
        self.assertEqual(res["best_lag_samples"], 0)

    def test_baseline_removed(self):
        direct = np.convolve(self.clip, self.h)[:400] + self.b
        rir = self.h + self.b
        raw, _, _ = compare_paths.compare(self.clip, rir, direct)
        fixed, _, _ = compare_paths.compare(self.clip, rir, direct, baseline=self.b)
        self.assertGreater(raw["difference_db"], -40.0)    # the baseline spoils the raw match
        self.assertLess(fixed["difference_db"], -250.0)

    def test_gain_and_lag(self):
        direct = 2.0 * np.concatenate([np.zeros(7), np.convolve(self.clip, self.h)])[:400]
        res, _, _ = compare_paths.compare(self.clip, self.h, direct)
        self.assertEqual(res["best_lag_samples"], 7)
        res, _, _ = compare_paths.compare(self.clip, self.h, 2.0 * np.convolve(self.clip,
                                                                               self.h)[:400])
        self.assertAlmostEqual(res["gain"], 2.0, places=12)
        self.assertLess(res["difference_after_gain_db"], -250.0)
        self.assertAlmostEqual(res["difference_db"], 10 * np.log10(0.25), places=9)


if __name__ == "__main__":
    unittest.main()
