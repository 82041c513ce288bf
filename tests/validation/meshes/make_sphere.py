#!/usr/bin/env python3
"""Writes sphere_v11.obj (the room of tests/validation/sphere_v11.ini) beside this file.

An icosphere: the regular icosahedron, each triangle split into four LEVEL times (level 4: 5 120
triangles, 2 562 vertices), every new vertex projected onto the unit sphere. The polyhedron
inscribed in the sphere holds less volume than the sphere (0.22 % less at level 4); the vertices
are then scaled by a common factor so that the polyhedron's volume equals that of the unit
sphere, 4 pi / 3: the mesh is a sphere of radius 1 (in the file's unit) by volume, and a scene
scales it to the radius a it wants (`scale = a`). Every triangle winds counter-clockwise seen from
outside (normals out of the air). One surface (usemtl): wall.

    python3 make_sphere.py [--level 4] [--out sphere_v11.obj]
"""
import argparse
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def icosahedron():
    """The 12 vertices (on the unit sphere) and 20 outward-wound triangles of an icosahedron."""
    t = (1.0 + math.sqrt(5.0)) / 2.0
    raw = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0),
           (0, -1, t), (0, 1, t), (0, -1, -t), (0, 1, -t),
           (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    vertices = [unit(v) for v in raw]
    faces = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11),
             (1, 5, 9), (5, 11, 4), (11, 10, 2), (10, 7, 6), (7, 1, 8),
             (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9),
             (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    return vertices, faces


def unit(v):
    n = math.sqrt(sum(c * c for c in v))
    return tuple(c / n for c in v)


def subdivide(vertices, faces):
    """Each triangle into four; edge midpoints shared between neighbours, projected outwards."""
    midpoint = {}

    def mid(i, j):
        key = (min(i, j), max(i, j))
        if key not in midpoint:
            a, b = vertices[i], vertices[j]
            vertices.append(unit(tuple(0.5 * (p + q) for p, q in zip(a, b))))
            midpoint[key] = len(vertices) - 1
        return midpoint[key]

    out = []
    for a, b, c in faces:
        ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
        out += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
    return vertices, out


def signed_volume(vertices, faces):
    """V = (1/6) sum a . (b x c): positive when the normals point outwards."""
    v = 0.0
    for i, j, k in faces:
        a, b, c = vertices[i], vertices[j], vertices[k]
        v += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
              + a[2] * (b[0] * c[1] - b[1] * c[0]))
    return v / 6.0


def icosphere(level):
    vertices, faces = icosahedron()
    for _ in range(level):
        vertices, faces = subdivide(vertices, faces)
    inscribed = signed_volume(vertices, faces)
    s = (4.0 * math.pi / 3.0 / inscribed) ** (1.0 / 3.0)
    return [tuple(s * c for c in v) for v in vertices], faces, inscribed, s


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--level", type=int, default=4, help="subdivisions of the icosahedron")
    ap.add_argument("--out", default=os.path.join(HERE, "sphere_v11.obj"))
    args = ap.parse_args()
    vertices, faces, inscribed, s = icosphere(args.level)
    sphere = 4.0 * math.pi / 3.0
    with open(args.out, "w") as f:
        f.write("# V11: icosphere of level %d (%d triangles, %d vertices), written by "
                "make_sphere.py\n" % (args.level, len(faces), len(vertices)))
        f.write("# vertices at radius %.7f: the polyhedron's volume is that of the unit sphere "
                "(inscribed: %.4f %% less)\n" % (s, 100.0 * (1.0 - inscribed / sphere)))
        for v in vertices:
            f.write("v %.7f %.7f %.7f\n" % v)
        f.write("usemtl wall\n")
        for t in faces:
            f.write("f %d %d %d\n" % tuple(i + 1 for i in t))
    print("%s: %d triangles, %d vertices, vertex radius %.7f, volume %.7f (sphere %.7f)"
          % (args.out, len(faces), len(vertices), s, signed_volume(vertices, faces), sphere))


if __name__ == "__main__":
    main()
