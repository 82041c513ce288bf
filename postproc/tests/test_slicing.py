"""The render's choices (sphreverb_post.slicing): the lattice plane nearest the cloud's middle,
with an even or odd number of planes, and the stored time it labels."""
import unittest

import _common  # noqa: F401  (import path)
import numpy as np

from sphreverb_post.slicing import plane_window, planes, stored_time


def lattice(counts, dx, jitter=0.0, seed=3):
    """Coordinates (n, 3) of a cubic lattice counts[0] x counts[1] x counts[2] at spacing dx,
    cell-centred (the first plane at dx/2), each moved by up to ``jitter`` m."""
    axes = [(np.arange(n) + 0.5) * dx for n in counts]
    p = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 3)
    return p + np.random.default_rng(seed).uniform(-jitter, jitter, p.shape)


def estimated_spacing(p):
    """The render's estimate: (bounding-box volume / count)^(1/3), below the true spacing."""
    ext = p.max(axis=0) - p.min(axis=0)
    return (np.prod(ext) / len(p)) ** (1.0 / 3.0)


def selected(z, window):
    lo, hi, _ = window
    return np.count_nonzero((z >= lo) & (z <= hi))


class TestPlane(unittest.TestCase):
    def test_even_plane_count_picks_one_plane(self):
        dx = 0.03
        p = lattice((6, 5, 4), dx, jitter=1e-6)   # 4 planes in z: the middle lies between two
        z, dx_est = p[:, 2], estimated_spacing(p)
        mid = 0.5 * (z.min() + z.max())
        # The former window, one estimated spacing around the middle, holds no particle.
        self.assertEqual(np.count_nonzero(np.abs(z - mid) <= 0.5 * dx_est), 0)
        w = plane_window(z, mid, dx_est)
        self.assertEqual(selected(z, w), 6 * 5)
        self.assertLess(min(abs(w[2] - 1.5 * dx), abs(w[2] - 2.5 * dx)), 2e-6)
        # Without displacements (and binary fractions) the two middle planes tie: the lower one.
        z = lattice((2, 2, 4), 0.25)[:, 2]
        self.assertEqual(plane_window(z, 0.5, 0.25)[2], 0.375)

    def test_odd_plane_count_picks_the_middle_plane(self):
        dx = 0.02
        p = lattice((4, 4, 5), dx, jitter=1e-6)
        z = p[:, 2]
        w = plane_window(z, 0.5 * (z.min() + z.max()), estimated_spacing(p))
        self.assertEqual(selected(z, w), 16)
        self.assertAlmostEqual(w[2], 2.5 * dx, delta=2e-6)

    def test_planes_found(self):
        p = lattice((3, 3, 7), 0.01, jitter=1e-7)
        found = planes(p[:, 2], 0.01)
        self.assertEqual(len(found), 7)
        np.testing.assert_allclose([0.5 * (a + b) for a, b in found],
                                   (np.arange(7) + 0.5) * 0.01, atol=2e-7)

    def test_no_planes_falls_back_to_one_spacing(self):
        z = np.random.default_rng(1).uniform(0.0, 1.0, 10000)   # no lattice: one thick "plane"
        lo, hi, centre = plane_window(z, 0.5, 0.05)
        self.assertAlmostEqual(hi - lo, 0.05, places=12)
        self.assertLess(abs(centre - 0.5), 1e-3)

    def test_empty(self):
        with self.assertRaises(ValueError):
            plane_window(np.array([]), 0.0, 0.01)


class TestStoredTime(unittest.TestCase):
    steps = [0.001, 0.002, 0.003, 0.004]

    def test_default_is_last(self):
        self.assertEqual(stored_time(self.steps), 0.004)

    def test_nearest_stored_step_is_labelled(self):
        self.assertEqual(stored_time(self.steps, 0.0026), 0.003)
        self.assertEqual(stored_time(self.steps, 0.0024), 0.002)
        self.assertEqual(stored_time(self.steps, 0.0025), 0.002)   # tie: the earlier
        self.assertEqual(stored_time(self.steps, 1.0), 0.004)      # beyond the last
        self.assertEqual(stored_time(self.steps, -1.0), 0.001)
        self.assertEqual(stored_time(list(reversed(self.steps)), 0.0011), 0.001)

    def test_single_or_no_time(self):
        self.assertEqual(stored_time(0.002, 0.5), 0.002)   # a single step reported as a scalar
        self.assertIsNone(stored_time([], 0.5))
        self.assertIsNone(stored_time(None))


if __name__ == "__main__":
    unittest.main()
