// The basic-block models plugged into the search runtime: reading a candidate of an order
// space as a PartialOrder, the objective (exact makespan, lower bound, estimate) and the
// "which instruction issues next" brancher.
//
// They work on any Space that stores, for every pair of instructions, one variable whose
// values say which of the two issues first (the generated basic_block space, or a
// hand-written one); an OrderEncoding says which variable and which value.
#pragma once

#include <functional>
#include <utility>
#include <vector>

#include "basic_block.h"
#include "search.h"
#include "space.h"

namespace candor::models {

// Where the order of each pair lives: for a != b, var(a, b) is the variable holding the
// order of a and b (the same variable as var(b, a)), and before_value(a, b) the value that
// means "a issues before b" (for an antisymmetric choice stored once as order(a, b):
// BEFORE's index for (a, b), AFTER's index for (b, a)).
class OrderEncoding {
 public:
  OrderEncoding() = default;
  // `pair(a, b)` returns {variable, value meaning a before b}, for every a != b.
  OrderEncoding(int n, const std::function<std::pair<int, int>(int, int)>& pair);
  int size() const { return n_; }
  int var(int a, int b) const { return var_[a * n_ + b]; }
  int before_value(int a, int b) const { return before_[a * n_ + b]; }

 private:
  int n_ = 0;
  std::vector<int> var_, before_;
};

// What candidate c knows about the order of each pair (a pair is known once its variable is
// fixed).
PartialOrder partial_order(const Space& space, const Candidate& c, const OrderEncoding& enc);
// The issue order of a complete candidate (instructions sorted by how many issue before
// them); empty when the pairs do not form a total order.
std::vector<int> issue_order(const Space& space, const Candidate& c, const OrderEncoding& enc);

// cost: the exact makespan of a complete candidate (infinity if its pairs are not a valid
// total order). lower_bound: models::lower_bound of its partial order (admissible, exact on
// complete candidates). estimate: the makespan of the list-scheduling completion of the
// partial order (an achievable makespan; the default), or the lower bound.
class BasicBlockObjective : public Objective {
 public:
  enum class Estimate { ListSchedule, LowerBound };
  BasicBlockObjective(BasicBlock block, OrderEncoding enc, Estimate estimate = Estimate::ListSchedule);

  double cost(const Space& space, const Candidate& c) const override;
  double lower_bound(const Space& space, const Candidate& c) const override;
  double estimate(const Space& space, const Candidate& c) const override;

  const BasicBlock& block() const { return block_; }
  const OrderEncoding& encoding() const { return enc_; }

 private:
  BasicBlock block_;
  OrderEncoding enc_;
  Estimate estimate_;
};

// "Which instruction issues next". The instructions known to precede all the others form the
// issued prefix; the children are one per remaining instruction x that may still come first
// (no remaining instruction is known before it, none of its dependencies remains), each
// restricting order(x, y) to "x before y" for every remaining y. The children partition the
// candidate's implementations. They come in list-scheduling order (earliest possible issue
// after the prefix, then highest critical-path priority, then lowest index), so the first
// depth-first dive reproduces models::list_schedule. When at most one instruction remains
// but variables are still open (other choices of a larger space), it falls back to the
// first open variable.
class NextInstructionBrancher : public Brancher {
 public:
  NextInstructionBrancher(BasicBlock block, OrderEncoding enc);
  std::vector<Decision> branch(const Space& space, const Candidate& c) const override;

 private:
  BasicBlock block_;
  OrderEncoding enc_;
  std::vector<Cycles> priority_;
};

}  // namespace candor::models
