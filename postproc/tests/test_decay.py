"""The V7 check (validate v7) on synthetic decays with a known reverberation time: T30 of
exponentially decaying noise, Paris' formula at known values."""
import math
import unittest

import _common  # noqa: F401  (import path)
import numpy as np

from sphreverb_post.validate import v7_decay as vd


class DecayTest(unittest.TestCase):
    @staticmethod
    def mean_t30(T, fc, seeds=20, rate=30000):
        t = np.arange(int(3 * T * rate)) / rate
        values = []
        for seed in range(seeds):
            x = np.random.default_rng(seed).standard_normal(len(t)) * np.exp(-6.907755 * t / T)
            values.append(vd.t30(x, rate, fc)[0] / T)  # 60 dB of energy in T
        return float(np.mean(values))

    def test_t30_of_exponential_noise(self):
        # A long decay (B T = 140): the mean over 20 noise decays within 3 %.
        self.assertAlmostEqual(self.mean_t30(0.2, 1000.0), 1.0, delta=0.03)
        # A short one like V7's (B T = 18 at 500 Hz): noise statistics dominate, mean within 6 %.
        self.assertAlmostEqual(self.mean_t30(0.05, 500.0), 1.0, delta=0.06)

    def test_paris_real_closed_form(self):
        for z in (1.6, 3.0, 10.0):
            closed = 8.0 / z ** 2 * (z - 2.0 * math.log1p(z) + z / (1.0 + z))
            self.assertAlmostEqual(vd.paris(complex(z, 0.0)), closed, places=5)

    def test_wall_model_is_hard_branch(self):
        z = vd.wall_zeta(0.75, 500.0, 1.204, 343.0, 0.01, 1.3)
        self.assertAlmostEqual(z.real, 3.0, places=12)


if __name__ == "__main__":
    unittest.main()
