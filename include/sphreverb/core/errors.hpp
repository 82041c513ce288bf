// Errors that every rank of a communicator raises together (the decision behind them was a
// collective one), so each rank can unwind and exit cleanly with the same message.
#pragma once

#include <stdexcept>

namespace sphreverb {

class CollectiveError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace sphreverb
