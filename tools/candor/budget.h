// Parsing of the --budget option shared by the commands that search:
//   --budget time=10s,nodes=100000,kept=5000,seed=7
// Each key is optional; time takes s, ms or min suffixes (seconds by default).
#pragma once

#include <string>

#include "search.h"

namespace candor::cli {

// Throws std::invalid_argument with a message naming the bad part.
Budget parse_budget(const std::string& text);

}  // namespace candor::cli
