#include "basic_block_space.h"

namespace candor {
namespace {

spaces::basic_block::Input make_input(const models::BasicBlock& block) {
  spaces::basic_block::Input in;
  in.instr_count = block.size();
  in.instr_names = block.names;
  for (int i = 0; i < in.instr_count; ++i) {
    in.latency[{i}] = block.latency.at(i);
    for (int d : block.deps.at(i)) in.depends.push_back({d, i});
  }
  return in;
}

}  // namespace

BasicBlockSpace::BasicBlockSpace(models::BasicBlock block)
    : GeneratedSpace(make_input(block)), block_(std::move(block)) {
  encoding_ = models::OrderEncoding(block_.size(), [this](int a, int b) {
    spaces::basic_block::ChoiceRef r = order_ref(a, b);
    int before = r.mirrored ? spaces::basic_block::Order::AFTER : spaces::basic_block::Order::BEFORE;
    return std::make_pair(r.var, before);
  });
}

}  // namespace candor
