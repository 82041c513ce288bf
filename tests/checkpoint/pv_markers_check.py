#!/usr/bin/python3
"""pv_markers_check.py FILE.xmf POINTS [MOVED]: opens FILE.xmf (a checkpoint's or snapshot's sidecar, or
their temporal collection) with ParaView's XDMF readers that keep blocks apart (Xdmf3ReaderT and
XDMFReader) and checks at every time step that the block "particles" holds POINTS points, and that
the blocks "sources", "receivers", "emitter" and "objects" are where the scene puts them at the
step's stage-2 time: each [emitter.NAME] source and [receiver.NAME] on its linear path (to 1e-12
m), the point arrays "source" and "receiver" 0..n-1, the [emitter] disc's centre, and each moving
[boundary.NAME] object's triangles those of geometry.h5 moved by its path's offset, with the cell
array "object". The scene is read from the checkpoints' /scene/text; the stage-2 time of a step is
(step - /run/stage1_steps) dt (a single file's step: the "step" attribute of its .h5). MOVED: at least that many time steps are in stage 2 after its
start (where the paths have moved on). Prints the checked positions."""
import configparser
import glob
import os
import re
import sys

import h5py
import numpy as np
from paraview.simple import UpdatePipeline, XDMFReader, Xdmf3ReaderT
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkCommonDataModel import vtkCompositeDataSet

from pv_args import run_groups  # beside this script


def vec(text):
    return np.array([float(v) for v in text.split()])


def keyframes(section):
    """The section's keyframes [(t, x)], linear (the only interpolation this test uses)."""
    if "path" not in section:
        return [(0.0, vec(section.get("position", section.get("center"))))]
    assert section.get("interpolation", "linear") == "linear"
    frames = [vec(k) for k in section["path"].split(";")]
    return [(f[0], f[1:4]) for f in frames]


def at(frames, t):
    if t <= frames[0][0]:
        return frames[0][1]
    for (t0, x0), (t1, x1) in zip(frames, frames[1:]):
        if t <= t1:
            return x0 + (t - t0) / (t1 - t0) * (x1 - x0)
    return frames[-1][1]


def blocks(data, out=None):
    """Leaf data sets by block name, in order; the readers make a name unique over the time steps
    of a collection by a suffix "[k]" (k = 1, 2, ... after the first step), left out here."""
    out = {} if out is None else out
    for i in range(data.GetNumberOfBlocks()):
        meta = data.GetMetaData(i) if data.HasMetaData(i) else None
        name = meta.Get(vtkCompositeDataSet.NAME()) if meta is not None else None
        name = re.sub(r"\[\d+\]$", "", name) if name else name
        b = data.GetBlock(i)
        if b is not None and b.IsA("vtkMultiBlockDataSet"):
            blocks(b, out)
        elif b is not None:
            out[name] = b
    return out


def points(b):
    return vtk_to_numpy(b.GetPoints().GetData()).astype(float)


def point_ids(b, name):
    a = b.GetPointData().GetArray(name) if b.GetPointData() else None
    assert a is not None, f"no point array '{name}'"
    return vtk_to_numpy(a).tolist()


def main(path, n, moved="0"):
    run = os.path.dirname(os.path.dirname(os.path.abspath(path)))
    ckpt = sorted(glob.glob(os.path.join(run, "checkpoints", "step_*.h5")))[-1]
    with h5py.File(ckpt, "r") as f:
        scene = f["/scene/text"][()].decode()
        dt, stage1 = float(f["/run/dt"][0]), int(f["/run/stage1_steps"][0])
    with h5py.File(os.path.join(run, "geometry.h5"), "r") as f:
        rest = f["/surfaces/vertices"][()]
    ini = configparser.ConfigParser(inline_comment_prefixes=("#",), delimiters=("=",))
    ini.read_string(scene)
    sections = ini.sections()
    sources = [s for s in sections if s.startswith("emitter.")]
    receivers = [s for s in sections if s.startswith("receiver.")]
    objects = [s for s in sections if s.startswith("boundary.") and "path" in ini[s]]
    for reader in (Xdmf3ReaderT(FileName=[path]), XDMFReader(FileNames=[path])):
        kind = reader.GetXMLName()
        steps = reader.TimestepValues
        steps = [steps] if isinstance(steps, float) else list(steps or [])
        alone = not steps  # one file: a grid without time steps, its step in the .h5
        if alone:
            with h5py.File(os.path.splitext(path)[0] + ".h5", "r") as f:
                steps = [int(f.attrs["step"]) * dt]
        later = [t for t in steps if round(t / dt) > stage1]
        assert len(later) >= int(moved), f"{path}: {len(later)} time steps after stage 2 began"
        for t in steps:
            if alone:
                UpdatePipeline(proxy=reader)
            else:
                UpdatePipeline(time=t, proxy=reader)
            got = blocks(reader.GetClientSideObject().GetOutputDataObject(0))
            want = ["particles"] + (["sources"] if sources else []) + \
                (["receivers"] if receivers else []) + ["emitter"] + (["objects"] if objects else [])
            assert list(got) == want, f"{path} ({kind}) at t = {t}: blocks {list(got)}"
            assert got["particles"].GetNumberOfPoints() == int(n), f"{path}: particles"
            ta = round(t / dt) - stage1
            ta = max(ta, 0) * dt  # the stage-2 time of the step (0 in stage 1)
            for block, names, array in (("sources", sources, "source"),
                                        ("receivers", receivers, "receiver")):
                if not names:
                    continue
                b = got[block]
                want_x = np.array([at(keyframes(ini[s]), ta) for s in names])
                assert b.GetNumberOfCells() == len(names), f"{block}: {b.GetNumberOfCells()} cells"
                assert point_ids(b, array) == list(range(len(names))), f"{block}: ids"
                assert np.allclose(points(b), want_x, rtol=0, atol=1e-12), \
                    f"{path} ({kind}) at t = {t}: {block} at {points(b).tolist()}, " \
                    f"expected {want_x.tolist()}"
                print(f"ok t = {t:.6g} s (stage 2: {ta:.6g} s): {block} at {points(b).tolist()}")
            centre = vec(ini["emitter"]["center"])
            assert np.allclose(points(got["emitter"]), [centre], rtol=0, atol=1e-12), "emitter"
            if objects:
                b = got["objects"]
                ids = vtk_to_numpy(b.GetCellData().GetArray("object")).tolist()
                xs = points(b)
                start = 0
                for k, s in enumerate(objects):
                    cells = [c for c in range(b.GetNumberOfCells()) if ids[c] == k]
                    assert cells, f"objects: no triangle of {s}"
                    frames = keyframes(ini[s])
                    offset = at(frames, ta) - frames[0][1]
                    corners = {b.GetCell(c).GetPointId(j) for c in cells for j in range(3)}
                    for p in corners:
                        moved_back = xs[p] - offset
                        gap = np.min(np.linalg.norm(rest - moved_back, axis=1))
                        assert gap < 1e-12, f"{path} at t = {t}: {s}'s vertex {xs[p]} is not " \
                            f"a geometry.h5 vertex moved by {offset.tolist()} (off by {gap})"
                    start += len(cells)
                    print(f"ok t = {t:.6g} s: {s}, {len(cells)} triangles, moved by "
                          f"{offset.tolist()}")
                assert start == b.GetNumberOfCells()
    print(f"ok {path}: the markers at {len(steps)} time step(s), both readers")


if __name__ == "__main__":
    run_groups(main, sys.argv[1:])
