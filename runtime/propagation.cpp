#include "propagation.h"

#include <algorithm>

#include "space.h"

namespace candor {

PropagationContext::PropagationContext(const Space& space, Candidate& candidate)
    : space_(space),
      candidate_(candidate),
      var_offset_(space.var_offsets()),
      var_words_(space.var_word_counts()),
      var_queued_(space.num_vars(), 0),
      counter_queued_(space.num_counters(), 0) {}

bool PropagationContext::restrict(int var, const Word* mask) {
  if (failed_) return false;
  const auto& layout = space_.var_layout(var);
  Word* dom = candidate_.words.data() + layout.offset;
  bool changed = false;
  bool empty = true;
  for (int w = 0; w < layout.words; ++w) {
    Word narrowed = dom[w] & mask[w];
    changed |= narrowed != dom[w];
    empty &= narrowed == 0;
    dom[w] = narrowed;
  }
  if (empty) {
    failed_ = true;
    return false;
  }
  if (changed) touch(var);
  return true;
}

bool PropagationContext::keep_only(int var, int value) {
  std::vector<Word> mask = space_.single_value_mask(var, value);
  return restrict(var, mask.data());
}

bool PropagationContext::remove_value(int var, int value) {
  std::vector<Word> mask = space_.single_value_mask(var, value);
  for (Word& w : mask) w = ~w;
  return restrict(var, mask.data());
}

void PropagationContext::touch(int var) {
  if (var_queued_[var]) return;
  var_queued_[var] = 1;
  var_queue_.push_back(var);
}

int PropagationContext::pop_var() {
  if (var_head_ == var_queue_.size()) {
    var_queue_.clear();
    var_head_ = 0;
    return -1;
  }
  int var = var_queue_[var_head_++];
  var_queued_[var] = 0;
  return var;
}

void PropagationContext::queue_counter(int counter) {
  if (counter_queued_[counter]) return;
  counter_queued_[counter] = 1;
  counter_queue_.push_back(counter);
}

int PropagationContext::pop_counter() {
  if (counter_head_ == counter_queue_.size()) {
    counter_queue_.clear();
    counter_head_ = 0;
    return -1;
  }
  int counter = counter_queue_[counter_head_++];
  counter_queued_[counter] = 0;
  return counter;
}

// ---------------------------------------------------------------------------------------

namespace {

// The integers a variable's domain still allows, in universe order.
struct DomainValues {
  std::vector<int> indices;
  int64_t min = 0;
  int64_t max = 0;
};

DomainValues domain_values(const PropagationContext& ctx, int var, const int64_t* ints) {
  DomainValues out;
  const Word* dom = ctx.domain(var);
  bool first = true;
  for (int w = 0; w < ctx.words(var); ++w) {
    for (Word bits = dom[w]; bits; bits &= bits - 1) {
      int index = w * kWordBits + __builtin_ctzll(bits);
      out.indices.push_back(index);
      int64_t v = ints ? ints[index] : index;
      if (first || v < out.min) out.min = v;
      if (first || v > out.max) out.max = v;
      first = false;
    }
  }
  return out;
}

bool holds(int64_t a, Relation op, int64_t b) {
  switch (op) {
    case Relation::Eq: return a == b;
    case Relation::Ne: return a != b;
    case Relation::Lt: return a < b;
    case Relation::Le: return a <= b;
    case Relation::Gt: return a > b;
    case Relation::Ge: return a >= b;
  }
  return false;
}

Relation swapped(Relation op) {
  switch (op) {
    case Relation::Lt: return Relation::Gt;
    case Relation::Le: return Relation::Ge;
    case Relation::Gt: return Relation::Lt;
    case Relation::Ge: return Relation::Le;
    default: return op;
  }
}

// Keeps in `var` only the values v for which some w in `other` satisfies v op w.
bool support_against(PropagationContext& ctx, int var, const int64_t* ints, Relation op,
                     const DomainValues& other, const int64_t* other_ints) {
  std::vector<Word> keep(ctx.words(var), 0);
  for (int index : domain_values(ctx, var, ints).indices) {
    int64_t v = ints ? ints[index] : index;
    bool supported = false;
    switch (op) {
      case Relation::Lt: supported = v < other.max; break;
      case Relation::Le: supported = v <= other.max; break;
      case Relation::Gt: supported = v > other.min; break;
      case Relation::Ge: supported = v >= other.min; break;
      case Relation::Ne: supported = !(other.min == other.max && v == other.min); break;
      case Relation::Eq:
        for (int o : other.indices) supported |= (other_ints ? other_ints[o] : o) == v;
        break;
    }
    if (supported) keep[index / kWordBits] |= Word{1} << (index % kWordBits);
  }
  return ctx.restrict(var, keep.data());
}

}  // namespace

Truth relation_truth(const PropagationContext& ctx, int a, const int64_t* a_values, Relation op,
                     int b, const int64_t* b_values) {
  DomainValues da = domain_values(ctx, a, a_values);
  DomainValues db = domain_values(ctx, b, b_values);
  if (op == Relation::Eq || op == Relation::Ne) {
    bool both_fixed_equal = da.indices.size() == 1 && db.indices.size() == 1 && da.min == db.min;
    bool disjoint = true;
    for (int i : da.indices) {
      int64_t v = a_values ? a_values[i] : i;
      for (int j : db.indices) disjoint &= (b_values ? b_values[j] : j) != v;
    }
    if (op == Relation::Eq) {
      if (both_fixed_equal) return Truth::True;
      return disjoint ? Truth::False : Truth::Unknown;
    }
    if (disjoint) return Truth::True;
    return both_fixed_equal ? Truth::False : Truth::Unknown;
  }
  // Ordering: true when every pair satisfies it, false when none does.
  bool always = holds(op == Relation::Lt || op == Relation::Le ? da.max : da.min, op,
                      op == Relation::Lt || op == Relation::Le ? db.min : db.max);
  bool never = !holds(op == Relation::Lt || op == Relation::Le ? da.min : da.max, op,
                      op == Relation::Lt || op == Relation::Le ? db.max : db.min);
  if (never) return Truth::False;
  return always ? Truth::True : Truth::Unknown;
}

bool enforce_relation(PropagationContext& ctx, int a, const int64_t* a_values, Relation op,
                      int b, const int64_t* b_values) {
  DomainValues db = domain_values(ctx, b, b_values);
  if (!support_against(ctx, a, a_values, op, db, b_values)) return false;
  DomainValues da = domain_values(ctx, a, a_values);
  return support_against(ctx, b, b_values, swapped(op), da, a_values);
}

}  // namespace candor
