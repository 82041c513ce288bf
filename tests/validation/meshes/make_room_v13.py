#!/usr/bin/env python3
"""Writes room_v13.obj (the room of tests/validation/room_v13.ini) and cube_v13.obj beside this file.

room_v13.obj: V7's 0.75 m cube with its x_max wall slanted: a prism along y whose xz section is
the trapezoid (0, 0), (0.9, 0), (0.6, 0.75), (0, 0.75) m: the floor 0.9 m deep, the ceiling
0.6 m, the slanted wall 21.8 degrees from the vertical. Volume 0.421875 m^3 (the cube's), area
3.4183 m^2. Every corner lies a whole number of 12.5 mm and 15 mm spacings from the origin.
cube_v13.obj: the 0.75 m cube itself, the same surface names (x_max upright).
Surfaces (usemtl): x_min, x_max, y_min, y_max, floor, ceiling. Every triangle winds
counter-clockwise seen from outside the room (normals from the air into the walls).
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def prism(x_floor, x_ceiling, depth=0.75, height=0.75):
    """Vertices and named quads of the prism along y with the trapezoidal xz section."""
    vertices = []
    for y in (0.0, depth):
        vertices += [(0.0, y, 0.0), (x_floor, y, 0.0), (x_ceiling, y, height), (0.0, y, height)]
    # 0..3 at y = 0, 4..7 at y = depth; each quad counter-clockwise seen from outside.
    quads = [("x_min", (0, 3, 7, 4)), ("x_max", (1, 5, 6, 2)), ("y_min", (0, 1, 2, 3)),
             ("y_max", (4, 7, 6, 5)), ("floor", (0, 4, 5, 1)), ("ceiling", (3, 2, 6, 7))]
    return vertices, quads


def write_obj(path, header, vertices, quads):
    with open(path, "w") as f:
        for line in header:
            f.write("# " + line + "\n")
        for v in vertices:
            f.write("v %.6f %.6f %.6f\n" % v)
        for name, (a, b, c, d) in quads:
            f.write("usemtl %s\n" % name)
            f.write("f %d %d %d\n" % (a + 1, b + 1, c + 1))
            f.write("f %d %d %d\n" % (a + 1, c + 1, d + 1))


def main():
    write_obj(os.path.join(HERE, "room_v13.obj"),
              ["V13: V7's 0.75 m cube with the x_max wall slanted (floor 0.9 m, ceiling 0.6 m deep),",
               "written by make_room_v13.py; normals from the air into the walls"],
              *prism(0.9, 0.6))
    write_obj(os.path.join(HERE, "cube_v13.obj"),
              ["V13: V7's 0.75 m cube as a mesh, written by make_room_v13.py; normals from the air",
               "into the walls"],
              *prism(0.75, 0.75))


if __name__ == "__main__":
    main()
