#include "basic_block_search.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace candor::models {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}

OrderEncoding::OrderEncoding(int n, const std::function<std::pair<int, int>(int, int)>& pair)
    : n_(n), var_(static_cast<size_t>(n) * n, -1), before_(static_cast<size_t>(n) * n, -1) {
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      if (a == b) continue;
      auto [var, value] = pair(a, b);
      var_[a * n + b] = var;
      before_[a * n + b] = value;
    }
  }
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      if (var_[a * n + b] != var_[b * n + a] || before_[a * n + b] == before_[b * n + a]) {
        throw std::invalid_argument(
            "OrderEncoding: (a, b) and (b, a) must share one variable with distinct values");
      }
    }
  }
}

PartialOrder partial_order(const Space& space, const Candidate& c, const OrderEncoding& enc) {
  const int n = enc.size();
  PartialOrder p(n);
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      int var = enc.var(a, b);
      if (!space.is_fixed(c, var)) continue;
      if (space.first_value(c, var) == enc.before_value(a, b)) {
        p.set_before(a, b);
      } else {
        p.set_before(b, a);
      }
    }
  }
  return p;
}

std::vector<int> issue_order(const Space& space, const Candidate& c, const OrderEncoding& enc) {
  const int n = enc.size();
  PartialOrder p = partial_order(space, c, enc);
  std::vector<int> order(n, -1);
  for (int x = 0; x < n; ++x) {
    int position = 0;
    for (int y = 0; y < n; ++y) {
      if (y == x) continue;
      if (p.get(x, y) == Rel::Open) return {};
      position += p.before(y, x);
    }
    if (order[position] >= 0) return {};  // not a total order (a cycle)
    order[position] = x;
  }
  // Distinct positions of a tournament are transitive only if every pair agrees.
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      if (!p.before(order[i], order[j])) return {};
    }
  }
  return order;
}

BasicBlockObjective::BasicBlockObjective(BasicBlock block, OrderEncoding enc, Estimate estimate)
    : block_(std::move(block)), enc_(std::move(enc)), estimate_(estimate) {
  if (enc_.size() != block_.size()) {
    throw std::invalid_argument("BasicBlockObjective: encoding and block sizes differ");
  }
}

double BasicBlockObjective::cost(const Space& space, const Candidate& c) const {
  std::vector<int> order = issue_order(space, c, enc_);
  if (order.empty() || !is_valid_order(block_, order)) return kInf;
  return makespan(block_, order);
}

double BasicBlockObjective::lower_bound(const Space& space, const Candidate& c) const {
  const Cycles bound = models::lower_bound(block_, partial_order(space, c, enc_));
  return bound >= kInfeasible ? kInf : static_cast<double>(bound);
}

double BasicBlockObjective::estimate(const Space& space, const Candidate& c) const {
  PartialOrder p = partial_order(space, c, enc_);
  if (estimate_ == Estimate::LowerBound) {
    const Cycles bound = models::lower_bound(block_, p);
    return bound >= kInfeasible ? kInf : static_cast<double>(bound);
  }
  std::vector<int> order = list_schedule(block_, &p);
  if (order.empty()) return kInf;
  return makespan(block_, order);
}

NextInstructionBrancher::NextInstructionBrancher(BasicBlock block, OrderEncoding enc)
    : block_(std::move(block)), enc_(std::move(enc)), priority_(critical_path_priority(block_)) {
  if (enc_.size() != block_.size()) {
    throw std::invalid_argument("NextInstructionBrancher: encoding and block sizes differ");
  }
}

std::vector<Decision> NextInstructionBrancher::branch(const Space& space, const Candidate& c) const {
  const int n = block_.size();
  PartialOrder p = partial_order(space, c, enc_);
  // The issued prefix: instructions known to precede every other remaining one.
  std::vector<char> remaining(n, 1);
  std::vector<int> known_after(n, 0);  // remaining instructions known to come after x
  for (int x = 0; x < n; ++x) {
    for (int y = 0; y < n; ++y) known_after[x] += (x != y && p.before(x, y));
  }
  std::vector<int> prefix;
  int left = n;
  for (bool progress = true; progress && left > 1;) {
    progress = false;
    for (int x = 0; x < n; ++x) {
      if (remaining[x] && known_after[x] == left - 1) {
        remaining[x] = 0;
        prefix.push_back(x);
        --left;
        progress = true;
        break;
      }
    }
  }
  if (left <= 1) {
    FirstOpenVarBrancher fallback;
    return fallback.branch(space, c);
  }
  // Issue cycles of the prefix.
  std::vector<int> issue(n, -1);
  int previous = -1;
  for (int x : prefix) {
    int t = previous + 1;
    for (int d : block_.deps[x]) t = std::max(t, issue[d] + block_.latency[d]);
    issue[x] = previous = t;
  }
  struct Option {
    int instr, time;
  };
  std::vector<Option> options;
  for (int x = 0; x < n; ++x) {
    if (!remaining[x]) continue;
    bool may_be_first = true;
    for (int y = 0; y < n && may_be_first; ++y) may_be_first = !(remaining[y] && p.before(y, x));
    for (int d : block_.deps[x]) may_be_first = may_be_first && !remaining[d];
    if (!may_be_first) continue;
    int t = previous + 1;
    for (int d : block_.deps[x]) t = std::max(t, issue[d] + block_.latency[d]);
    options.push_back({x, t});
  }
  std::sort(options.begin(), options.end(), [&](const Option& a, const Option& b) {
    if (a.time != b.time) return a.time < b.time;
    if (priority_[a.instr] != priority_[b.instr]) return priority_[a.instr] > priority_[b.instr];
    return a.instr < b.instr;
  });
  std::vector<Decision> children;
  for (const Option& o : options) {
    Decision d;
    for (int y = 0; y < n; ++y) {
      if (y == o.instr || !remaining[y] || p.before(o.instr, y)) continue;
      int var = enc_.var(o.instr, y);
      d.push_back(Restriction{var, space.single_value_mask(var, enc_.before_value(o.instr, y))});
    }
    children.push_back(std::move(d));
  }
  return children;
}

}  // namespace candor::models
