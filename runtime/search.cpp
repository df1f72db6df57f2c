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

std::vector<Decision> FirstOpenVarBrancher::branch(const Space& space, const Candidate& c) const {
  std::vector<Decision> children;
  int var = space.first_open_var(c);
  if (var < 0) return children;
  for (int value : space.values(c, var)) {
    children.push_back({Restriction{var, space.single_value_mask(var, value)}});
  }
  return children;
}

}  // namespace candor
