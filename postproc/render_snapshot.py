#!/usr/bin/python3
"""Renders a mid-plane slice of a checkpoint or snapshot, coloured by pressure deflection, to PNG.

    xvfb-run -a /usr/bin/python3 postproc/render_snapshot.py OUT/snapshots/snap_000000100.xmf out.png
        [--axis z] [--time T] [--range PA] [--size 1200x800]

FILE is an .xmf sidecar (one checkpoint or snapshot) or a temporal collection (checkpoints.xmf,
snapshots.xmf; --time picks the step, default the last). The particles within half a lattice
spacing of the plane through the middle of the cloud normal to --axis are drawn as points seen
along that axis, coloured by `pressure` (Pa) with a symmetric blue-white-red scale (--range:
its half-width; default the largest |p'| on the slice). ParaView renders only under a display:
run it with xvfb-run.
"""
import argparse
import sys

from paraview.simple import (
    Calculator,
    ColorBy,
    GetActiveViewOrCreate,
    GetColorTransferFunction,
    GetScalarBar,
    OpenDataFile,
    ResetCamera,
    SaveScreenshot,
    Show,
    Threshold,
    UpdatePipeline,
    servermanager,
)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("xmf")
    ap.add_argument("png")
    ap.add_argument("--axis", choices="xyz", default="z")
    ap.add_argument("--time", type=float)
    ap.add_argument("--range", type=float, help="half-width of the colour scale, Pa")
    ap.add_argument("--size", default="1200x800")
    a = ap.parse_args(argv)
    reader = OpenDataFile(a.xmf)
    if reader is None:
        sys.exit(f"{a.xmf}: ParaView cannot open it")
    steps = list(getattr(reader, "TimestepValues", []) or [])
    t = a.time if a.time is not None else (steps[-1] if steps else None)
    UpdatePipeline(time=t, proxy=reader) if t is not None else UpdatePipeline(proxy=reader)
    data = servermanager.Fetch(reader)
    if data.IsA("vtkMultiBlockDataSet"):
        data = data.GetBlock(0)
    if data.GetPointData().GetArray("pressure") is None:
        sys.exit(f"{a.xmf}: no 'pressure' array (add it to [output] snapshot_fields)")
    k = "xyz".index(a.axis)
    b = data.GetBounds()
    lo, hi = b[2 * k], b[2 * k + 1]
    n = max(1, data.GetNumberOfPoints())
    # Lattice spacing from the extent and the count (a cubic lattice): dx ~ (volume / N)^(1/3).
    vol = max((b[1] - b[0]) * (b[3] - b[2]) * (b[5] - b[4]), 1e-30)
    dx = (vol / n) ** (1.0 / 3.0)
    mid = 0.5 * (lo + hi)
    coord = Calculator(Input=reader, ResultArrayName="plane_coord", Function=f"coords{a.axis.upper()}")
    sl = Threshold(Input=coord, Scalars=["POINTS", "plane_coord"])
    if hasattr(sl, "LowerThreshold"):
        sl.LowerThreshold, sl.UpperThreshold = mid - 0.5 * dx, mid + 0.5 * dx
    else:  # ParaView < 5.10
        sl.ThresholdRange = [mid - 0.5 * dx, mid + 0.5 * dx]
    if t is not None:
        UpdatePipeline(time=t, proxy=sl)
    else:
        UpdatePipeline(proxy=sl)
    s = servermanager.Fetch(sl)
    if s.IsA("vtkMultiBlockDataSet"):
        s = s.GetBlock(0)
    if s is None or s.GetNumberOfPoints() == 0:
        sys.exit(f"{a.xmf}: no particles on the mid-plane {a.axis} = {mid:.4g} m")
    prange = s.GetPointData().GetArray("pressure").GetRange()
    half = a.range or max(abs(prange[0]), abs(prange[1]), 1e-12)
    w, h = (int(v) for v in a.size.split("x"))
    view = GetActiveViewOrCreate("RenderView")
    view.ViewSize = [w, h]
    view.OrientationAxesVisibility = 0
    if t is not None:
        view.ViewTime = t
    disp = Show(sl, view)
    disp.SetRepresentationType("Points")
    disp.PointSize = max(2.0, 0.9 * min(w, h) / max(1.0, (hi - lo) / dx) / 3.0)
    ColorBy(disp, ("POINTS", "pressure"))
    lut = GetColorTransferFunction("pressure")
    lut.ApplyPreset("Cool to Warm", True)
    lut.RescaleTransferFunction(-half, half)
    bar = GetScalarBar(lut, view)
    bar.Title, bar.ComponentTitle, bar.Visibility = "p' (Pa)", "", 1
    view.CameraPosition = [0.0, 0.0, 0.0]
    view.CameraPosition[k] = 1.0
    view.CameraFocalPoint = [0.0, 0.0, 0.0]
    view.CameraViewUp = [0.0, 1.0, 0.0] if a.axis != "y" else [0.0, 0.0, 1.0]
    ResetCamera(view)
    SaveScreenshot(a.png, view, ImageResolution=[w, h])
    print(f"wrote {a.png}: {s.GetNumberOfPoints()} particles on {a.axis} = {mid:.4g} m, "
          f"t = {t if t is not None else 0:.6g} s, p' in [{prange[0]:.3g}, {prange[1]:.3g}] Pa")


if __name__ == "__main__":
    main(sys.argv[1:])
