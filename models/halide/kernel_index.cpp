#include "kernel_index.h"

namespace candor::models::halide {

namespace hb = candor::halide_bridge;

KernelIndex::KernelIndex(const hb::KernelDescription& kd) : edges_(kd.edges.data()) {
  for (size_t i = 0; i < kd.funcs.size(); ++i) funcs_[kd.funcs[i].name] = int(i);
  for (const hb::InputInfo& in : kd.inputs) inputs_.emplace(in.name, &in);
  into_.resize(kd.funcs.size());
  from_.resize(kd.funcs.size());
  for (size_t i = 0; i < kd.funcs.size(); ++i) {
    int stages = 0;
    for (const hb::StageInfo& st : kd.funcs[i].stages) stages = std::max(stages, st.index + 1);
    into_[i].resize(size_t(stages));
  }
  for (const hb::Edge& e : kd.edges) {
    const int p = func(e.producer), c = func(e.consumer);
    producer_.push_back(p);
    consumer_.push_back(c);
    input_.push_back(e.producer_is_input ? input(e.producer) : nullptr);
    if (c >= 0 && e.consumer_stage >= 0) {
      auto& stages = into_[size_t(c)];
      if (size_t(e.consumer_stage) >= stages.size()) stages.resize(size_t(e.consumer_stage) + 1);
      stages[size_t(e.consumer_stage)].push_back(&e);
    }
    if (p >= 0 && e.consumer != e.producer) from_[size_t(p)].push_back(&e);
  }
}

int KernelIndex::func(const std::string& name) const {
  const auto it = funcs_.find(name);
  return it == funcs_.end() ? -1 : it->second;
}

const std::vector<const hb::Edge*>& KernelIndex::edges_into(int f, int stage) const {
  if (f < 0 || size_t(f) >= into_.size() || stage < 0 || size_t(stage) >= into_[size_t(f)].size()) return none_;
  return into_[size_t(f)][size_t(stage)];
}

const std::vector<const hb::Edge*>& KernelIndex::edges_from(int f) const {
  return f < 0 || size_t(f) >= from_.size() ? none_ : from_[size_t(f)];
}

const hb::InputInfo* KernelIndex::input(const std::string& name) const {
  const auto it = inputs_.find(name);
  return it == inputs_.end() ? nullptr : it->second;
}

}  // namespace candor::models::halide
