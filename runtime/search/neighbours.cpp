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
  if (!space.has_ordered_values(var)) {
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
// in `run`, which counts it against its budget and offers the implementation reached; false
// when the space allows no completion (or the budget stopped the dive). The decisions in
// `released` (if any) are not kept but completed with the rest.
bool move(search_detail::Run& run, const Candidate& root, const Candidate& centre, const std::vector<int>& order,
          int var, int value, Neighbour& out, const std::set<int>* released = nullptr) {
  const Space& space = run.space;
  Candidate c = root;
  if (!space.fix(c, var, value)) return false;
  for (int v : order) {
    if (space.is_fixed(c, v) || (released && released->count(v))) continue;
    const int kept = space.first_value(centre, v);
    if (!space.contains(c, v, kept)) continue;
    Candidate next = c;
    if (space.fix(next, v, kept)) {
      c = std::move(next);
    } else if (!space.remove(c, v, kept)) {
      return false;
    }
  }
  out.cost = search_detail::dive(run, c, search_detail::DivePolicy::Greedy, run.rng, &out.candidate);
  out.var = var;
  out.value = value;
  return out.cost < search_detail::kInf;
}

// `order`, then every variable it leaves out (the order a VarOrderBrancher decides them in).
std::vector<int> every_var(const Space& space, const std::vector<int>& order) {
  return VarOrderBrancher(order).var_order(space);
}

// The decisions `vars` takes after vars[i] and before the next one of the declaration `vars`
// starts with: where the order decides one object's choices together (a Func's location, host,
// annotations and tiles, then the next Func's), the choices that go with vars[i]'s.
std::set<int> block_after(const Space& space, const std::vector<int>& vars, size_t i) {
  std::set<int> out;
  const int head = space.var_decl(vars.front());
  for (size_t j = i + 1; j < vars.size() && space.var_decl(vars[j]) != head; ++j) out.insert(vars[j]);
  return out;
}

bool phase_over(search_detail::Run& run, const search_detail::PhaseLimit& limit) {
  return run.stats.expanded >= limit.until_expanded ||
         (limit.until_seconds < search_detail::kInf && run.elapsed() >= limit.until_seconds);
}

// The kicks of `centre`: the block moves of the choices the order's first declaration makes
// (a Func's placement, moved with its host, annotations and tiles re-made), distinct and
// cheapest first. Block moves of the later choices (an annotation with the tiles after it)
// mostly lead back to the same minimum: lens_blur's 32 kicks of every alternative spent a
// phase on cheap ones that did, and its placements' 8 escaped twice in 6 s.
std::vector<Neighbour> kicks_of(search_detail::Run& run, const Candidate& root, const Candidate& centre,
                                const std::vector<int>& vars) {
  const Space& space = run.space;
  std::set<std::vector<Word>> seen = {centre.words};
  std::vector<Neighbour> out;
  const int head = space.var_decl(vars.front());
  for (size_t i = 0; i < vars.size(); ++i) {
    if (space.has_ordered_values(vars[i]) || space.var_decl(vars[i]) != head) continue;
    const std::set<int> block = block_after(space, vars, i);
    if (block.empty()) continue;
    for (int value : moves(space, root, vars[i], space.first_value(centre, vars[i]))) {
      if (run.stop()) return out;
      ++run.stats.expanded;
      Neighbour n;
      if (move(run, root, centre, vars, vars[i], value, n, &block) && seen.insert(n.candidate.words).second)
        out.push_back(std::move(n));
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Neighbour& a, const Neighbour& b) { return a.cost < b.cost; });
  return out;
}

}  // namespace

