"""What a slice render shows: the lattice plane nearest a coordinate and the stored time nearest
a requested one. Pure numpy, so both choices are testable without ParaView.

Particles start on a cubic lattice and move by acoustic displacements far below its spacing, so
their coordinates along one axis fall into planes one spacing apart. With an even number of
planes the middle of the cloud lies half-way between two of them; a window of one estimated
spacing around that point can miss both, so the render picks the plane nearest the point.
"""
import numpy as np


def planes(coords, spacing):
    """The lattice planes along one axis: a list of (lo, hi) coordinate extents (m), ascending.

    ``coords``: the particles' coordinates on that axis (m); ``spacing``: an estimate of the
    lattice spacing (m, within a factor of two). A gap wider than a quarter of it separates two
    planes.
    """
    c = np.sort(np.asarray(coords, dtype=np.float64).ravel())
    if c.size == 0:
        return []
    cut = np.flatnonzero(np.diff(c) > 0.25 * spacing)
    starts = np.concatenate(([0], cut + 1))
    ends = np.concatenate((cut, [c.size - 1]))
    return [(float(c[a]), float(c[b])) for a, b in zip(starts, ends)]


def plane_window(coords, target, spacing):
    """Thresholds (lo, hi, centre) in m that select the one plane whose centre is nearest
    ``target`` (ties: the lower plane).

    The window is the plane's extent widened by a quarter of the spacing on each side, which
    stays clear of the neighbouring planes. If the coordinates do not form planes (a plane
    thicker than half the spacing), the window is one spacing wide around the particle nearest
    the target.
    """
    found = planes(coords, spacing)
    if not found:
        raise ValueError("no particles")
    centres = np.array([0.5 * (lo + hi) for lo, hi in found])
    i = int(np.argmin(np.abs(centres - target)))
    lo, hi = found[i]
    if hi - lo > 0.5 * spacing:
        c = np.asarray(coords, dtype=np.float64).ravel()
        near = float(c[np.argmin(np.abs(c - target))])
        return near - 0.5 * spacing, near + 0.5 * spacing, near
    return lo - 0.25 * spacing, hi + 0.25 * spacing, float(centres[i])


def stored_time(steps, asked=None):
    """The stored time (s) a render at ``asked`` shows: the stored step nearest it (ties: the
    earlier), the last one without ``asked``, None if the file stores no time."""
    if steps is None:
        return None
    t = np.atleast_1d(np.asarray(steps, dtype=np.float64))
    if t.size == 0:
        return None
    if asked is None:
        return float(t.max())
    t = np.sort(t)
    return float(t[int(np.argmin(np.abs(t - asked)))])
