// SHA-256 (FIPS 180-4) of a byte string, for recognising a changed input file (a checkpoint
// stores the digests of the mesh files its scene read).
#pragma once

#include <string>
#include <string_view>

namespace sphreverb {

// The digest as 64 lowercase hexadecimal digits.
std::string sha256_hex(std::string_view bytes);

}  // namespace sphreverb
