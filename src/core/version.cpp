#include "sphreverb/core/version.hpp"

#include <hdf5.h>
#include <mpi.h>
#include <sndfile.h>
#include <spdlog/version.h>

#include <boost/version.hpp>
#include <string>

namespace sphreverb {

std::vector<std::pair<std::string, std::string>> versions() {
  char mpi[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  MPI_Get_library_version(mpi, &len);
  std::string mpi_version(mpi, static_cast<std::size_t>(len));
  if (auto cut = mpi_version.find_first_of(",\n"); cut != std::string::npos)
    mpi_version.resize(cut);
  unsigned maj = 0, min = 0, rel = 0;
  H5get_libversion(&maj, &min, &rel);
  return {
      {"sphreverb", SPHREVERB_VERSION},
      {"mpi", mpi_version},
      {"hdf5", std::to_string(maj) + "." + std::to_string(min) + "." + std::to_string(rel)},
      {"libsndfile", sf_version_string()},
      {"boost", std::to_string(BOOST_VERSION / 100000) + "." +
                    std::to_string(BOOST_VERSION / 100 % 1000) + "." +
                    std::to_string(BOOST_VERSION % 100)},
      {"spdlog", std::to_string(SPDLOG_VER_MAJOR) + "." + std::to_string(SPDLOG_VER_MINOR) + "." +
                     std::to_string(SPDLOG_VER_PATCH)},
  };
}

}  // namespace sphreverb
