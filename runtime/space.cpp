#include "space.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "propagation.h"
#include "support/memory.h"
#include "support/numbers.h"

namespace candor {

int Space::add_var(VarLayout layout) {
  if (layout.universe_size <= 0) {
    throw std::invalid_argument("choice " + decl_name(layout.decl) +
                                " has an empty universe of values on this instance");
  }
  layout.words = words_for_bits(layout.universe_size);
  // The layout of a choice and its words in one candidate, heap blocks counted.
  layout_bytes_ += static_cast<int64_t>(sizeof(VarLayout) + 32 + layout.args.size() * sizeof(int) +
                                        layout.ints.size() * sizeof(int64_t) + layout.words * sizeof(Word));
  // Before the table doubles (when old and new are both held), check that the instance fits.
  if (vars_.size() == vars_.capacity() && vars_.size() >= (size_t(1) << 16) &&
      3 * layout_bytes_ > support::default_memory_budget()) {
    throw std::invalid_argument(
        "the space is too large for this machine: more than " + std::to_string(vars_.size()) +
        " choice instances, whose layout alone would take over " + support::format_bytes(3 * layout_bytes_) +
        " (the limit, half of what this process may use, is " +
        support::format_bytes(support::default_memory_budget()) + ")");
  }
  vars_.push_back(std::move(layout));
  return num_vars() - 1;
}

int Space::add_counter(CounterLayout layout) {
  counters_.push_back(std::move(layout));
  return num_counters() - 1;
}

void Space::finish_layout() {
  size_t offset = 0;
  var_offsets_.clear();
  var_word_counts_.clear();
  for (VarLayout& var : vars_) {
    var.offset = offset;
    offset += var.words;
    var_offsets_.push_back(var.offset);
    var_word_counts_.push_back(var.words);
  }
  for (CounterLayout& counter : counters_) {
    counter.offset = offset;
    offset += 2;
  }
  total_words_ = offset;
  counters_watching_var_.assign(vars_.size(), {});
  for (int k = 0; k < num_counters(); ++k) {
    for (const CounterTerm& term : counters_[k].terms) {
      auto watch = [&](int var) {
        auto& list = counters_watching_var_[var];
        if (list.empty() || list.back() != k) list.push_back(k);
      };
      for (const TermCondition& cond : term.conditions) watch(cond.var);
      if (term.value_var >= 0) watch(term.value_var);
    }
  }
}

std::string Space::var_name(int var) const {
  const VarLayout& layout = vars_[var];
  std::string out = decl_name(layout.decl) + "(";
  for (size_t i = 0; i < layout.args.size(); ++i) {
    if (i) out += ", ";
    out += object_name(layout.decl, static_cast<int>(i), layout.args[i]);
  }
  return out + ")";
}

std::string Space::counter_name(int counter) const {
  const CounterLayout& layout = counters_[counter];
  std::string out = counter_decl_name(layout.decl) + "(";
  for (size_t i = 0; i < layout.args.size(); ++i) {
    if (i) out += ", ";
    out += counter_object_name(layout.decl, static_cast<int>(i), layout.args[i]);
  }
  return out + ")";
}

std::string Space::value_name(int var, int value) const {
  const VarLayout& layout = vars_[var];
  if (layout.is_enum) return enum_value_name(layout.decl, value);
  return std::to_string(layout.ints[value]);
}

int Space::var_named(const std::string& name) const {
  for (int v = 0; v < num_vars(); ++v)
    if (var_name(v) == name) return v;
  return -1;
}

int Space::value_named(const Candidate& c, int var, const std::string& name) const {
  for (int value : values(c, var))
    if (value_name(var, value) == name) return value;
  return -1;
}

int64_t Space::value_int(int var, int value) const {
  const VarLayout& layout = vars_[var];
  return layout.is_enum ? value : layout.ints[value];
}

std::vector<Word> Space::single_value_mask(int var, int value) const {
  std::vector<Word> mask(vars_[var].words, 0);
  mask[value / kWordBits] |= Word{1} << (value % kWordBits);
  return mask;
}

std::vector<Word> Space::compare_mask(int var, Relation op, int64_t rhs) const {
  const VarLayout& layout = vars_[var];
  std::vector<Word> mask(layout.words, 0);
  for (int v = 0; v < layout.universe_size; ++v) {
    int64_t value = layout.is_enum ? v : layout.ints[v];
    bool keep = false;
    switch (op) {
      case Relation::Eq: keep = value == rhs; break;
      case Relation::Ne: keep = value != rhs; break;
      case Relation::Lt: keep = value < rhs; break;
      case Relation::Le: keep = value <= rhs; break;
      case Relation::Gt: keep = value > rhs; break;
      case Relation::Ge: keep = value >= rhs; break;
    }
    if (keep) mask[v / kWordBits] |= Word{1} << (v % kWordBits);
  }
  return mask;
}

std::optional<Candidate> Space::root() const {
  Candidate c;
  c.words.assign(total_words_, 0);
  for (const VarLayout& var : vars_) {
    for (int v = 0; v < var.universe_size; ++v) {
      c.words[var.offset + v / kWordBits] |= Word{1} << (v % kWordBits);
    }
  }
  PropagationContext ctx(*this, c);
  post(ctx);
  for (int k = 0; k < num_counters(); ++k) ctx.queue_counter(k);
  if (!propagate(ctx)) return std::nullopt;
  return c;
}

bool Space::apply(Candidate& candidate, const Decision& decision) const {
  PropagationContext ctx(*this, candidate);
  for (const Restriction& r : decision) {
    if (!ctx.restrict(r.var, r.mask.data())) return false;
  }
  return propagate(ctx);
}

bool Space::fix(Candidate& candidate, int var, int value) const {
  return apply(candidate, {Restriction{var, single_value_mask(var, value)}});
}

bool Space::remove(Candidate& candidate, int var, int value) const {
  std::vector<Word> mask = single_value_mask(var, value);
  for (Word& w : mask) w = ~w;
  return apply(candidate, {Restriction{var, std::move(mask)}});
}

// Clause handlers run first (cheap, incremental); counters, which rescan their terms, run
// only when no variable event is pending.
bool Space::propagate(PropagationContext& ctx) const {
  while (!ctx.failed()) {
    int var = ctx.pop_var();
    if (var >= 0) {
      on_change(ctx, var);
      for (int k : counters_watching_var_[var]) ctx.queue_counter(k);
      continue;
    }
    int counter = ctx.pop_counter();
    if (counter < 0) break;
    propagate_counter(ctx, counter);
  }
  return !ctx.failed();
}

bool Space::contains(const Candidate& c, int var, int value) const {
  return (c.words[vars_[var].offset + value / kWordBits] >> (value % kWordBits)) & 1;
}

int Space::domain_size(const Candidate& c, int var) const {
  const VarLayout& layout = vars_[var];
  int size = 0;
  for (int w = 0; w < layout.words; ++w) size += __builtin_popcountll(c.words[layout.offset + w]);
  return size;
}

int Space::first_value(const Candidate& c, int var) const {
  const VarLayout& layout = vars_[var];
  for (int w = 0; w < layout.words; ++w) {
    Word bits = c.words[layout.offset + w];
    if (bits) return w * kWordBits + __builtin_ctzll(bits);
  }
  return -1;
}

std::vector<int> Space::values(const Candidate& c, int var) const {
  std::vector<int> out;
  const VarLayout& layout = vars_[var];
  for (int w = 0; w < layout.words; ++w) {
    for (Word bits = c.words[layout.offset + w]; bits; bits &= bits - 1) {
      out.push_back(w * kWordBits + __builtin_ctzll(bits));
    }
  }
  return out;
}

Interval Space::counter(const Candidate& c, int counter) const {
  size_t offset = counters_[counter].offset;
  return {static_cast<int64_t>(c.words[offset]), static_cast<int64_t>(c.words[offset + 1])};
}

bool Space::is_complete(const Candidate& c) const { return first_open_var(c) < 0; }

std::vector<int> Space::open_vars(const Candidate& c) const {
  std::vector<int> out;
  for (int v = 0; v < num_vars(); ++v) {
    if (domain_size(c, v) > 1) out.push_back(v);
  }
  return out;
}

int Space::first_open_var(const Candidate& c) const {
  for (int v = 0; v < num_vars(); ++v) {
    if (domain_size(c, v) > 1) return v;
  }
  return -1;
}

std::string Space::print(const Candidate& c) const {
  std::ostringstream out;
  for (int v = 0; v < num_vars(); ++v) {
    out << var_name(v) << " = {";
    bool first = true;
    for (int value : values(c, v)) {
      out << (first ? "" : ", ") << value_name(v, value);
      first = false;
    }
    out << "}\n";
  }
  for (int k = 0; k < num_counters(); ++k) {
    Interval in = counter(c, k);
    out << counter_name(k) << " in [" << in.lo << ", " << in.hi << "]\n";
  }
  return out.str();
}

// --- counters ------------------------------------------------------------------------

namespace {

// Whether a term's conditions surely hold, surely fail, or are still open; with the index
// of the one open condition when exactly one is open.
struct ConditionState {
  Truth truth = Truth::True;
  int open_count = 0;
  int last_open = -1;
};

int64_t saturating_mul(int64_t a, int64_t b) {
  __int128 p = static_cast<__int128>(a) * b;
  if (p > INT64_MAX) return INT64_MAX;
  if (p < INT64_MIN) return INT64_MIN;
  return static_cast<int64_t>(p);
}

int64_t saturating_add(int64_t a, int64_t b) {
  __int128 s = static_cast<__int128>(a) + b;
  if (s > INT64_MAX) return INT64_MAX;
  if (s < INT64_MIN) return INT64_MIN;
  return static_cast<int64_t>(s);
}

}  // namespace

Interval Space::evaluate_counter(const Candidate& c, int counter) const {
  // Read-only evaluation through a throwaway context over a copy would cost a copy; the
  // domain reads below use the candidate directly.
  const CounterLayout& layout = counters_[counter];
  Interval total = layout.is_product ? Interval{1, 1} : Interval{0, 0};
  for (const CounterTerm& term : layout.terms) {
    bool can_hold = true, must_hold = true;
    for (const TermCondition& cond : term.conditions) {
      const VarLayout& var = vars_[cond.var];
      bool any = false, all = true;
      for (int w = 0; w < var.words; ++w) {
        Word dom = c.words[var.offset + w];
        any |= (dom & cond.mask[w]) != 0;
        all &= (dom & ~cond.mask[w]) == 0;
      }
      can_hold &= any;
      must_hold &= all;
    }
    if (!can_hold) continue;
    int64_t vmin = term.value_const, vmax = term.value_const;
    if (term.value_var >= 0) {
      std::vector<int> vals = values(c, term.value_var);
      vmin = INT64_MAX;
      vmax = INT64_MIN;
      for (int v : vals) {
        vmin = std::min(vmin, vars_[term.value_var].ints[v]);
        vmax = std::max(vmax, vars_[term.value_var].ints[v]);
      }
    }
    // A term that may or may not count contributes the neutral element at one end.
    int64_t neutral = layout.is_product ? 1 : 0;
    int64_t lo = must_hold ? vmin : std::min(neutral, vmin);
    int64_t hi = must_hold ? vmax : std::max(neutral, vmax);
    if (layout.is_product) {
      total.lo = saturating_mul(total.lo, lo);
      total.hi = saturating_mul(total.hi, hi);
    } else {
      total.lo = saturating_add(total.lo, lo);
      total.hi = saturating_add(total.hi, hi);
    }
  }
  return total;
}

// Recomputes the counter's interval and narrows its terms against the allowed bounds:
// a term whose smallest contribution would exceed the maximum (with every other term at its
// smallest) loses its large values, or, when it is conditional, its condition is made false.
// Products assume positive values (the spec language requires it).
bool Space::propagate_counter(PropagationContext& ctx, int counter) const {
  const CounterLayout& layout = counters_[counter];
  Candidate& c = ctx.candidate();
  Interval total = evaluate_counter(c, counter);
  c.words[layout.offset] = static_cast<Word>(total.lo);
  c.words[layout.offset + 1] = static_cast<Word>(total.hi);
  if (total.lo > layout.max_allowed || total.hi < layout.min_allowed) {
    ctx.fail();
    return false;
  }
  if (layout.max_allowed == INT64_MAX) return true;
  // Upper-bound reasoning: every term's minimum is in total.lo; see how much room is left.
  for (const CounterTerm& term : layout.terms) {
    ConditionState state;
    for (size_t i = 0; i < term.conditions.size(); ++i) {
      Truth t = literal_in(ctx, term.conditions[i].var, term.conditions[i].mask.data());
      if (t == Truth::False) state.truth = Truth::False;
      if (t == Truth::Unknown) {
        ++state.open_count;
        state.last_open = static_cast<int>(i);
      }
    }
    if (state.truth == Truth::False) continue;
    int64_t vmin = term.value_const;
    if (term.value_var >= 0) {
      vmin = INT64_MAX;
      for (int v : values(c, term.value_var)) vmin = std::min(vmin, vars_[term.value_var].ints[v]);
    }
    bool holds_surely = state.open_count == 0;
    // The rest of the counter at its smallest, without this term's own contribution.
    int64_t own_lo = holds_surely ? vmin : (layout.is_product ? std::min<int64_t>(1, vmin)
                                                              : std::min<int64_t>(0, vmin));
    int64_t rest_lo;
    if (layout.is_product) {
      if (own_lo <= 0) continue;
      rest_lo = total.lo / own_lo;
    } else {
      rest_lo = total.lo - own_lo;
    }
    auto fits = [&](int64_t value) {
      int64_t with = layout.is_product ? saturating_mul(rest_lo, value)
                                       : saturating_add(rest_lo, value);
      return with <= layout.max_allowed;
    };
    if (holds_surely) {
      if (term.value_var < 0) continue;
      std::vector<Word> keep(vars_[term.value_var].words, 0);
      for (int v : values(c, term.value_var)) {
        if (fits(vars_[term.value_var].ints[v])) keep[v / kWordBits] |= Word{1} << (v % kWordBits);
      }
      if (!ctx.restrict(term.value_var, keep.data())) return false;
    } else if (state.open_count == 1 && !fits(vmin)) {
      // Counting this term would break the bound whatever its value: its condition is false.
      const TermCondition& cond = term.conditions[state.last_open];
      std::vector<Word> complement(cond.mask.size());
      for (size_t w = 0; w < complement.size(); ++w) complement[w] = ~cond.mask[w];
      if (!ctx.restrict(cond.var, complement.data())) return false;
    }
  }
  return true;
}

bool Space::satisfies_all(const Candidate& c) const {
  if (c.words.size() != total_words_ || !is_complete(c)) return false;
  for (int k = 0; k < num_counters(); ++k) {
    Interval total = evaluate_counter(c, k);
    if (total.lo < counters_[k].min_allowed || total.hi > counters_[k].max_allowed) return false;
  }
  return check_clauses(c);
}

}  // namespace candor
