// Checks on a mesh file's bytes made before a reader allocates anything for it (mesh_io.cpp runs
// them ahead of Assimp). Per format (told by the file's first bytes, else its extension):
//  - element counts are bounded by the file's size: PLY's `element NAME COUNT` (binary: the
//    exact bytes of an element, the least a list's count takes; ascii: at least 2 bytes per
//    number), a PLY list's length (the bytes left), binary STL's triangle count (exactly 50 bytes
//    each), OFF's vertex and face counts (at least 2 bytes per number);
//  - every vertex coordinate is a finite number within single precision (the readers store
//    floats): OBJ `v` lines, ascii STL `vertex` lines, ascii and binary PLY's vertex x, y, z,
//    binary STL's corners, OFF's vertex lines.
// A refusal throws MeshError naming the file, the vertex (its index as the format numbers it)
// and, in text formats, the line. Other formats (glTF, ...) are checked after reading
// (load_mesh names the part and vertex of a non-finite coordinate).
#pragma once

#include <filesystem>
#include <string_view>

namespace sphreverb {

void scan_mesh_file(const std::filesystem::path& path, std::string_view bytes);

}  // namespace sphreverb
