// Basic blocks: the `.bb` format, the issue model, and the models the searches use on the
// basic-block space (exact makespan, critical-path list scheduling, the lower bound of a
// partial order, a brute-force optimum for tests).
//
// Issue model (docs/DESIGN.md): one instruction issues per cycle, in the chosen order; the
// first issues at cycle 0; an instruction issues at least one cycle after the one before it
// and at least latency(d) cycles after each dependency d issues; the makespan is the largest
// issue cycle plus latency.
//
// Nothing here depends on a Space: partial orders are given as a PartialOrder matrix
// (basic_block_space.h adapts candidates of the generated space to it).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace candor::models {

// Cycle counts: issue times, makespans and bounds. A block's makespan can exceed 2^31 (a
// latency is at most 999,999,999 cycles), so cycles are counted in 64 bits.
using Cycles = int64_t;

struct BasicBlock {
  std::vector<std::string> names;
  std::vector<int> latency;             // > 0
  std::vector<std::vector<int>> deps;   // deps[i]: instructions i reads, all < i, no repeats

  int size() const { return static_cast<int>(names.size()); }
};

// A `.bb` syntax or semantic error; what() is "file:line:col: error: message".
class ParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses `.bb` text. `file` names it in diagnostics. Throws ParseError on: a malformed name,
// a missing, non-integer or non-positive latency, an unknown dependency or one defined later
// (or the instruction itself), a duplicate name, and a file without instructions. A
// dependency listed twice on one line counts once.
BasicBlock parse_basic_block(const std::string& text, const std::string& file = "<input>");
// Reads and parses a file (ParseError "path: error: cannot read file" when unreadable).
BasicBlock read_basic_block(const std::string& path);
// The block in `.bb` syntax (parse_basic_block(to_text(b)) == b).
std::string to_text(const BasicBlock& block);

// A random block: every pair i < j is a dependency of j with `edge_probability`; latencies
// uniform in [min_latency, max_latency]; names i0, i1, ... Deterministic for a seed.
struct RandomBlockOptions {
  int size = 8;
  double edge_probability = 0.3;
  int min_latency = 1;
  int max_latency = 4;
  uint64_t seed = 0;
};
BasicBlock random_basic_block(const RandomBlockOptions& options);

// --- complete orders ----------------------------------------------------------------------

// Whether `order` is a permutation of the instructions with every dependency first.
bool is_valid_order(const BasicBlock& block, const std::vector<int>& order);
// Issue cycle of every instruction (indexed by instruction) under `order`; throws
// std::invalid_argument when the order is not valid.
std::vector<Cycles> issue_times(const BasicBlock& block, const std::vector<int>& order);
// The exact makespan of a valid order (throws std::invalid_argument otherwise).
Cycles makespan(const BasicBlock& block, const std::vector<int>& order);

// --- partial orders -----------------------------------------------------------------------

enum class Rel : signed char { After = -1, Open = 0, Before = 1 };

// What is known about the relative order of each pair of instructions. Need not be closed
// under transitivity, need not contain the dependencies (the models add them).
class PartialOrder {
 public:
  explicit PartialOrder(int n = 0) : n_(n), rel_(static_cast<size_t>(n) * n, 0) {}
  int size() const { return n_; }
  Rel get(int a, int b) const { return static_cast<Rel>(rel_[a * n_ + b]); }
  bool before(int a, int b) const { return get(a, b) == Rel::Before; }
  // Records "a issues before b" (and "b after a").
  void set_before(int a, int b) {
    rel_[a * n_ + b] = 1;
    rel_[b * n_ + a] = -1;
  }
  void set_open(int a, int b) { rel_[a * n_ + b] = rel_[b * n_ + a] = 0; }
  // Every pair ordered as in the total order `order`.
  static PartialOrder from_total(const std::vector<int>& order);

 private:
  int n_;
  std::vector<signed char> rel_;
};

// --- heuristics and bounds ---------------------------------------------------------------

// Critical-path priority: the longest latency path from the issue of i to the end of the
// block through dependencies, latency(i) included.
std::vector<Cycles> critical_path_priority(const BasicBlock& block);

// Critical-path list scheduling (the baseline heuristic). Repeatedly takes, among the ready
// instructions (every dependency, and every instruction `constraints` puts before it,
// already issued), the one that can issue earliest, ties broken by the highest critical-path
// priority, then the lowest index. This is the classic cycle-driven list scheduler (highest
// priority among the instructions whose operands are available, stalling when none is).
// With `constraints`, the result is a completion of that partial order (an empty order when
// the constraints contain a cycle).
std::vector<int> list_schedule(const BasicBlock& block, const PartialOrder* constraints = nullptr);

// The lower bound of a partial order (thesis §2.4, strengthened). Precedence graph: a -> b
// with weight 1 when the order puts a before b, weight latency(a) when b depends on a (the
// larger when both). head(i) (earliest issue) is the longest path into i, raised to the
// earliest cycle after all its ancestors can have issued at distinct cycles from their own
// heads; tail(i) (cycles from the issue of i to the end) is the longest path out of i plus
// the latency of its end, raised to 1 + max_k(k + q_k) over its descendants' tails q sorted
// decreasingly. The bound is the optimum of the one-issue-per-cycle relaxation with release
// times head and delivery times tail (Jackson's rule is exact for unit-time jobs), which is
// at least max_i head(i) + tail(i), the thesis' critical path. Admissible (never above the
// makespan of any completion), monotone (more ordered pairs never lower it), and equal to
// the exact makespan on a complete order. kInfeasible when the order has a cycle.
constexpr Cycles kInfeasible = Cycles(1) << 60;
struct BoundDetail {
  std::vector<Cycles> head, tail;
  Cycles critical_path = 0;  // max head + tail
  Cycles value = 0;          // the bound
};
Cycles lower_bound(const BasicBlock& block, const PartialOrder& order, BoundDetail* detail = nullptr);

// The best completion of `constraints` (every total order when null), by exhaustive
// enumeration of the orders respecting dependencies and constraints, pruned only by the
// makespan reached so far. For tests and small blocks (n <= 10 in well under a second).
// nullopt when no completion exists.
struct Schedule {
  std::vector<int> order;
  Cycles makespan = 0;
};
std::optional<Schedule> brute_force_optimum(const BasicBlock& block,
                                            const PartialOrder* constraints = nullptr);

}  // namespace candor::models
