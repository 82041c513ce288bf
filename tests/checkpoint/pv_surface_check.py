#!/usr/bin/python3
"""pv_surface_check.py GEOMETRY.xmf TRIANGLES MATERIALS [ID:X0,X1,Y0,Y1,Z0,Z1]: opens the run's
surface file with ParaView's own reader and checks that it holds TRIANGLES triangle cells, that
their cell array "material" equals /surfaces/material of the .h5 beside it, that the material
names (/surfaces/material_names, id order) are MATERIALS (comma-separated), and, if given, that
the corners of the triangles of material ID span the box X0..Z1 (m, to 1e-6 m): a mesh is
where the scene's transform put it."""
import os
import sys

import h5py
import numpy as np
from paraview.simple import OpenDataFile, UpdatePipeline, servermanager
from vtk.util.numpy_support import vtk_to_numpy

from pv_args import run_groups  # beside this script

VTK_TRIANGLE = 5


def main(path, triangles, materials, box=None):
    reader = OpenDataFile(path)
    assert reader is not None, f"{path}: ParaView has no reader for it"
    UpdatePipeline(proxy=reader)
    data = servermanager.Fetch(reader)
    if data.IsA("vtkMultiBlockDataSet"):
        data = data.GetBlock(0)
    n = data.GetNumberOfCells()
    assert n == int(triangles), f"{path}: {n} cells, expected {triangles} triangles"
    kinds = {data.GetCellType(i) for i in range(n)}
    assert kinds == {VTK_TRIANGLE}, f"{path}: cell types {kinds}, expected triangles only"
    ids = data.GetCellData().GetArray("material")
    assert ids is not None, f"{path}: no cell array 'material'"
    with h5py.File(os.path.join(os.path.dirname(path), "geometry.h5"), "r") as f:
        stored = f["/surfaces/material"][()]
        names = f["/surfaces/material_names"][()].decode().split()
    assert np.array_equal(vtk_to_numpy(ids), stored), f"{path}: material ids differ from the .h5"
    assert names == materials.split(","), f"{path}: materials {names}, expected {materials}"
    if box:
        mid, bounds = box.split(":")
        want = np.array([float(v) for v in bounds.split(",")])
        corners = np.array([data.GetCell(i).GetPoints().GetPoint(k) for i in range(n)
                            if stored[i] == int(mid) for k in range(3)])
        assert len(corners), f"{path}: no triangle of material {mid}"
        got = np.column_stack([corners.min(axis=0), corners.max(axis=0)]).ravel()
        assert np.allclose(got, want, atol=1e-6), f"{path}: material {mid} spans {got}, expected {want}"
        print(f"ok {path}: material {mid} ({names[int(mid)]}) spans {got.tolist()} m")
    print(f"ok {path}: {n} triangles, material ids {sorted(set(stored.tolist()))} = {names}")


if __name__ == "__main__":
    run_groups(main, sys.argv[1:])
