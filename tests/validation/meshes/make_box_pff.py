#!/usr/bin/env python3
"""Writes box_pff.obj (the box of tests/validation/box_pff_*.ini) beside this file, and prints
the scene positions of the emitter and the receiver for a rotation and translation.

box_pff.obj: a 0.34 x 0.22 x 0.18 m box centred at the origin, its edges along the file's axes,
every triangle counter-clockwise seen from outside (normals from the air into the walls). The
box and its 30-degree rotation are the published test case of pffdtd, a finite-difference room
code, so the two codes can be compared at equal spacing (docs/validation.md, "Against pffdtd").

    make_box_pff.py                             writes box_pff.obj
    make_box_pff.py --place RX RY RZ TX TY TZ
        prints, for the Euler rotation RX RY RZ (degrees, x then y then z, as the scene's
        `rotation`) and the translation, the emitter's centre and normal (a free disc at
        (0.17, 0.2, 0.25) of each edge from the box's lowest corner, normal (1, 1, 1) in the
        box's frame) and the receiver `corner` at (0.87, 0.85, 0.82) of each edge.
"""
import argparse
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SIZE = (0.34, 0.22, 0.18)  # m
EMITTER, RECEIVER = (0.17, 0.2, 0.25), (0.87, 0.85, 0.82)  # fractions of each edge


def box():
    """Vertices (index = x + 2y + 4z over the corners) and outward triangles of the box."""
    vertices = [tuple((1 if (i >> k) & 1 else -1) * 0.5 * SIZE[k] for k in range(3))
                for i in range(8)]
    triangles = [(0, 4, 6), (0, 6, 2), (1, 3, 7), (1, 7, 5), (0, 1, 5), (0, 5, 4),
                 (2, 6, 7), (2, 7, 3), (0, 2, 3), (0, 3, 1), (4, 5, 7), (4, 7, 6)]
    return vertices, triangles


def write_obj(path):
    vertices, triangles = box()
    for t in triangles:  # outward: the normal points away from the centre
        a, b, c = (vertices[i] for i in t)
        u = [b[k] - a[k] for k in range(3)]
        v = [c[k] - a[k] for k in range(3)]
        n = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
        assert sum(n[k] * (a[k] + b[k] + c[k]) for k in range(3)) > 0
    with open(path, "w") as f:
        f.write("# pffdtd's 0.34 x 0.22 x 0.18 m box centred at the origin, written by "
                "make_box_pff.py; normals outward\n")
        for v in vertices:
            f.write("v %.6f %.6f %.6f\n" % v)
        for t in triangles:
            f.write("f %d %d %d\n" % tuple(i + 1 for i in t))


def rotate(p, angles):
    """Euler rotation about x, then y, then z (degrees), as the scene's `rotation`."""
    x, y, z = p
    ax, ay, az = (math.radians(a) for a in angles)
    y, z = y * math.cos(ax) - z * math.sin(ax), y * math.sin(ax) + z * math.cos(ax)
    x, z = x * math.cos(ay) + z * math.sin(ay), -x * math.sin(ay) + z * math.cos(ay)
    x, y = x * math.cos(az) - y * math.sin(az), x * math.sin(az) + y * math.cos(az)
    return x, y, z


def place(angles, translation):
    def scene(p):
        return tuple(r + t for r, t in zip(rotate(p, angles), translation))
    centre = tuple((f - 0.5) * s for f, s in zip(EMITTER, SIZE))
    receiver = tuple((f - 0.5) * s for f, s in zip(RECEIVER, SIZE))
    print("[emitter]\ncenter = %.6f %.6f %.6f" % scene(centre))
    print("normal = %.6f %.6f %.6f" % rotate((1.0, 1.0, 1.0), angles))
    print("[receiver.corner]\nposition = %.6f %.6f %.6f" % scene(receiver))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--place", nargs=6, type=float, metavar="R_T")
    args = parser.parse_args()
    if args.place:
        place(args.place[:3], args.place[3:])
    else:
        write_obj(os.path.join(HERE, "box_pff.obj"))


if __name__ == "__main__":
    main()
