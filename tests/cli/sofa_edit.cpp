// sofa_edit IN.sofa OUT.sofa nan|zero|rate: OUT is a copy of IN (a SOFA file, HDF5) with every
// Data.IR tap NaN (nan) or zero (zero), or Data.SamplingRate 0 (rate): the defective HRIR sets the
// binaural rendering must refuse (tests/cli/hybrid_inputs.sh).
#include <hdf5.h>

#include <filesystem>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

namespace {

int set_all(hid_t file, const char* name, double value) {
  const hid_t set = H5Dopen2(file, name, H5P_DEFAULT);
  if (set < 0) return 1;
  const hid_t space = H5Dget_space(set);
  const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space));
  std::vector<double> x(n, value);
  const herr_t err = H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, x.data());
  H5Sclose(space);
  H5Dclose(set);
  return err < 0 ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: sofa_edit IN.sofa OUT.sofa nan|zero|rate\n";
    return 2;
  }
  const std::string mode = argv[3];
  std::filesystem::copy_file(argv[1], argv[2], std::filesystem::copy_options::overwrite_existing);
  const hid_t file = H5Fopen(argv[2], H5F_ACC_RDWR, H5P_DEFAULT);
  if (file < 0) return 1;
  int rc = 2;
  if (mode == "nan") rc = set_all(file, "Data.IR", std::numeric_limits<double>::quiet_NaN());
  if (mode == "zero") rc = set_all(file, "Data.IR", 0.0);
  if (mode == "rate") rc = set_all(file, "Data.SamplingRate", 0.0);
  H5Fclose(file);
  return rc;
}
