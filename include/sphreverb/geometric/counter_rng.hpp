// A counter-based random stream: value n of stream `key` is splitmix64(key, n), a pure function
// of the two, so ray i draws the same numbers whichever rank traces it and in whatever order.
// splitmix64: Steele, Lea & Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014
// (the finaliser constants of its 64-bit mixer).
#pragma once

#include <cstdint>

namespace sphreverb {

// The splitmix64 finaliser: a bijective mix of 64 bits.
constexpr std::uint64_t splitmix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

class CounterRng {
 public:
  // The stream of (seed, index), e.g. index = the ray's number.
  constexpr CounterRng(std::uint64_t seed, std::uint64_t index)
      : key_(splitmix64(seed ^ splitmix64(index))) {}
  constexpr std::uint64_t next() { return splitmix64(key_ + 0xD1B54A32D192ED03ULL * ++count_); }
  // Uniform in [0, 1), 53 bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  std::uint64_t key_;
  std::uint64_t count_ = 0;
};

}  // namespace sphreverb
