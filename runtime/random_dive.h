// A random dive: the variables of an order are fixed in turn, each to a random value among
// those left (a value whose propagation fails is removed and another drawn). Tests and tools
// use it for random complete candidates and for random prefixes (the partial candidates a
// search ranks).
#pragma once

#include <cstddef>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "space.h"

namespace candor {

// Dives from `c` over the first `depth` variables of `order` (all of them by default);
// nullopt when some variable has no value left.
inline std::optional<Candidate> random_dive(const Space& space, Candidate c, const std::vector<int>& order,
                                            std::mt19937_64& rng,
                                            size_t depth = std::numeric_limits<size_t>::max()) {
  for (size_t d = 0; d < order.size() && d < depth; ++d) {
    const int var = order[d];
    while (!space.is_fixed(c, var)) {
      const std::vector<int> values = space.values(c, var);
      Candidate next = c;
      const int value = values[rng() % values.size()];
      if (space.fix(next, var, value)) {
        c = std::move(next);
      } else if (!space.remove(c, var, value)) {
        return std::nullopt;
      }
    }
  }
  return c;
}

}  // namespace candor
