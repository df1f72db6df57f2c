#include "search.h"

namespace candor {

double Objective::lower_bound(const Space&, const Candidate&) const {
  return -std::numeric_limits<double>::infinity();
}

double Objective::estimate(const Space& space, const Candidate& c) const {
  return lower_bound(space, c);
}

void Objective::estimate_batch(const Space& space, const std::vector<const Candidate*>& batch,
                               std::vector<double>& out) const {
  out.resize(batch.size());
  for (size_t i = 0; i < batch.size(); ++i) out[i] = estimate(space, *batch[i]);
}

namespace {

std::vector<Decision> one_child_per_value(const Space& space, const Candidate& c, int var) {
  std::vector<Decision> children;
  if (var < 0) return children;
  for (int value : space.values(c, var)) {
    children.push_back({Restriction{var, space.single_value_mask(var, value)}});
  }
  return children;
}

}  // namespace

std::vector<int> Brancher::var_order(const Space& space) const {
  std::vector<int> order(space.num_vars());
  for (int v = 0; v < space.num_vars(); ++v) order[v] = v;
  return order;
}

std::vector<int> VarOrderBrancher::var_order(const Space& space) const {
  std::vector<int> order = order_;
  std::vector<bool> listed(space.num_vars(), false);
  for (int v : order_)
    if (v >= 0 && v < space.num_vars()) listed[v] = true;
  for (int v = 0; v < space.num_vars(); ++v)
    if (!listed[v]) order.push_back(v);
  return order;
}

std::vector<Decision> FirstOpenVarBrancher::branch(const Space& space, const Candidate& c) const {
  return one_child_per_value(space, c, space.first_open_var(c));
}

std::vector<Decision> VarOrderBrancher::branch(const Space& space, const Candidate& c) const {
  for (int var : order_) {
    if (!space.is_fixed(c, var)) return one_child_per_value(space, c, var);
  }
  return one_child_per_value(space, c, space.first_open_var(c));
}

}  // namespace candor
