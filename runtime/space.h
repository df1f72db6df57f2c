// Space: one decision space instantiated on one kernel (the "instance").
//
// It is immutable once built and shared by every candidate of the instance. Generated code
// (dslc) derives from it: the generated class lays out the variables, fills the counters'
// terms, and implements `post` (the initial full check of every constraint) and `on_change`
// (the constraint handlers watching one variable). Searches see only this interface.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "candidate.h"
#include "propagation.h"

namespace candor {

// A restriction of one variable to a set of values (bit i of `mask` keeps value i).
struct Restriction {
  int var = -1;
  std::vector<Word> mask;
};

// A decision: restrictions applied together, then propagated.
using Decision = std::vector<Restriction>;

class Space {
 public:
  virtual ~Space() = default;
  Space(const Space&) = delete;
  Space& operator=(const Space&) = delete;

  // --- layout ---------------------------------------------------------------------------
  int num_vars() const { return static_cast<int>(vars_.size()); }
  int num_counters() const { return static_cast<int>(counters_.size()); }
  // Values a variable can take (its universe), and how they print.
  int universe_size(int var) const { return vars_[var].universe_size; }
  std::string var_name(int var) const;
  std::string value_name(int var, int value) const;
  // Integer choices: the integer of universe index `value` (enums: the value index).
  int64_t value_int(int var, int value) const;
  bool is_enum_var(int var) const { return vars_[var].is_enum; }
  // Whether the values' order means something to a local move (a tile size grows or
  // shrinks): integer choices, except those the spec declares `categorical`.
  bool has_ordered_values(int var) const { return !vars_[var].is_enum && !vars_[var].categorical; }
  // The choice declaration a variable instantiates (tile(f.x) and tile(g.y): the same one).
  int var_decl(int var) const { return vars_[var].decl; }
  std::string counter_name(int counter) const;
  // By those names: the variable named `name`, or -1; the value named `name` among those `c`
  // still allows for `var`, or -1.
  int var_named(const std::string& name) const;
  int value_named(const Candidate& c, int var, const std::string& name) const;

  // --- candidates -----------------------------------------------------------------------
  // The root candidate: every universe allowed, then every constraint posted and propagated.
  // nullopt when the instance has no solution that propagation can see.
  std::optional<Candidate> root() const;
  // Applies a decision and propagates to a fixed point; false when the candidate failed
  // (it is then unusable).
  bool apply(Candidate& candidate, const Decision& decision) const;
  bool fix(Candidate& candidate, int var, int value) const;
  bool remove(Candidate& candidate, int var, int value) const;

  // --- queries --------------------------------------------------------------------------
  bool contains(const Candidate& c, int var, int value) const;
  int domain_size(const Candidate& c, int var) const;
  bool is_fixed(const Candidate& c, int var) const { return domain_size(c, var) == 1; }
  // The value of a fixed variable (the smallest allowed value otherwise).
  int first_value(const Candidate& c, int var) const;
  std::vector<int> values(const Candidate& c, int var) const;
  Interval counter(const Candidate& c, int counter) const;
  bool is_complete(const Candidate& c) const;
  // The open variables in the stable order (declaration order, then argument tuples).
  std::vector<int> open_vars(const Candidate& c) const;
  int first_open_var(const Candidate& c) const;  // -1 when complete
  // One line per variable ("order(i0, i1) = {BEFORE}") and per counter.
  std::string print(const Candidate& c) const;

  // A mask of `var`'s width with exactly `value` set.
  std::vector<Word> single_value_mask(int var, int value) const;

  // Where each variable's words start, and how many it has (flat arrays for propagators).
  const size_t* var_offsets() const { return var_offsets_.data(); }
  const int* var_word_counts() const { return var_word_counts_.data(); }

  // Words per candidate (for memory accounting by searches).
  size_t candidate_words() const { return total_words_; }

  // Checks every constraint on a complete candidate from scratch (no propagation state):
  // true exactly when the implementation satisfies the spec. Used by tests and searches
  // to double-check results.
  bool satisfies_all(const Candidate& c) const;

 protected:
  Space() = default;

  struct VarLayout {
    int decl = 0;              // index of the choice declaration
    std::vector<int> args;     // object indices
    int universe_size = 0;
    bool is_enum = true;
    std::vector<int64_t> ints;  // integer choices: the universe's integers
    bool categorical = false;   // integer choices whose integers only label alternatives
    size_t offset = 0;          // first word in the candidate
    int words = 1;
  };
  // A literal of a counter term's condition: the term counts while var's value is in mask.
  struct TermCondition {
    int var = -1;
    std::vector<Word> mask;
  };
  struct CounterTerm {
    std::vector<TermCondition> conditions;
    int value_var = -1;       // integer choice giving the value, or -1
    int64_t value_const = 1;  // the value when value_var < 0
  };
  struct CounterLayout {
    int decl = 0;
    std::vector<int> args;
    bool is_product = false;
    std::vector<CounterTerm> terms;
    int64_t min_allowed = INT64_MIN;  // from the counter bounds on this instance
    int64_t max_allowed = INT64_MAX;
    size_t offset = 0;
  };

  // Called by the generated constructor, in this order: add variables and counters, then
  // finish_layout(), then the watch lists are derived from the counters' terms.
  // Throws std::invalid_argument when the instance's choices would not fit in half of the
  // process's memory (support::default_memory_budget), before allocating past it.
  int add_var(VarLayout layout);
  int add_counter(CounterLayout layout);
  void finish_layout();
  CounterLayout& counter_layout(int counter) { return counters_[counter]; }
  const VarLayout& var_layout(int var) const { return vars_[var]; }
  // The integers of an integer choice's universe; nullptr for enum choices (whose values
  // compare by index).
  const int64_t* var_ints(int var) const {
    return vars_[var].is_enum ? nullptr : vars_[var].ints.data();
  }
  // The values of integer choice `var` whose integer v satisfies `v op rhs`.
  std::vector<Word> compare_mask(int var, Relation op, int64_t rhs) const;

  // Names the generated code provides for printing.
  virtual std::string decl_name(int decl) const = 0;
  virtual std::string counter_decl_name(int decl) const = 0;
  virtual std::string object_name(int var_decl, int arg_position, int object) const = 0;
  virtual std::string enum_value_name(int decl, int value) const = 0;
  // Counter object names use the counter declaration's formals.
  virtual std::string counter_object_name(int counter_decl, int arg_position,
                                          int object) const = 0;

  // Posts every clause once on the root (a full scan), enqueueing what it narrows.
  virtual void post(PropagationContext& ctx) const = 0;
  // Runs the clause handlers watching `var` after its domain changed.
  virtual void on_change(PropagationContext& ctx, int var) const = 0;
  // Full check of every clause on a complete candidate.
  virtual bool check_clauses(const Candidate& c) const = 0;

 private:
  friend class PropagationContext;
  bool propagate(PropagationContext& ctx) const;
  bool propagate_counter(PropagationContext& ctx, int counter) const;
  Interval evaluate_counter(const Candidate& c, int counter) const;

  std::vector<VarLayout> vars_;
  int64_t layout_bytes_ = 0;  // estimated bytes of vars_ and one candidate's words
  std::vector<CounterLayout> counters_;
  std::vector<std::vector<int>> counters_watching_var_;
  std::vector<size_t> var_offsets_;
  std::vector<int> var_word_counts_;
  size_t total_words_ = 0;
};

}  // namespace candor
