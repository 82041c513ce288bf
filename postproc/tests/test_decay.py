"""The V7 check (validate v7) on synthetic decays with a known reverberation time: T30 of
exponentially decaying noise, Paris' formula at known values."""
import math
import os
import tempfile
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

    @staticmethod
    def write_obj(vertices, quads):
        fd, path = tempfile.mkstemp(suffix=".obj")
        with os.fdopen(fd, "w") as fh:
            fh.writelines("v %r %r %r\n" % tuple(v) for v in vertices)
            fh.writelines("f " + " ".join(str(i + 1) for i in q) + "\n" for q in quads)
        return path

    def prism(self, x_floor, x_ceiling, notch=False):
        """The xz-trapezoid prism along y (V13's room; the cube when x_floor = x_ceiling)."""
        section = [(0, 0), (x_floor, 0), (x_ceiling, 0.75), (0, 0.75)]
        if notch:  # a re-entrant corner: not convex
            section = [(0, 0), (x_floor, 0), (0.3, 0.3), (x_ceiling, 0.75), (0, 0.75)]
        n = len(section)
        vertices = [(x, y, z) for y in (0.0, 0.75) for x, z in section]
        quads = [(i, n + i, n + (i + 1) % n, (i + 1) % n) for i in range(n)]
        ends = [tuple(range(n)), tuple(n + i for i in reversed(range(n)))]
        return self.write_obj(vertices, quads + ends)

    def test_mesh_room_cube_is_the_box(self):
        path = self.prism(0.75, 0.75)
        try:
            V, S, normals, offsets, lo, hi = vd.mesh_room(path)
        finally:
            os.remove(path)
        self.assertAlmostEqual(V, 0.75 ** 3, places=12)
        self.assertAlmostEqual(S, 6 * 0.75 ** 2, places=12)
        self.assertAlmostEqual(vd.path_variance_convex(normals, offsets, lo, hi),
                               vd.path_variance(0.75, 0.75, 0.75), places=9)

    def test_mesh_room_slanted_wall(self):
        path = self.prism(0.9, 0.6)
        try:
            V, S, normals, offsets, lo, hi = vd.mesh_room(path)
        finally:
            os.remove(path)
        self.assertAlmostEqual(V, 0.75 ** 3, places=12)  # the trapezoid's mean depth is 0.75 m
        self.assertAlmostEqual(S, 3 * 0.5625 + 0.75 * (0.9 + 0.6) + 0.75 * math.hypot(0.3, 0.75),
                               places=12)
        # Near the cube's 0.335: one wall slanted spreads the free paths a little more.
        g2 = vd.path_variance_convex(normals, offsets, lo, hi)
        self.assertTrue(0.2 < g2 < 0.5)

    def test_mesh_room_refuses_non_convex(self):
        path = self.prism(0.9, 0.6, notch=True)
        try:
            with self.assertRaisesRegex(ValueError, "not convex"):
                vd.mesh_room(path)
        finally:
            os.remove(path)


if __name__ == "__main__":
    unittest.main()
