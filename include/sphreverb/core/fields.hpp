// Named sets of particle fields that a communication or refresh carries.
#pragma once

namespace sphreverb {

enum class Field : unsigned { Position = 1u, Velocity = 2u, Density = 4u };

struct FieldSet {
  unsigned bits = 0;
  constexpr FieldSet(Field f) : bits(static_cast<unsigned>(f)) {}
  constexpr FieldSet(unsigned b) : bits(b) {}
  constexpr bool has(Field f) const { return (bits & static_cast<unsigned>(f)) != 0; }
  // Doubles per particle this set carries.
  constexpr int width() const {
    return (has(Field::Position) ? 3 : 0) + (has(Field::Velocity) ? 3 : 0) +
           (has(Field::Density) ? 1 : 0);
  }
};
constexpr FieldSet operator|(Field a, Field b) {
  return FieldSet(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}
constexpr FieldSet operator|(FieldSet a, Field b) {
  return FieldSet(a.bits | static_cast<unsigned>(b));
}
inline constexpr FieldSet kAllDynamic = Field::Position | Field::Velocity | Field::Density;

}  // namespace sphreverb
