#include "neighbours.h"

#include <algorithm>
#include <map>
#include <set>

#include "run.h"

namespace candor {
namespace {

// The values a move of `var` tries instead of `current`.
std::vector<int> moves(const Space& space, const Candidate& root, int var, int current) {
  std::vector<int> out;
  const std::vector<int> allowed = space.values(root, var);
  if (space.is_enum_var(var)) {
    for (int x : allowed)
      if (x != current) out.push_back(x);
    return out;
  }
  const int64_t now = space.value_int(var, current);
  int below = -1, above = -1;
  for (int x : allowed) {
    const int64_t v = space.value_int(var, x);
    if (v < now && (below < 0 || v > space.value_int(var, below))) below = x;
    if (v > now && (above < 0 || v < space.value_int(var, above))) above = x;
  }
  for (int x : {below, above})
    if (x >= 0) out.push_back(x);
  return out;
}

// `centre` with `var` changed to `value`, completed by a greedy dive (search_detail::dive)
// over `order`; false when the space allows no completion.
bool move(const Space& space, const Objective& objective, const Candidate& root, const Candidate& centre,
          const std::vector<int>& order, int var, int value, Neighbour& out) {
  Candidate c = root;
  if (!space.fix(c, var, value)) return false;
  for (int v : order) {
    if (space.is_fixed(c, v)) continue;
    const int kept = space.first_value(centre, v);
    if (!space.contains(c, v, kept)) continue;
    Candidate next = c;
    if (space.fix(next, v, kept)) {
      c = std::move(next);
    } else if (!space.remove(c, v, kept)) {
      return false;
    }
  }
  const VarOrderBrancher brancher(order);
  const Budget unlimited;
  search_detail::Run run(space, objective, brancher, unlimited);
  out.cost = search_detail::dive(run, c, search_detail::DivePolicy::Greedy, run.rng, &out.candidate);
  out.var = var;
  out.value = value;
  return out.cost < search_detail::kInf;
}

}  // namespace

std::vector<Neighbour> neighbours(const Space& space, const Objective& objective, const Candidate& root,
                                  const Candidate& centre, const std::vector<int>& order) {
  std::vector<int> every_var = order;
  std::vector<bool> listed(space.num_vars(), false);
  for (int v : order) listed[v] = true;
  for (int v = 0; v < space.num_vars(); ++v)
    if (!listed[v]) every_var.push_back(v);

  std::set<std::vector<Word>> seen = {centre.words};
  std::map<int, std::vector<Neighbour>> by_var;
  for (int var : every_var) {
    for (int value : moves(space, root, var, space.first_value(centre, var))) {
      Neighbour n;
      if (!move(space, objective, root, centre, every_var, var, value, n) || !seen.insert(n.candidate.words).second)
        continue;
      by_var[var].push_back(std::move(n));
    }
  }
  auto cheaper = [](const Neighbour& a, const Neighbour& b) { return a.cost < b.cost; };
  std::vector<std::vector<Neighbour>> rounds;
  for (auto& [var, moved] : by_var) {
    std::sort(moved.begin(), moved.end(), cheaper);
    for (size_t r = 0; r < moved.size(); ++r) {
      if (rounds.size() <= r) rounds.emplace_back();
      rounds[r].push_back(std::move(moved[r]));
    }
  }
  std::vector<Neighbour> out;
  for (std::vector<Neighbour>& round : rounds) {
    std::sort(round.begin(), round.end(), cheaper);
    for (Neighbour& n : round) out.push_back(std::move(n));
  }
  return out;
}

}  // namespace candor
