#include "budget_text.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "support/numbers.h"

namespace candor {
namespace {

constexpr const char* kKeys = "keys: time, nodes, kept, memory, seed";
// The longest time budget: a day. Past it a search is a run away, not a budget.
constexpr double kMaxSeconds = 24 * 3600;

int64_t parse_count(const std::string& key, const std::string& value, int64_t min) {
  std::optional<int64_t> n = support::parse_integer(value, min);
  if (!n) {
    throw std::invalid_argument("--budget: " + key + " needs a decimal integer of at least " +
                                std::to_string(min) + ", got '" + value + "'");
  }
  return *n;
}

double parse_seconds(const std::string& value) {
  const std::size_t unit_at = value.find_first_not_of("0123456789.eE-+");
  const std::string number = value.substr(0, unit_at);
  const std::string unit = unit_at == std::string::npos ? "" : value.substr(unit_at);
  const double scale = unit.empty() || unit == "s" ? 1 : unit == "ms" ? 1e-3 : unit == "min" ? 60 : -1;
  const std::optional<double> amount = support::parse_decimal(number, 0, kMaxSeconds / 1e-3);
  if (scale < 0 || !amount || *amount * scale <= 0 || *amount * scale > kMaxSeconds) {
    throw std::invalid_argument("--budget: time needs a positive duration of at most 24 h such as "
                                "10s, 500ms or 2min, got '" + value + "'");
  }
  return *amount * scale;
}

}  // namespace

Budget parse_budget(const std::string& text) {
  if (text.empty()) throw std::invalid_argument(std::string("--budget: empty (") + kKeys + ")");
  Budget budget;
  std::set<std::string> seen;
  std::size_t from = 0;
  while (from <= text.size()) {
    const std::size_t comma = std::min(text.find(',', from), text.size());
    const std::string part = text.substr(from, comma - from);
    from = comma + 1;
    const size_t eq = part.find('=');
    if (eq == std::string::npos)
      throw std::invalid_argument("--budget: expected key=value, got '" + part + "' (" + kKeys + ")");
    const std::string key = part.substr(0, eq), value = part.substr(eq + 1);
    if (!seen.insert(key).second) throw std::invalid_argument("--budget: " + key + " given twice");
    if (key == "time") {
      budget.seconds = parse_seconds(value);
    } else if (key == "nodes") {
      budget.max_expanded = parse_count(key, value, 1);
    } else if (key == "kept") {
      budget.max_kept = parse_count(key, value, 1);
    } else if (key == "seed") {
      budget.seed = static_cast<uint64_t>(parse_count(key, value, 0));
    } else if (key == "memory") {
      const std::optional<int64_t> bytes = support::parse_bytes(value);
      if (!bytes || *bytes < (int64_t(1) << 20))
        throw std::invalid_argument("--budget: memory needs a size of at least 1M such as 512M or 4G, got '" +
                                    value + "'");
      budget.max_memory_bytes = *bytes;
    } else {
      throw std::invalid_argument("--budget: unknown key '" + key + "' (" + kKeys + ")");
    }
  }
  return budget;
}

std::pair<std::string, std::string> parse_pin(const std::string& text, const std::string& where) {
  const size_t eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw std::invalid_argument(where + "'" + text + "': expected CHOICE=VALUE, e.g. tile(dot.x)=8");
  return {text.substr(0, eq), text.substr(eq + 1)};
}

}  // namespace candor
