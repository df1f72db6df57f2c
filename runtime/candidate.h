// A candidate: the domains of every choice of one space instance at a propagation fixed
// point, stored as one flat array of words so that copying a candidate is a memcpy.
//
// Layout (fixed per instance, see Space): every choice instance ("variable") owns
// `words_per_var` consecutive words holding a bitset over its universe of values (bit i set
// while value i is still allowed); every counter instance owns two words holding its current
// interval [lo, hi] as int64_t.
#pragma once

#include <cstdint>
#include <vector>

namespace candor {

using Word = uint64_t;
constexpr int kWordBits = 64;

inline int words_for_bits(int bits) { return (bits + kWordBits - 1) / kWordBits; }

struct Candidate {
  std::vector<Word> words;

  bool operator==(const Candidate& other) const { return words == other.words; }
};

// The interval of a counter instance.
struct Interval {
  int64_t lo = 0;
  int64_t hi = 0;
};

}  // namespace candor
