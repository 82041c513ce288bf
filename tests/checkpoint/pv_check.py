#!/usr/bin/python3
"""pv_check.py FILE.xmf POINTS ARRAYS TIMES: opens FILE.xmf with ParaView's own readers
(paraview.simple.OpenDataFile, then Xdmf3ReaderT, which keeps the blocks of a time step apart)
and checks the point count of the block "particles" at every time step, its point-data array
names (comma-separated) and the time steps (comma-separated seconds, or '-' for one grid).
Several files: FILE POINTS ARRAYS TIMES -- FILE ... in one call (one ParaView start); a broken
reference aborts ParaView, so the last "checking FILE" line names the file that broke it."""
import re
import sys

from paraview.simple import OpenDataFile, UpdatePipeline, Xdmf3ReaderT
from vtkmodules.vtkCommonDataModel import vtkCompositeDataSet

from pv_args import run_groups  # beside this script


def particles(data):
    """The block named "particles" (or the data set itself: a file of the particles alone); the
    readers append "[k]" to the name at the k-th time step of a collection."""
    if not data.IsA("vtkMultiBlockDataSet"):
        return data
    for i in range(data.GetNumberOfBlocks()):
        meta = data.GetMetaData(i) if data.HasMetaData(i) else None
        b = data.GetBlock(i)
        name = meta.Get(vtkCompositeDataSet.NAME()) if meta is not None else None
        if name is not None and re.fullmatch(r"particles(\[\d+\])?", name):
            return b
        if b is not None and b.IsA("vtkMultiBlockDataSet"):
            found = particles(b)
            if found is not None:
                return found
    return None


def main(path, points, arrays, times):
    assert OpenDataFile(path) is not None, f"{path}: ParaView has no reader for it"
    reader = Xdmf3ReaderT(FileName=[path])
    steps = reader.TimestepValues
    steps = [steps] if isinstance(steps, float) else list(steps or [])
    if times != "-":
        want = [float(t) for t in times.split(",")]
        assert len(steps) == len(want), f"{path}: {len(steps)} time steps, expected {len(want)}"
        for a, b in zip(steps, want):
            assert abs(a - b) <= 1e-12 * max(1.0, abs(b)), f"{path}: time {a} != {b}"
    for t in steps or [None]:
        if t is None:
            UpdatePipeline(proxy=reader)
        else:
            UpdatePipeline(time=t, proxy=reader)
        data = particles(reader.GetClientSideObject().GetOutputDataObject(0))
        assert data is not None, f"{path} at t = {t}: no block 'particles'"
        n, cells = data.GetNumberOfPoints(), data.GetNumberOfCells()
        assert n == int(points), f"{path} at t = {t}: {n} points, expected {points}"
        assert cells == int(points), f"{path} at t = {t}: {cells} vertex cells, expected {points}"
        pd = data.GetPointData()
        names = sorted(pd.GetArrayName(i) for i in range(pd.GetNumberOfArrays()))
        assert names == sorted(arrays.split(",")), f"{path}: arrays {names}, expected {arrays}"
        rng = pd.GetArray("density").GetRange() if "density" in names else (1, 1)
        assert 0.5 < rng[0] <= rng[1] < 2.0, f"{path}: density range {rng}"
        b = data.GetBounds()
        assert b[0] >= -0.01 and b[1] <= 0.61, f"{path}: x bounds {b[:2]}"
    print(f"ok {path}: {points} points, arrays {arrays}, {len(steps)} time step(s)")


if __name__ == "__main__":
    run_groups(main, sys.argv[1:])
