#!/usr/bin/python3
"""compare.py A B: the WAVs of run directories A and B are byte-identical, and so are the receiver
records (doubles: densities, and the ambisonic receivers' velocities when stored) and every
particle field (matched by key; the face-element state of reacting mirror faces when stored) of
their last checkpoints, and the face elements of reacting ghost walls when stored (matched by
ghost key; a key a file repeats, from several ranks, must repeat the same values)."""
import glob
import os
import sys

import h5py
import numpy as np


def last_checkpoint(d):
    return sorted(glob.glob(os.path.join(d, "checkpoints", "step_*.h5")))[-1]


def ghost_faces(f):
    """key -> bytes of (displacement, velocity); a repeated key must repeat its values."""
    out = {}
    keys = f["/ghost_faces/key"][...]
    x, w = f["/ghost_faces/displacement"][...], f["/ghost_faces/velocity"][...]
    for i, k in enumerate(keys):
        v = x[i].tobytes() + w[i].tobytes()
        assert out.setdefault(int(k), v) == v, f"ghost {k} repeated with other values"
    return out


def main(a, b):
    wavs = sorted(os.path.basename(p) for p in glob.glob(os.path.join(a, "*.wav")))
    assert wavs, f"{a}: no WAV files"
    for w in wavs:
        with open(os.path.join(a, w), "rb") as fa, open(os.path.join(b, w), "rb") as fb:
            assert fa.read() == fb.read(), f"{w} differs between {a} and {b}"
    ca, cb = last_checkpoint(a), last_checkpoint(b)
    assert os.path.basename(ca) == os.path.basename(cb), (ca, cb)
    with h5py.File(ca, "r") as fa, h5py.File(cb, "r") as fb:
        ra, rb = fa["/receivers/density"][...], fb["/receivers/density"][...]
        assert ra.shape == rb.shape and ra.tobytes() == rb.tobytes(), "receiver records differ"
        assert ("velocity" in fa["/receivers"]) == ("velocity" in fb["/receivers"]), \
            "one checkpoint has receiver velocity records, the other not"
        velocity = "velocity" in fa["/receivers"]
        if velocity:            # ambisonic receivers: x y z per receiver
            va, vb = fa["/receivers/velocity"][...], fb["/receivers/velocity"][...]
            assert va.shape == vb.shape and va.tobytes() == vb.tobytes(), \
                "receiver velocity records differ"
        ka, kb = np.argsort(fa["/particles/key"][...]), np.argsort(fb["/particles/key"][...])
        face = ("face_velocity" in fa["/particles"], "face_velocity" in fb["/particles"])
        assert face[0] == face[1], "one checkpoint has the face-element state, the other not"
        names = ("key", "position", "velocity", "density", "rest_position")
        if face[0]:  # reacting mirror faces
            names += ("face_displacement", "face_velocity")
        for name in names:
            da, db = fa["/particles/" + name][...][ka], fb["/particles/" + name][...][kb]
            assert da.tobytes() == db.tobytes(), f"/particles/{name} differs"
        ghost = ("ghost_faces" in fa, "ghost_faces" in fb)
        assert ghost[0] == ghost[1], "one checkpoint has ghost face elements, the other not"
        if ghost[0]:
            ga, gb = ghost_faces(fa), ghost_faces(fb)
            assert ga.keys() == gb.keys(), "the ghost face elements' keys differ"
            assert all(ga[k] == gb[k] for k in ga), "/ghost_faces differ"
        n, s = ra.shape[0], fa["/run/step"][0]
    print(f"same: {len(wavs)} WAVs, {n} records per receiver"
          f"{' (+ velocity)' if velocity else ''}, particles at step {s} "
          f"({os.path.basename(ca)}): {a} == {b}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
