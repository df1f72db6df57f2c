// Numbers as users write them, parsed strictly: decimal only (no hex, no leading '+', no
// spaces), the whole text consumed, finite, and in the range the caller names. Everything
// else is refused, so that "0x10", "nan", "1e99" or "3.5" never stand for a number silently.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace candor::support {

// A decimal integer ("-12", "4096") in [min, max]; nullopt otherwise.
std::optional<int64_t> parse_integer(std::string_view text, int64_t min = INT64_MIN, int64_t max = INT64_MAX);

// A finite decimal number ("0.5", "2", "1e-3") in [min, max]; nullopt otherwise. A minus
// sign is refused when min >= 0 (so "-0" is not a duration).
std::optional<double> parse_decimal(std::string_view text, double min, double max);

// A byte count: a decimal integer with an optional binary suffix K, M, G, T (or KiB, MiB,
// GiB, TiB; B alone means bytes), at least 1 and below 2^62.
std::optional<int64_t> parse_bytes(std::string_view text);

// "1.5 GiB", "512 MiB", "200 KiB", "17 B".
std::string format_bytes(int64_t bytes);

}  // namespace candor::support
