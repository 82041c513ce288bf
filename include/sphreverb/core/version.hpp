// Versions of the program and the libraries it runs with (for summary.json and --version).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace sphreverb {

// (name, version) pairs: sphreverb, mpi, hdf5, libsndfile, boost, spdlog.
std::vector<std::pair<std::string, std::string>> versions();

}  // namespace sphreverb
