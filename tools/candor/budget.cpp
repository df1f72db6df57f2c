#include "budget.h"

#include <sstream>
#include <stdexcept>

namespace candor::cli {
namespace {

int64_t parse_count(const std::string& key, const std::string& value) {
  size_t used = 0;
  long long n = -1;
  try {
    n = std::stoll(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size() || n < 0) {
    throw std::invalid_argument("--budget: " + key + " needs a non-negative integer, got '" + value + "'");
  }
  return n;
}

double parse_seconds(const std::string& value) {
  size_t used = 0;
  double number = -1;
  try {
    number = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  std::string unit = value.substr(used);
  double scale = unit.empty() || unit == "s" ? 1 : unit == "ms" ? 1e-3 : unit == "min" ? 60 : -1;
  if (used == 0 || scale < 0 || number < 0) {
    throw std::invalid_argument("--budget: time needs a duration such as 10s, 500ms or 2min, got '" +
                                value + "'");
  }
  return number * scale;
}

}  // namespace

Budget parse_budget(const std::string& text) {
  Budget budget;
  std::stringstream parts(text);
  std::string part;
  while (std::getline(parts, part, ',')) {
    size_t eq = part.find('=');
    if (eq == std::string::npos) {
      throw std::invalid_argument("--budget: expected key=value, got '" + part +
                                  "' (keys: time, nodes, kept, seed)");
    }
    std::string key = part.substr(0, eq), value = part.substr(eq + 1);
    if (key == "time") budget.seconds = parse_seconds(value);
    else if (key == "nodes") budget.max_expanded = parse_count(key, value);
    else if (key == "kept") budget.max_kept = parse_count(key, value);
    else if (key == "seed") budget.seed = static_cast<uint64_t>(parse_count(key, value));
    else throw std::invalid_argument("--budget: unknown key '" + key + "' (keys: time, nodes, kept, seed)");
  }
  return budget;
}

std::pair<std::string, std::string> parse_pin(const std::string& text, const std::string& where) {
  const size_t eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw std::invalid_argument(where + "'" + text + "': expected CHOICE=VALUE, e.g. tile(dot.x)=8");
  return {text.substr(0, eq), text.substr(eq + 1)};
}

}  // namespace candor::cli
