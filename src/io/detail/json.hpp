// A minimal JSON writer for summary.json: objects, arrays, strings, numbers, booleans.
#pragma once

#include <cmath>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace sphreverb::detail {

class Json {
 public:
  Json& begin_object() { return open('{'); }
  Json& end_object() { return close('}'); }
  Json& begin_array() { return open('['); }
  Json& end_array() { return close(']'); }
  Json& key(const std::string& k) {
    comma();
    out_ << '\n' << std::string(2 * depth_, ' ') << quote(k) << ": ";
    after_key_ = true;
    return *this;
  }
  Json& value(const std::string& s) { return raw(quote(s)); }
  Json& value(const char* s) { return raw(quote(s)); }
  Json& value(bool b) { return raw(b ? "true" : "false"); }
  Json& value(std::int64_t v) { return raw(std::to_string(v)); }
  Json& value(int v) { return raw(std::to_string(v)); }
  Json& value(std::size_t v) { return raw(std::to_string(v)); }
  Json& value(double v) {
    if (!std::isfinite(v)) return raw("null");
    std::ostringstream s;
    s << std::setprecision(std::numeric_limits<double>::max_digits10) << v;
    return raw(s.str());
  }
  template <class T>
  Json& field(const std::string& k, const T& v) {
    return key(k).value(v);
  }
  template <class T>
  Json& array(const std::string& k, const std::vector<T>& v) {
    key(k).begin_array();
    for (const T& x : v) value(x);
    return end_array();
  }
  std::string str() const { return out_.str() + "\n"; }

  static std::string quote(const std::string& s) {
    std::ostringstream o;
    o << '"';
    for (unsigned char c : s) {
      switch (c) {
        case '"':
          o << "\\\"";
          break;
        case '\\':
          o << "\\\\";
          break;
        case '\n':
          o << "\\n";
          break;
        case '\t':
          o << "\\t";
          break;
        case '\r':
          o << "\\r";
          break;
        default:
          if (c < 0x20)
            o << "\\u" << std::hex << std::setw(4) << std::setfill('0') << int(c) << std::dec;
          else
            o << c;
      }
    }
    o << '"';
    return o.str();
  }

 private:
  Json& open(char c) {
    raw(std::string(1, c));
    ++depth_;
    first_ = true;
    return *this;
  }
  Json& close(char c) {
    --depth_;
    out_ << '\n' << std::string(2 * depth_, ' ') << c;
    first_ = false;
    return *this;
  }
  Json& raw(const std::string& s) {
    if (!after_key_) comma();
    after_key_ = false;
    out_ << s;
    first_ = false;
    return *this;
  }
  void comma() {
    if (!first_ && depth_ > 0) out_ << ',';
    first_ = false;
  }
  std::ostringstream out_;
  int depth_ = 0;
  bool first_ = true, after_key_ = false;
};

}  // namespace sphreverb::detail
