#!/usr/bin/env python3
"""Writes tube_v12.obj (the impedance tube of tests/validation/tube_v12.ini) beside this file, and
prints the scene positions of the emitter and the receivers for a rotation and translation.

tube_v12.obj: the V6 impedance tube as a room mesh: a square duct 1 m long with a 10 x 10 cm
section, its axis the file's x axis from the source end (x = 0, centre at the origin) to the
sample end (x = 1 m). Surfaces (usemtl): `sample` (the end face x = 1 m, the material under
test) and `tube` (the four side walls and the source end face). Every triangle winds
counter-clockwise seen from outside the duct (normals from the air into the walls).

    make_tube_v12.py                         writes tube_v12.obj
    make_tube_v12.py --place RX RY RZ TX TY TZ [--dx M]
        prints, for the Euler rotation RX RY RZ (degrees, x then y then z, as the scene's
        `rotation`) and the translation, the emitter's centre and normal (a piston on the source
        end face, its centre 0.75 dx into the air: default dx = 0.01 m) and the receivers on the
        axis: mic1 0.3 m, mic3 0.25 m, mic2 0.2 m from the sample.
"""
import argparse
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
LENGTH, SIDE = 1.0, 0.1  # m


def tube():
    """Vertices and named quads of the duct."""
    h = 0.5 * SIDE
    vertices = []
    for x in (0.0, LENGTH):
        vertices += [(x, -h, -h), (x, h, -h), (x, h, h), (x, -h, h)]
    # 0..3 at x = 0, 4..7 at x = LENGTH; each quad counter-clockwise seen from outside.
    quads = [("tube", (0, 3, 2, 1)),    # source end, normal -x
             ("sample", (4, 5, 6, 7)),  # sample end, normal +x
             ("tube", (0, 1, 5, 4)),    # z = -h, normal -z
             ("tube", (3, 7, 6, 2)),    # z = +h, normal +z
             ("tube", (0, 4, 7, 3)),    # y = -h, normal -y
             ("tube", (1, 2, 6, 5))]    # y = +h, normal +y
    return vertices, quads


def normal(vertices, quad):
    a, b, c = (vertices[i] for i in quad[:3])
    u = [b[k] - a[k] for k in range(3)]
    v = [c[k] - a[k] for k in range(3)]
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def write_obj(path):
    vertices, quads = tube()
    for name, q in quads:  # outward normals: away from the duct's centre
        n = normal(vertices, q)
        centre = [sum(vertices[i][k] for i in q) / 4.0 for k in range(3)]
        assert sum(n[k] * (centre[k] - (0.5 * LENGTH if k == 0 else 0.0)) for k in range(3)) > 0
    with open(path, "w") as f:
        f.write("# V12: the V6 impedance tube (1 m x 10 x 10 cm) as a room mesh, written by\n")
        f.write("# make_tube_v12.py; surfaces sample (x = 1 m) and tube; normals from the air into "
                "the walls\n")
        for v in vertices:
            f.write("v %.6f %.6f %.6f\n" % v)
        for name, (a, b, c, d) in quads:
            f.write("usemtl %s\n" % name)
            f.write("f %d %d %d\n" % (a + 1, b + 1, c + 1))
            f.write("f %d %d %d\n" % (a + 1, c + 1, d + 1))


def euler_xyz(rx, ry, rz):
    """R = Rz(rz) Ry(ry) Rx(rx), degrees (docs/geometry.md)."""
    cx, sx = math.cos(math.radians(rx)), math.sin(math.radians(rx))
    cy, sy = math.cos(math.radians(ry)), math.sin(math.radians(ry))
    cz, sz = math.cos(math.radians(rz)), math.sin(math.radians(rz))
    X = [[1, 0, 0], [0, cx, -sx], [0, sx, cx]]
    Y = [[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]]
    Z = [[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]]

    def mul(a, b):
        return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
    return mul(Z, mul(Y, X))


def place(rotation, translation, dx):
    R = euler_xyz(*rotation)

    def at(p):
        return [sum(R[i][k] * p[k] for k in range(3)) + translation[i] for i in range(3)]

    def fmt(p):
        return " ".join("%.6f" % v for v in p)
    axis = [R[i][0] for i in range(3)]
    print("[emitter] center = " + fmt(at((0.75 * dx, 0.0, 0.0))))
    print("[emitter] normal = " + fmt(axis))
    for name, from_sample in (("mic1", 0.3), ("mic3", 0.25), ("mic2", 0.2)):
        print("[receiver.%s] position = %s" % (name, fmt(at((LENGTH - from_sample, 0.0, 0.0)))))
    tilt = [math.degrees(math.acos(abs(a))) for a in axis]
    print("# axis angles to x, y, z: %.2f %.2f %.2f degrees" % tuple(tilt))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--place", type=float, nargs=6, metavar="V")
    ap.add_argument("--dx", type=float, default=0.01)
    args = ap.parse_args()
    if args.place:
        place(args.place[:3], args.place[3:], args.dx)
    else:
        write_obj(os.path.join(HERE, "tube_v12.obj"))


if __name__ == "__main__":
    main()
