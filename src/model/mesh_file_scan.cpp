// Size bounds and finite coordinates of a mesh file before it is read (mesh_file_scan.hpp).
#include "sphreverb/model/mesh_file_scan.hpp"

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "sphreverb/model/mesh.hpp"

namespace sphreverb {

namespace {

using Path = std::filesystem::path;

// Splits a text into lines (without "\r\n" or "\n"), numbered from 1.
class Lines {
 public:
  explicit Lines(std::string_view text, std::size_t first_line = 1)
      : text_(text), number_(first_line - 1) {}
  bool next(std::string_view& line) {
    if (at_ >= text_.size()) return false;
    std::size_t end = text_.find('\n', at_);
    if (end == std::string_view::npos) end = text_.size();
    line = text_.substr(at_, end - at_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    at_ = end + 1;
    ++number_;
    return true;
  }
  std::size_t number() const { return number_; }
  std::size_t offset() const { return at_; }

 private:
  std::string_view text_;
  std::size_t at_ = 0, number_ = 0;
};

std::vector<std::string_view> tokens(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    const std::size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

// Why a coordinate cannot be used ("" when it can): not finite, or beyond single precision
// (the readers store floats: it would become infinite).
std::string bad_value(double v) {
  if (std::isnan(v)) return "not a number";
  if (std::isinf(v)) return "infinite";
  if (std::abs(v) > FLT_MAX) return "beyond single precision (|x| > 3.4e38)";
  return "";
}

// The token's value, when it is a number strtod reads whole (nan, inf, 1e999 included).
std::optional<double> number(std::string_view token) {
  const std::string s(token);
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0') return std::nullopt;
  return v;
}

[[noreturn]] void refuse_coordinate(const Path& path, const std::string& vertex, int axis,
                                    std::string_view text, const std::string& why,
                                    std::size_t line) {
  std::string msg = vertex + (line > 0 ? " (line " + std::to_string(line) + ")" : "") +
                    ": coordinate " + std::string(1, "xyz"[axis]) + " = " + std::string(text) +
                    " is " + why + "; every coordinate must be a finite number";
  throw MeshError(path, msg);
}

// Coordinates `first`..`first + 2` of a text line's tokens checked.
void check_text_coordinates(const Path& path, const std::vector<std::string_view>& t,
                            std::size_t first, const std::string& vertex, std::size_t line) {
  for (int a = 0; a < 3 && first + a < t.size(); ++a)
    if (const auto v = number(t[first + a]))
      if (const std::string why = bad_value(*v); !why.empty())
        refuse_coordinate(path, vertex, a, t[first + a], why, line);
}

std::string lower_extension(const Path& path) {
  std::string e = path.extension().string();
  for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e;
}

std::string bytes_text(long double b) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.0Lf", b);
  return buf;
}

// ---- OBJ: "v x y z [w]" lines, numbered from 1 as the faces refer to them.
void scan_obj(const Path& path, std::string_view bytes) {
  Lines lines(bytes);
  std::string_view line;
  std::size_t vertex = 0;
  while (lines.next(line)) {
    const auto t = tokens(line);
    if (t.empty() || t[0] != "v") continue;
    ++vertex;
    check_text_coordinates(path, t, 1, "vertex " + std::to_string(vertex), lines.number());
  }
}

// ---- STL.
void scan_stl(const Path& path, std::string_view bytes) {
  const std::size_t size = bytes.size();
  std::uint32_t count = 0;
  if (size >= 84) std::memcpy(&count, bytes.data() + 80, 4);  // little-endian hosts only
  const bool exact_binary = size >= 84 && 84 + 50 * std::uint64_t{count} == size;
  std::size_t lead = 0;
  while (lead < size && std::isspace(static_cast<unsigned char>(bytes[lead]))) ++lead;
  const bool ascii = !exact_binary && bytes.substr(lead, 5) == "solid";
  if (ascii) {
    Lines lines(bytes);
    std::string_view line;
    std::size_t vertex = 0;
    while (lines.next(line)) {
      const auto t = tokens(line);
      if (t.empty() || t[0] != "vertex") continue;
      check_text_coordinates(path, t, 1,
                             "vertex " + std::to_string(vertex) + " (corner " +
                                 std::to_string(vertex % 3) + " of facet " +
                                 std::to_string(vertex / 3) + ")",
                             lines.number());
      ++vertex;
    }
    return;
  }
  if (size < 84) return;  // no triangle count to bound: the reader refuses the file
  const std::uint64_t need = 84 + 50 * std::uint64_t{count};
  if (need > size)
    throw MeshError(path, "the binary STL header claims " + std::to_string(count) +
                              " triangles (50 bytes each: " + std::to_string(need) +
                              " bytes with the header), but the file has " + std::to_string(size) +
                              " bytes (a truncated or damaged file)");
  for (std::uint64_t t = 0; t < count; ++t)
    for (int k = 0; k < 3; ++k)
      for (int a = 0; a < 3; ++a) {
        float f;
        std::memcpy(&f, bytes.data() + 84 + 50 * t + 12 + 12 * k + 4 * a, 4);
        if (!std::isfinite(f))
          refuse_coordinate(path,
                            "vertex " + std::to_string(3 * t + k) + " (corner " +
                                std::to_string(k) + " of triangle " + std::to_string(t) + ")",
                            a, std::isnan(f) ? "nan" : (f > 0 ? "inf" : "-inf"),
                            std::isnan(f) ? "not a number" : "infinite", 0);
      }
}

// ---- PLY.
struct PlyProperty {
  std::string name;
  int size = 0;        // bytes of a scalar, or of a list's items
  int count_size = 0;  // a list: bytes of its count (0: a scalar)
  bool real = false;   // float or double (the scalar, or the list's items)
  bool is_signed = false;
};

struct PlyElement {
  std::string name;
  std::uint64_t count = 0;
  std::vector<PlyProperty> properties;
};

int ply_type_size(std::string_view t, bool& real, bool& is_signed) {
  real = t == "float" || t == "float32" || t == "double" || t == "float64";
  is_signed = real || t == "char" || t == "int8" || t == "short" || t == "int16" || t == "int" ||
              t == "int32";
  if (t == "char" || t == "uchar" || t == "int8" || t == "uint8") return 1;
  if (t == "short" || t == "ushort" || t == "int16" || t == "uint16") return 2;
  if (t == "int" || t == "uint" || t == "int32" || t == "uint32" || t == "float" || t == "float32")
    return 4;
  if (t == "double" || t == "float64") return 8;
  return 0;
}

// A binary PLY reader over the body (host little-endian; big-endian files swapped).
class PlyBody {
 public:
  PlyBody(std::string_view body, bool big) : body_(body), big_(big) {}
  bool has(std::uint64_t n) const { return at_ + n <= body_.size(); }
  std::uint64_t at() const { return at_; }
  // An integer of `size` bytes (a list count), or nullopt past the end.
  std::optional<std::uint64_t> count(int size, bool is_signed) {
    unsigned char b[8] = {};
    if (!read(b, size)) return std::nullopt;
    std::uint64_t v = 0;
    for (int i = size - 1; i >= 0; --i) v = v << 8 | b[i];
    if (is_signed && size < 8 && (v >> (8 * size - 1) & 1u)) return std::nullopt;  // negative
    return v;
  }
  std::optional<double> real(int size) {
    unsigned char b[8] = {};
    if (!read(b, size)) return std::nullopt;
    if (size == 4) {
      float f;
      std::memcpy(&f, b, 4);
      return f;
    }
    double d;
    std::memcpy(&d, b, 8);
    return d;
  }
  bool skip(std::uint64_t n) {
    if (!has(n)) return false;
    at_ += n;
    return true;
  }