std::vector<Neighbour> neighbours(const Space& space, const Objective& objective, const Candidate& root,
                                  const Candidate& centre, const std::vector<int>& order) {
  const VarOrderBrancher brancher(order);
  const std::vector<int> vars = brancher.var_order(space);
  const Budget unlimited;
  search_detail::Run run(space, objective, brancher, unlimited);

  std::set<std::vector<Word>> seen = {centre.words};
  std::map<int, std::vector<Neighbour>> by_var;
  for (int var : vars) {
    for (int value : moves(space, root, var, space.first_value(centre, var))) {
      Neighbour n;
      if (!move(run, root, centre, vars, var, value, n) || !seen.insert(n.candidate.words).second) continue;
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

namespace search_detail {

Descent descend(Run& run, const Candidate& root, const Candidate& start, double start_cost,
                const std::vector<int>& order, const PhaseLimit& limit) {
  const Space& space = run.space;
  const std::vector<int> vars = every_var(space, order);
  Descent out;
  out.best = start;
  out.cost = start_cost;
  const SearchStats before = run.stats;
  // First improvement, scanning the decisions round robin: a full scan costs about one
  // greedy completion per move, and a move that helps is taken at once rather than after the
  // scan. The decision just moved is scanned again first (a tile size may go on growing).
  //
  // A choice between alternatives (an enum or categorical decision: where a Func is computed,
  // whether it is vectorized) is also moved with the decisions that go with it re-made
  // (block_after: the Func's host, annotations and tiles), after the plain moves of it: the
  // tiles that suit a Func at the root are rarely those that suit it inside its consumer's
  // tiles, so a plain move there is priced with tiles chosen for the other placement
  // (local_laplacian's gpyr_1_down_x at the root, 0.087 ms predicted, 0.61 ms measured; inside
  // the output's strips with its own tiles 0.077 and 0.28).
  size_t since_move = 0;  // decisions scanned in vain since the last move
  bool cut = false;       // the budget stopped a scan
  for (size_t i = 0; since_move < vars.size() && !run.stop() && !cut;) {
    const int var = vars[i];
    bool moved = false;
    const std::vector<int> values = moves(space, root, var, space.first_value(out.best, var));
    const std::set<int> block = space.has_ordered_values(var) ? std::set<int>{} : block_after(space, vars, i);
    for (size_t m = 0; m < values.size() * (block.empty() ? 1 : 2); ++m) {
      const int value = values[m % values.size()];
      if (run.stop() || phase_over(run, limit)) {
        cut = true;
        break;
      }
      // A move counts as an expansion (of the centre into a neighbour), so a node limit
      // bounds the descent even where moves need no completion.
      ++run.stats.expanded;
      Neighbour n;
      if (!move(run, root, out.best, vars, var, value, n, m < values.size() ? nullptr : &block)) continue;
      ++out.evaluated;
      if (n.cost < out.cost) {
        out.best = std::move(n.candidate);
        out.cost = n.cost;
        ++out.moves;
        moved = true;
        break;
      }
    }
    if (moved) {
      since_move = 0;
    } else {
      ++since_move;
      i = (i + 1) % vars.size();
    }
  }
  out.converged = since_move >= vars.size() && !cut;
  out.stats = run.stats;
  out.stats.created -= before.created;
  out.stats.expanded -= before.expanded;
  out.stats.failed -= before.failed;
  out.stats.pruned_by_bound -= before.pruned_by_bound;
  out.stats.complete -= before.complete;
  out.stats.best_over_time.clear();
  out.stats.seconds = run.elapsed();
  return out;
}

bool Kicks::escape(Run& run, const Candidate& root, const std::vector<int>& order, const PhaseLimit& limit) {
  if (!run.best()) return false;
  const std::vector<int> vars = every_var(run.space, order);
  if (!(run.best_cost() == centre_cost_)) {
    centre_cost_ = run.best_cost();
    const Candidate centre = *run.best();
    kicks_ = kicks_of(run, root, centre, vars);
    next_ = 0;
    if (run.best_cost() < centre_cost_) return true;  // a kick's completion was better still
  }
  const double before = centre_cost_;
  while (next_ < kicks_.size() && !run.stop() && !phase_over(run, limit)) {
    const Neighbour& kick = kicks_[next_++];
    descend(run, root, kick.candidate, kick.cost, order, limit);
    if (run.best_cost() < before) return true;  // the next call kicks the new incumbent
  }
  return false;
}

bool Kicks::spent(const Run& run) const { return run.best_cost() == centre_cost_ && next_ >= kicks_.size(); }

}  // namespace search_detail

Descent iterated_descent(const Space& space, const Objective& objective, const Candidate& root,
                         const Candidate& start, const std::vector<int>& order, const Budget& budget) {
  const VarOrderBrancher brancher(order);
  search_detail::Run run(space, objective, brancher, budget);
  Descent out = search_detail::descend(run, root, start, objective.cost(space, start), order);
  if (!out.converged) return out;
  run.offer(out.best);
  search_detail::Kicks kicks;
  while (!run.stop()) {
    if (kicks.escape(run, root, order, {})) {
      // Settle the new incumbent before kicking it.
      search_detail::descend(run, root, *run.best(), run.best_cost(), order);
      ++out.moves;
    } else if (kicks.spent(run)) {
      break;
    }
  }
  out.best = *run.best();
  out.cost = run.best_cost();
  out.converged = kicks.spent(run) && !run.budget_hit();
  out.stats = run.stats;
  out.stats.best_over_time.clear();
  out.stats.seconds = run.elapsed();
  return out;
}

Descent descend(const Space& space, const Objective& objective, const Candidate& root, const Candidate& start,
                const std::vector<int>& order, const Budget& budget) {
  const VarOrderBrancher brancher(order);
  search_detail::Run run(space, objective, brancher, budget);
  return search_detail::descend(run, root, start, objective.cost(space, start), order);
}

}  // namespace candor
