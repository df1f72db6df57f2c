#include "support/numbers.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace candor::support {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// [-]DIGITS[.DIGITS][(e|E)[-+]DIGITS]: what from_chars would take, minus inf, nan and hex.
bool looks_decimal(std::string_view t) {
  std::size_t i = 0;
  if (i < t.size() && t[i] == '-') ++i;
  const std::size_t int_start = i;
  while (i < t.size() && is_digit(t[i])) ++i;
  bool digits = i > int_start;
  if (i < t.size() && t[i] == '.') {
    ++i;
    const std::size_t frac_start = i;
    while (i < t.size() && is_digit(t[i])) ++i;
    digits = digits || i > frac_start;
  }
  if (!digits) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '-' || t[i] == '+')) ++i;
    const std::size_t exp_start = i;
    while (i < t.size() && is_digit(t[i])) ++i;
    if (i == exp_start) return false;
  }
  return i == t.size();
}

}  // namespace

std::optional<int64_t> parse_integer(std::string_view text, int64_t min, int64_t max) {
  if (text.empty()) return std::nullopt;
  const std::size_t digits_from = text[0] == '-' ? 1 : 0;
  if (digits_from == text.size()) return std::nullopt;
  for (std::size_t i = digits_from; i < text.size(); ++i)
    if (!is_digit(text[i])) return std::nullopt;
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;  // overflow
  if (value < min || value > max) return std::nullopt;
  return value;
}

std::optional<double> parse_decimal(std::string_view text, double min, double max) {
  if (!looks_decimal(text)) return std::nullopt;
  if (min >= 0 && text[0] == '-') return std::nullopt;
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
  if (value < min || value > max) return std::nullopt;
  return value;
}

std::optional<int64_t> parse_bytes(std::string_view text) {
  std::size_t digits = 0;
  while (digits < text.size() && is_digit(text[digits])) ++digits;
  const std::optional<int64_t> number = parse_integer(text.substr(0, digits), 1, INT64_MAX);
  if (!number) return std::nullopt;
  const std::string_view unit = text.substr(digits);
  int shift = -1;
  if (unit.empty() || unit == "B") shift = 0;
  else if (unit == "K" || unit == "KiB") shift = 10;
  else if (unit == "M" || unit == "MiB") shift = 20;
  else if (unit == "G" || unit == "GiB") shift = 30;
  else if (unit == "T" || unit == "TiB") shift = 40;
  if (shift < 0 || *number >= (int64_t(1) << (62 - shift))) return std::nullopt;
  return *number << shift;
}

std::string format_bytes(int64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  char text[48];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.3g %s", value, units[unit]);
  return text;
}

}  // namespace candor::support
