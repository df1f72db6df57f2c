// Comma-separated command-line lists ("a,b,c") of the bench programs.
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace candor::bench {

// The non-empty items of `s`, in order.
inline std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace candor::bench
