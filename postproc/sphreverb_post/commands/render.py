"""Renders a mid-plane slice of a checkpoint or snapshot, coloured by pressure deflection, to PNG.

    xvfb-run -a python3 -m sphreverb_post render OUT/snapshots/snap_000000100.xmf out.png
        [--axis z] [--time T] [--range PA] [--size 1200x800]

FILE is an .xmf sidecar (one checkpoint or snapshot) or a temporal collection (checkpoints.xmf,
snapshots.xmf; --time picks the stored step nearest it, default the last; the printed time is
the stored one). Of each time step only the block "particles" is drawn (not the sources,
receivers and objects beside it). The particles of the lattice plane nearest the middle of the cloud normal to
--axis (sphreverb_post.slicing) are drawn as points seen along that axis, coloured by
`pressure` (Pa) with a symmetric blue-white-red scale (--range: its half-width; default the
largest |p'| on the slice). ParaView renders only under a display:
run it with xvfb-run.
"""
import argparse
import sys


from sphreverb_post.slicing import plane_window, stored_time


def parse(argv, prog):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("xmf", help="an .xmf sidecar or a temporal collection of them")
    ap.add_argument("png", help="the image to write")
    ap.add_argument("--axis", choices="xyz", default="z", help="the slice's normal")
    ap.add_argument("--time", type=float, help="time to show, s (the nearest stored step)")
    ap.add_argument("--range", type=float, help="half-width of the colour scale, Pa")
    ap.add_argument("--size", default="1200x800", help="image size WxH, pixels")
    return ap.parse_args(argv)


def fetch(proxy, t, paraview):
    """The proxy's output at time t (None: its only state) as one VTK data set: the first block
    (the particles) of a multiblock."""
    if t is not None:
        paraview.UpdatePipeline(time=t, proxy=proxy)
    else:
        paraview.UpdatePipeline(proxy=proxy)
    data = paraview.servermanager.Fetch(proxy)
    if data is not None and data.IsA("vtkMultiBlockDataSet"):
        data = data.GetBlock(0)
    return data


def axis_coords(data, k):
    """The points' coordinates along axis k (m)."""
    from vtkmodules.util.numpy_support import vtk_to_numpy
    return vtk_to_numpy(data.GetPoints().GetData())[:, k]


def main(argv=None, prog=None):
    a = parse(argv, prog)
    import paraview.simple as pv  # only here: --help works without ParaView
    if pv.OpenDataFile(a.xmf) is None:
        sys.exit(f"{a.xmf}: ParaView cannot open it")
    # Xdmf3ReaderT keeps the blocks of a time step apart (Xdmf3ReaderS, OpenDataFile's choice,
    # would join them into pieces of one data set); the particles are the first block.
    reader = pv.Xdmf3ReaderT(FileName=[a.xmf])
    t = stored_time(getattr(reader, "TimestepValues", None), a.time)
    data = fetch(reader, t, pv)
    if data is None or data.GetPointData().GetArray("pressure") is None:
        sys.exit(f"{a.xmf}: no 'pressure' array (add it to [output] snapshot_fields)")
    k = "xyz".index(a.axis)
    b = data.GetBounds()
    lo, hi = b[2 * k], b[2 * k + 1]
    n = max(1, data.GetNumberOfPoints())
    # Lattice spacing from the extent and the count (a cubic lattice): dx ~ (volume / N)^(1/3).
    vol = max((b[1] - b[0]) * (b[3] - b[2]) * (b[5] - b[4]), 1e-30)
    dx = (vol / n) ** (1.0 / 3.0)
    w_lo, w_hi, plane = plane_window(axis_coords(data, k), 0.5 * (lo + hi), dx)
    coord = pv.Calculator(Input=reader, ResultArrayName="plane_coord",
                          Function=f"coords{a.axis.upper()}")
    sl = pv.Threshold(Input=coord, Scalars=["POINTS", "plane_coord"])
    if hasattr(sl, "LowerThreshold"):
        sl.LowerThreshold, sl.UpperThreshold = w_lo, w_hi
    else:  # ParaView < 5.10
        sl.ThresholdRange = [w_lo, w_hi]
    s = fetch(sl, t, pv)
    if s is None or s.GetNumberOfPoints() == 0:
        sys.exit(f"{a.xmf}: no particles on the plane {a.axis} = {plane:.4g} m")
    prange = s.GetPointData().GetArray("pressure").GetRange()
    half = a.range or max(abs(prange[0]), abs(prange[1]), 1e-12)
    w, h = (int(v) for v in a.size.split("x"))
    view = pv.GetActiveViewOrCreate("RenderView")
    view.ViewSize = [w, h]
    view.OrientationAxesVisibility = 0
    if t is not None:
        view.ViewTime = t
    disp = pv.Show(sl, view)
    disp.SetRepresentationType("Points")
    disp.PointSize = max(2.0, 0.9 * min(w, h) / max(1.0, (hi - lo) / dx) / 3.0)
    pv.ColorBy(disp, ("POINTS", "pressure"))
    lut = pv.GetColorTransferFunction("pressure")
    lut.ApplyPreset("Cool to Warm", True)
    lut.RescaleTransferFunction(-half, half)
    bar = pv.GetScalarBar(lut, view)
    bar.Title, bar.ComponentTitle, bar.Visibility = "p' (Pa)", "", 1
    view.CameraPosition = [0.0, 0.0, 0.0]
    view.CameraPosition[k] = 1.0
    view.CameraFocalPoint = [0.0, 0.0, 0.0]
    view.CameraViewUp = [0.0, 1.0, 0.0] if a.axis != "y" else [0.0, 0.0, 1.0]
    pv.ResetCamera(view)
    pv.SaveScreenshot(a.png, view, ImageResolution=[w, h])
    when = "t not stored" if t is None else f"t = {t:.6g} s"
    if t is None and a.time is not None:
        when += " (--time ignored)"
    if t is not None and a.time is not None and t != a.time:
        when += f" (stored step nearest the asked {a.time:.6g} s)"
    print(f"wrote {a.png}: {s.GetNumberOfPoints()} particles on {a.axis} = {plane:.4g} m, "
          f"{when}, p' in [{prange[0]:.3g}, {prange[1]:.3g}] Pa")
    return 0
