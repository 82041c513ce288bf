#!/usr/bin/python3
"""pv_check.py FILE.xmf POINTS ARRAYS TIMES: opens FILE.xmf with ParaView's own reader
(paraview.simple.OpenDataFile) and checks the point count at every time step, the point-data
array names (comma-separated) and the time steps (comma-separated seconds, or '-' for one grid).
Run each file in its own process: a broken reference aborts ParaView."""
import sys

from paraview.simple import OpenDataFile, UpdatePipeline, servermanager


def main(path, points, arrays, times):
    reader = OpenDataFile(path)
    assert reader is not None, f"{path}: ParaView has no reader for it"
    steps = list(getattr(reader, "TimestepValues", []) or [])
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
        data = servermanager.Fetch(reader)
        if data.IsA("vtkMultiBlockDataSet"):
            data = data.GetBlock(0)
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
    main(*sys.argv[1:5])
