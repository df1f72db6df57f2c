// The propagation context: the candidate being narrowed plus the event queue of variables
// whose domains changed and whose watchers have not run yet. Generated handlers narrow
// domains only through it, so every change is queued exactly once until processed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "candidate.h"

namespace candor {

class Space;

class PropagationContext {
 public:
  PropagationContext(const Space& space, Candidate& candidate);

  Candidate& candidate() { return candidate_; }
  bool failed() const { return failed_; }

  // Domain reads (inline: generated propagators call them in their innermost loops).
  const Word* domain(int var) const { return candidate_.words.data() + var_offset_[var]; }
  int words(int var) const { return var_words_[var]; }

  // Intersects var's domain with mask; queues var if it changed; marks failure if empty.
  // Returns false on failure.
  bool restrict(int var, const Word* mask);
  // Removes every value except those whose bit is set in `keep` (same as restrict).
  bool keep_only(int var, int value);
  bool remove_value(int var, int value);
  void fail() { failed_ = true; }

  // Queues var as changed (used by post for the root).
  void touch(int var);

  // Pops the next changed variable; -1 when the queue is empty.
  int pop_var();
  // Counters whose terms changed, processed after the cheaper clause handlers.
  void queue_counter(int counter);
  int pop_counter();

 private:
  const Space& space_;
  Candidate& candidate_;
  const size_t* var_offset_;
  const int* var_words_;
  bool failed_ = false;
  std::vector<int> var_queue_;
  std::vector<char> var_queued_;
  size_t var_head_ = 0;
  std::vector<int> counter_queue_;
  std::vector<char> counter_queued_;
  size_t counter_head_ = 0;
};

// Evaluation of a literal against the current domains.
enum class Truth { False, True, Unknown };

// Literals on one variable: "var's value is in mask".
inline Truth literal_in(const PropagationContext& ctx, int var, const Word* mask) {
  const Word* dom = ctx.domain(var);
  const int words = ctx.words(var);
  if (words == 1) {
    if ((dom[0] & mask[0]) == 0) return Truth::False;
    return (dom[0] & ~mask[0]) == 0 ? Truth::True : Truth::Unknown;
  }
  bool all_inside = true;
  bool any_inside = false;
  for (int w = 0; w < words; ++w) {
    all_inside &= (dom[w] & ~mask[w]) == 0;
    any_inside |= (dom[w] & mask[w]) != 0;
  }
  if (!any_inside) return Truth::False;
  return all_inside ? Truth::True : Truth::Unknown;
}

// Relations between two variables, comparing enum value indices (Eq/Ne) or the integers of
// the universes (any comparison). `a_values`/`b_values` are the universes' integers (nullptr
// for enums, which compare value indices).
enum class Relation { Eq, Ne, Lt, Le, Gt, Ge };
Truth relation_truth(const PropagationContext& ctx, int a, const int64_t* a_values, Relation op,
                     int b, const int64_t* b_values);
// Narrows a and b so that the relation can still hold; false on failure.
bool enforce_relation(PropagationContext& ctx, int a, const int64_t* a_values, Relation op,
                      int b, const int64_t* b_values);

}  // namespace candor
