#!/usr/bin/env python3
"""Writes table.obj and pillar.obj (the objects of configs/furnished_room.ini) beside this file.

table.obj: a 0.60 x 0.40 m top, 5 cm thick, at 0.45-0.50 m, on four 5 x 5 cm legs standing on
z = 0, centred on x = y = 0. One closed surface: the top and the legs are one solid, built from
the cells of a rectilinear grid (the faces between a solid and an empty cell), so neighbouring
faces share their edges and corners (no T-junctions). Surfaces (usemtl): top, legs.
pillar.obj: a regular octagonal prism, 0.10 m from its axis to each corner, 0.90 m high from
z = 0, centred on x = y = 0. Surfaces: pillar.
Every triangle winds counter-clockwise seen from outside the solid (normals out of it).
"""
import itertools
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def write_obj(path, header, vertices, groups):
    with open(path, "w") as f:
        for line in header:
            f.write("# " + line + "\n")
        for v in vertices:
            f.write("v %.6f %.6f %.6f\n" % v)
        for name, tris in groups:
            f.write("usemtl %s\n" % name)
            for t in tris:
                f.write("f %d %d %d\n" % tuple(i + 1 for i in t))


def table():
    xs = [-0.30, -0.25, 0.25, 0.30]
    ys = [-0.20, -0.15, 0.15, 0.20]
    zs = [0.0, 0.45, 0.50]
    legs = {(0, 0), (0, 2), (2, 0), (2, 2)}

    def solid(i, j, k):
        if not (0 <= i < 3 and 0 <= j < 3 and 0 <= k < 2):
            return False
        return k == 1 or (i, j) in legs

    index, vertices = {}, []

    def vid(i, j, k):
        if (i, j, k) not in index:
            index[(i, j, k)] = len(vertices)
            vertices.append((xs[i], ys[j], zs[k]))
        return index[(i, j, k)]

    top, leg = [], []
    for i, j, k in itertools.product(range(3), range(3), range(2)):
        if not solid(i, j, k):
            continue
        for axis in range(3):
            for side in (0, 1):
                n = [i, j, k]
                n[axis] += 1 if side else -1
                if solid(*n):
                    continue
                # The face's four corners, counter-clockwise seen from outside (+axis if side).
                base = [i, j, k]
                base[axis] += side
                a1, a2 = (axis + 1) % 3, (axis + 2) % 3
                quad = []
                for d1, d2 in ((0, 0), (1, 0), (1, 1), (0, 1)):
                    c = list(base)
                    c[a1] += d1
                    c[a2] += d2
                    quad.append(vid(*c))
                if not side:
                    quad.reverse()
                tris = [(quad[0], quad[1], quad[2]), (quad[0], quad[2], quad[3])]
                (top if k == 1 else leg).extend(tris)
    write_obj(os.path.join(HERE, "table.obj"),
              ["A table: 0.60 x 0.40 m top, 5 cm thick, at z = 0.45-0.50 m, on four 5 x 5 cm legs",
               "standing on z = 0, centred on x = y = 0; normals out of the solid.",
               "Written by make_furniture.py."],
              vertices, [("top", top), ("legs", leg)])


def pillar():
    r, h, n = 0.10, 0.90, 8
    vertices = []
    for z in (0.0, h):
        for s in range(n):
            a = 2 * math.pi * (s + 0.5) / n
            vertices.append((r * math.cos(a), r * math.sin(a), z))
    tris = []
    for s in range(n):
        a, b = s, (s + 1) % n
        tris += [(a, b, n + b), (a, n + b, n + a)]
    for s in range(1, n - 1):
        tris.append((0, s + 1, s))          # bottom, seen from below
        tris.append((n, n + s, n + s + 1))  # top, seen from above
    write_obj(os.path.join(HERE, "pillar.obj"),
              ["A pillar: a regular octagonal prism, 0.10 m from the axis to each corner, 0.90 m",
               "high from z = 0, centred on x = y = 0 (two faces normal to x, two to y); normals",
               "out of the solid. Written by make_furniture.py."],
              vertices, [("pillar", tris)])


if __name__ == "__main__":
    table()
    pillar()
