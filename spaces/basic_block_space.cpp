#include "basic_block_space.h"

#include <algorithm>
#include <numeric>

namespace candor {
namespace {

spaces::basic_block::Input make_input(std::vector<std::string> names, const std::vector<int>& latency,
                                      const std::vector<std::vector<int>>& deps) {
  spaces::basic_block::Input in;
  in.instr_count = static_cast<int>(names.size());
  in.instr_names = std::move(names);
  for (int i = 0; i < in.instr_count; ++i) {
    in.latency[{i}] = latency.at(i);
    for (int d : deps.at(i)) in.depends.push_back({d, i});
  }
  return in;
}

}  // namespace

BasicBlockSpace::BasicBlockSpace(std::vector<std::string> names, std::vector<int> latency,
                                 std::vector<std::vector<int>> deps)
    : GeneratedSpace(make_input(std::move(names), latency, deps)), deps_(std::move(deps)) {}

int BasicBlockSpace::known_order(const Candidate& c, int a, int b) const {
  spaces::basic_block::ChoiceRef r = order_ref(a, b);
  if (is_fixed(c, r.var) == false) return 0;
  bool before = (first_value(c, r.var) == spaces::basic_block::Order::BEFORE) != r.mirrored;
  return before ? 1 : -1;
}

std::vector<int> BasicBlockSpace::issue_order(const Candidate& c) const {
  const int n = num_instructions();
  // In a total order, an instruction's position is the number of instructions before it.
  std::vector<int> position(n, 0);
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      if (known_order(c, a, b) > 0) ++position[b];
      else ++position[a];
    }
  }
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int x, int y) { return position[x] < position[y]; });
  return order;
}

}  // namespace candor