 private:
  // `b` holds 8 bytes; size is 1, 2, 4 or 8.
  bool read(unsigned char* b, int size) {
    const auto n = static_cast<std::size_t>(std::clamp(size, 0, 8));
    if (!has(n)) return false;
    if (big_)
      for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<unsigned char>(body_[at_ + n - 1 - i]);
    else
      std::memcpy(b, body_.data() + at_, n);
    at_ += n;
    return true;
  }
  std::string_view body_;
  bool big_;
  std::uint64_t at_ = 0;
};

void scan_ply(const Path& path, std::string_view bytes) {
  Lines lines(bytes);
  std::string_view line;
  std::string format;
  std::vector<PlyElement> elements;
  bool ended = false;
  lines.next(line);  // "ply"
  while (lines.next(line)) {
    const auto t = tokens(line);
    if (t.empty()) continue;
    if (t[0] == "end_header") {
      ended = true;
      break;
    }
    if (t[0] == "format" && t.size() > 1) format = std::string(t[1]);
    if (t[0] == "element" && t.size() == 3) {
      PlyElement e;
      e.name = std::string(t[1]);
      const auto [p, ec] = std::from_chars(t[2].data(), t[2].data() + t[2].size(), e.count);
      if (ec != std::errc() || p != t[2].data() + t[2].size())
        throw MeshError(path, "line " + std::to_string(lines.number()) + ": element '" + e.name +
                                  "' has count '" + std::string(t[2]) +
                                  "', not a whole number below 2^64");
      elements.push_back(e);
    }
    if (t[0] == "property" && !elements.empty()) {
      PlyProperty p;
      bool real = false, is_signed = false;
      if (t.size() == 5 && t[1] == "list") {
        p.count_size = ply_type_size(t[2], real, is_signed);
        p.size = ply_type_size(t[3], p.real, p.is_signed);
        p.name = std::string(t[4]);
        if (p.count_size == 0 || real) p.count_size = 0, p.size = 0;  // Assimp's to refuse
      } else if (t.size() == 3) {
        p.size = ply_type_size(t[1], p.real, p.is_signed);
        p.name = std::string(t[2]);
      }
      if (p.size > 0) elements.back().properties.push_back(p);
    }
  }
  if (!ended) return;  // the reader names a header without end_header
  const bool ascii = format == "ascii";
  const bool big = format == "binary_big_endian";
  const std::string_view body = bytes.substr(std::min(lines.offset(), bytes.size()));

  // The least each element takes, and all of them together, against the body's size.
  long double need = 0;
  for (const PlyElement& e : elements) {
    std::uint64_t least = 0;  // bytes (binary) or numbers (ascii)
    for (const PlyProperty& p : e.properties)
      least += ascii ? 1u : static_cast<std::uint64_t>(p.count_size > 0 ? p.count_size : p.size);
    const std::uint64_t per = ascii ? 2 * std::max<std::uint64_t>(least, 1) : least;
    need += static_cast<long double>(e.count) * static_cast<long double>(per);
    // A binary element without properties takes no bytes: bound its count by the file's size.
    const long double cap = ascii || per > 0 ? need : static_cast<long double>(e.count);
    if (cap > static_cast<long double>(body.size()) + (ascii ? 1 : 0))
      throw MeshError(
          path,
          "the PLY header claims " + std::to_string(e.count) + " '" + e.name + "' elements; " +
              (ascii
                   ? "at 2 bytes or more per number the elements up to these need "
                   : "at their least sizes (exact without lists) the elements up to these need ") +
              bytes_text(cap) + " bytes, but only " + std::to_string(body.size()) +
              " bytes follow the header (a truncated or damaged file)");
  }

  // Every element walked: the vertices' x, y, z checked, and each list's length bounded by the
  // bytes left (a reader allocates a list's items before reading them).
  int axis_of[64];
  const auto vertex_at = std::find_if(elements.begin(), elements.end(),
                                      [](const PlyElement& e) { return e.name == "vertex"; });
  const std::size_t n_props =
      vertex_at == elements.end() ? 0 : std::min<std::size_t>(vertex_at->properties.size(), 64);
  for (std::size_t i = 0; i < n_props; ++i) {
    const std::string& n = vertex_at->properties[i].name;
    axis_of[i] = vertex_at->properties[i].count_size > 0 ? -1
                 : n == "x"                              ? 0
                 : n == "y"                              ? 1
                 : n == "z"                              ? 2
                                                         : -1;
  }
  const auto refuse_list = [&](const PlyElement& e, std::uint64_t i, const PlyProperty& p, double n,
                               std::uint64_t left, std::size_t at_line) {
    throw MeshError(path, "'" + e.name + "' element " + std::to_string(i) +
                              (at_line > 0 ? " (line " + std::to_string(at_line) + ")" : "") +
                              ": its list '" + p.name + "' claims " + bytes_text(n) +
                              " items, more than the " + std::to_string(left) +
                              " bytes left in the file can hold (a truncated or damaged file)");
  };
  if (ascii) {
    Lines body_lines(body, lines.number() + 1);
    for (auto e = elements.begin(); e != elements.end(); ++e) {
      const bool vertices = e == vertex_at;
      for (std::uint64_t i = 0; i < e->count; ++i) {
        if (!body_lines.next(line)) return;  // the reader names a short file
        const auto t = tokens(line);
        std::size_t k = 0;
        for (std::size_t j = 0; j < e->properties.size() && k < t.size(); ++j) {
          const PlyProperty& p = e->properties[j];
          if (p.count_size > 0) {
            const auto n = number(t[k]);
            if (!n || !(*n >= 0)) return;  // the reader's to refuse
            const std::uint64_t left = body.size() - std::min(body.size(), body_lines.offset());
            if (*n > static_cast<double>(left + line.size()) / 2.0)
              refuse_list(*e, i, p, *n, left + line.size(), body_lines.number());
            k += 1 + static_cast<std::size_t>(*n);
            continue;
          }
          if (vertices && j < n_props && axis_of[j] >= 0)
            if (const auto x = number(t[k]))
              if (const std::string why = bad_value(*x); !why.empty())
                refuse_coordinate(path, "vertex " + std::to_string(i), axis_of[j], t[k], why,
                                  body_lines.number());
          ++k;
        }
      }
    }
    return;
  }
  PlyBody in(body, big);
  for (auto e = elements.begin(); e != elements.end(); ++e)
    for (std::uint64_t i = 0; i < e->count; ++i)
      for (std::size_t j = 0; j < e->properties.size(); ++j) {
        const PlyProperty& p = e->properties[j];
        if (p.count_size > 0) {
          const auto n = in.count(p.count_size, false);
          if (!n) return;  // the reader names a short file
          const std::uint64_t left = body.size() - in.at();
          if (*n > left / static_cast<std::uint64_t>(p.size))
            refuse_list(*e, i, p, static_cast<double>(*n), left, 0);
          in.skip(*n * static_cast<std::uint64_t>(p.size));
          continue;
        }
        if (e != vertex_at || j >= n_props || axis_of[j] < 0 || !p.real) {
          if (!in.skip(static_cast<std::uint64_t>(p.size))) return;
          continue;
        }
        const auto x = in.real(p.size);
        if (!x) return;
        if (const std::string why = bad_value(*x); !why.empty()) {
          char text[32];
          std::snprintf(text, sizeof text, "%g", *x);
          refuse_coordinate(path, "vertex " + std::to_string(i), axis_of[j], text, why, 0);
        }
      }
}

// ---- OFF: "OFF", then "nv nf ne", nv vertex lines, nf face lines ('#' comments).
void scan_off(const Path& path, std::string_view bytes) {
  Lines lines(bytes);
  std::string_view line;
  std::vector<std::uint64_t> counts;
  const auto content = [&](std::vector<std::string_view>& t) {
    while (lines.next(line)) {
      line = line.substr(0, line.find('#'));
      t = tokens(line);
      if (!t.empty()) return true;
    }
    return false;
  };
  std::vector<std::string_view> t;
  if (!content(t) || t[0].substr(0, 3) != "OFF") return;
  std::size_t rest = 1;
  if (t.size() < 4) {
    if (!content(t)) return;
    rest = 0;
  }
  for (std::size_t i = rest; i < t.size() && counts.size() < 2; ++i) {
    std::uint64_t c = 0;
    const auto [p, ec] = std::from_chars(t[i].data(), t[i].data() + t[i].size(), c);
    if (ec != std::errc() || p != t[i].data() + t[i].size()) return;  // the reader's to refuse
    counts.push_back(c);
  }
  if (counts.size() < 2) return;
  const long double need = 2.0L * (3.0L * counts[0] + 4.0L * counts[1]);
  if (need > static_cast<long double>(bytes.size()))
    throw MeshError(path, "the OFF header claims " + std::to_string(counts[0]) + " vertices and " +
                              std::to_string(counts[1]) +
                              " faces; at 2 bytes or more per number they need " +
                              bytes_text(need) + " bytes, but the file has " +
                              std::to_string(bytes.size()) + " (a truncated or damaged file)");
  for (std::uint64_t v = 0; v < counts[0]; ++v) {
    if (!content(t)) return;
    check_text_coordinates(path, t, 0, "vertex " + std::to_string(v), lines.number());
  }
}

}  // namespace

void scan_mesh_file(const Path& path, std::string_view bytes) {
  const std::string ext = lower_extension(path);
  if (bytes.substr(0, 4) == "ply\n" || bytes.substr(0, 5) == "ply\r\n")
    return scan_ply(path, bytes);
  if (ext == ".stl") return scan_stl(path, bytes);
  if (ext == ".obj") return scan_obj(path, bytes);
  if (ext == ".off" || bytes.substr(0, 3) == "OFF") return scan_off(path, bytes);
}

}  // namespace sphreverb
