// Beam search with coarse-to-fine passes, after Adams et al. 2019 (§3.2), transposed to
// candidate trees, made anytime by repeated rounds.
//
// A round is `passes` passes; a pass is a level-synchronous beam of at most `width`
// candidates: every candidate of the beam is expanded, implementations among the children
// are costed, identical children are merged (hash of the words, then a word comparison), and
// the `width` best by estimate form the next beam. Passes differ in what they let in:
//   - Before the first round (only when passes > 1), one greedy dive: an incumbent, and the
//     depth D of the tree, from which the coarse depths L_p = ceil(p * D / passes) derive.
//   - Diversity: in pass p, a child whose ancestor at depth L_p is shared with a better-ranked
//     child of the same level is a duplicate; duplicates rank after every non-duplicate (the
//     beam keeps many coarse alternatives, Adams' penalisation).
//   - Restriction: pass p > 1 only admits candidates at depth <= L_{p-1} that contain one of
//     the permitted implementations: the `keep` best implementations found so far. Containing
//     an implementation (every domain includes its value) means being its ancestor, so the
//     pass explores only the coarse valleys where the earlier passes found good answers, and
//     refines them.
//   - With prune=1, once an incumbent exists children whose lower bound is not below it are
//     discarded (counted as pruned_by_bound).
// When the first pass of a round never had to drop a child (every level fit in the beam), it
// enumerated the whole tree (less what the bound pruned): the search stops and the result
// is optimal.
//
// Descent (descend=1): after a round that improved the incumbent, a first-improvement local
// search from it (candor::descend: one decision changed at a time, the rest kept) within the
// same budget; the answers of a beam sit in the valleys it reached, and a neighbour is often
// better. Anytime rounds are narrowed to leave the last descent's time for the next one.
// Kicks (kick=1): after an anytime round that did not improve the incumbent, as long again
// (seconds, or expansions without a time limit) escaping the incumbent's local minimum by
// kicks (iterated_descent in neighbours.h: a placement moved with its tiles re-made, then
// descended from), resumed where the last such phase stopped; a round that keeps finding
// nothing new leaves its time to the kicks until every kick of the minimum is spent.
// Anytime (anytime=1, when the budget has a time or node limit): the first round is plain
// beam search, so the best is never worse than with anytime=0 and the same seed (unless the
// greedy dive predicts that a round of `width` cannot end within the budget, as width x
// passes dives: the first round is then narrowed to fit, where plain beam would have been
// cut short with only the dive's answer); then rounds
// go on until the budget is spent, each `grow` times wider than the one before (Adams'
// "more effort" setting), sharing the incumbent (which prunes harder), the valleys and the
// statistics. A round is worth something only when it reaches the leaves, so a round that
// would not fit in what is left of the budget (predicted from the last round's cost per unit
// of width, in seconds and in expansions) is narrowed to fit. A round not wider than the
// widest so far would repeat it: its ranking keys are then scaled by a random factor in
// [1, 1 + jitter) (a generator seeded by Budget::seed), and with jitter=0 the search stops.
// Without a time limit the widths depend only on expansions, so a seed and a node budget
// reproduce the run.
// Top-K (Budget::keep_top > 1): a beam's last level holds near-duplicates, so after the first
// round its first pass's beams at about 8 depths are completed by greedy dives (at most
// 4 x keep_top) until keep_top different implementations (alike() in search.h) are known.
// Memory: at most `width` candidates between levels (width is clamped to Budget::max_kept),
// plus the children of one level, plus (first round, keep_top > 1) 8 x width sources.
#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "neighbours.h"
#include "run.h"

namespace candor::search_detail {

namespace {

struct Node {
  Candidate candidate;
  uint64_t hash = 0;
  uint64_t coarse = 0;  // hash of the ancestor at the pass's coarse depth
  int depth = 0;
};

// The options (defaults in beam_entry).
struct Settings {
  int64_t width = 0, passes = 0, keep = 0;
  bool prune = false;
  bool anytime = false;
  double grow = 0;
  double jitter = 0;
  bool descend = false;
  bool kick = false;
};

// What one round cost and whether it enumerated the whole tree.
struct RoundReport {
  double seconds = 0;
  int64_t expanded = 0;
  bool exhausted = false;
};

class Beam : public Search {
 public:
  explicit Beam(Settings settings) : s_(settings) {}
  std::string name() const override { return "beam"; }

  SearchResult run(const Space& space, const Candidate& root, const Objective& objective,
                   const Brancher& brancher, const Budget& budget) override {
    Run run(space, objective, brancher, budget);
    if (space.is_complete(root)) {
      run.offer(root);
      return run.finish(false);
    }
    const int64_t max_width = budget.max_kept > 0 ? budget.max_kept : std::numeric_limits<int64_t>::max();
    int64_t width = std::min(s_.width, max_width);

    const bool anytime = s_.anytime && (budget.seconds < kInf || budget.max_expanded >= 0);
    depth_estimate_ = 1;
    if (s_.passes > 1) {
      int steps = 0;
      const double started = run.elapsed();
      if (dive(run, root, DivePolicy::Greedy, run.rng, nullptr, &steps) < kInf) {
        depth_estimate_ = std::max(1, steps);
        // A round costs about width x passes dives: a first round that cannot end within
        // the budget would leave only the dive's answer, a narrower one that can is better.
        RoundReport dive_cost{run.elapsed() - started, run.stats.expanded, false};
        if (anytime) width = std::max<int64_t>(1, std::min(width, fitting_width(run, dive_cost, 1.0 / s_.passes)));
      }
    }
    top_.clear();
    if (run.best()) remember(space, *run.best(), run.best_cost());

    sources_.clear();
    RoundReport last = round(run, root, width, nullptr, true);
    if (!last.exhausted) fill_top(run);
    sources_.clear();
    order_ = brancher.var_order(space);
    descended_ = kInf;
    descent_seconds_ = 0;
    if (!last.exhausted) descend_from_incumbent(run, root);
    if (!anytime) return run.finish(last.exhausted);

    Rng jitter_rng(budget.seed ^ 0x6a09e667f3bcc909ULL);
    int64_t widest = width;
    while (!last.exhausted && !run.stop()) {
      int64_t next = std::min(grown(width), max_width);
      next = std::max<int64_t>(1, std::min(next, fitting_width(run, last, static_cast<double>(width), descent_seconds_)));
      const bool repeat = next <= widest;
      if (repeat && s_.jitter <= 0) break;
      width = next;
      widest = std::max(widest, width);
      const double before = run.best_cost();
      last = round(run, root, width, repeat ? &jitter_rng : nullptr, false);
      if (!last.exhausted) descend_from_incumbent(run, root);
      if (!last.exhausted && !(run.best_cost() < before)) kick(run, root, last);
    }
    return run.finish(last.exhausted);
  }

 private:
  // The values of a complete candidate, for containment tests.
  struct Implementation {
    Candidate candidate;
    double cost = 0;
    std::vector<int> values;
  };

  static bool contains(const Space& space, const Candidate& c, const Implementation& impl) {
    for (int v = 0; v < space.num_vars(); ++v) {
      if (!space.contains(c, v, impl.values[v])) return false;
    }
    return true;
  }

  int64_t grown(int64_t width) const {
    double w = std::ceil(static_cast<double>(width) * s_.grow);
    return w >= 9e18 ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(w);
  }

  // With descend=1, a descent (candor::descend) from an incumbent no descent has started
  // from: the beam's best may sit one decision away from a better implementation (on
  // camera_pipe, a descent from a 30 s beam's best halves its predicted cost). What it
  // reaches joins the valleys the next round refines.
  void descend_from_incumbent(Run& run, const Candidate& root) {
    if (!s_.descend || !run.best() || !(run.best_cost() < descended_) || run.stop()) return;
    const double started = run.elapsed();
    const Candidate start = *run.best();
    descend(run, root, start, run.best_cost(), order_);
    descended_ = run.best_cost();
    remember(run.space, *run.best(), run.best_cost());
    descent_seconds_ = run.elapsed() - started;
  }

  // With kick=1, escapes from the incumbent's local minimum for as long as `last` took (see
  // Kicks); each improvement is descended from (and remembered as a valley) before it is
  // kicked in turn.
  void kick(Run& run, const Candidate& root, const RoundReport& last) {
    if (!s_.kick || !s_.descend || !run.best()) return;
    PhaseLimit limit;
    if (run.time_limited())
      limit.until_seconds = run.elapsed() + last.seconds;
    else
      limit.until_expanded = run.stats.expanded + std::max<int64_t>(1, last.expanded);
    while (!run.stop() && kicks_.escape(run, root, order_, limit)) descend_from_incumbent(run, root);
  }

  // The widest round that should end within the budget left, less `reserve` seconds,
  // assuming a round's cost grows in proportion to its width (90% of what is left, for the
  // error of that guess).
  static int64_t fitting_width(const Run& run, const RoundReport& last, double last_width, double reserve = 0) {
    double scale = kInf;
    if (run.time_limited()) scale = std::max(0.0, run.seconds_left() - reserve) / std::max(last.seconds, 1e-6);
    if (run.budget.max_expanded >= 0) {
      double left = static_cast<double>(run.budget.max_expanded - run.stats.expanded);
      scale = std::min(scale, left / static_cast<double>(std::max<int64_t>(last.expanded, 1)));
    }
    double w = 0.9 * scale * last_width;
    return w >= 9e18 ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(w);
  }

  // The last level of a beam holds near-duplicates (they differ in the last decisions), so
  // the first round's beams at a few depths (shallow ones differ in early decisions, such as
  // where a Func is computed) are completed by greedy dives until Budget::keep_top
  // different implementations are known: candidates of the same rank, shallowest first.
  void fill_top(Run& run) {
    if (run.budget.keep_top <= 1) return;
    const size_t keep = static_cast<size_t>(run.budget.keep_top);
    size_t dives = 0;
    for (size_t rank = 0; run.top_size() < keep && dives < 4 * keep; ++rank) {
      bool any = false;
      for (const std::vector<Candidate>& level : sources_) {
        if (rank >= level.size()) continue;
        any = true;
        if (run.top_size() >= keep || dives == 4 * keep || run.stop()) return;
        dive(run, level[rank], DivePolicy::Greedy, run.rng);
        ++dives;
      }
      if (!any) return;
    }
  }

  // Keeps the `keep` best implementations found so far, best first.
  void remember(const Space& space, const Candidate& c, double cost) {
    if (cost == kInf) return;
    if (!top_.empty() && static_cast<int64_t>(top_.size()) >= s_.keep && !(cost < top_.back().cost)) return;
    for (const Implementation& t : top_) {
      if (t.candidate == c) return;
    }
    Implementation impl{c, cost, {}};
    impl.values.resize(space.num_vars());
    for (int v = 0; v < space.num_vars(); ++v) impl.values[v] = space.first_value(c, v);
    auto at = std::upper_bound(top_.begin(), top_.end(), cost,
                               [](double x, const Implementation& t) { return x < t.cost; });
    top_.insert(at, std::move(impl));
    if (static_cast<int64_t>(top_.size()) > s_.keep) top_.pop_back();
  }

  // One round of coarse-to-fine passes at `width`; `jitter_rng`, when given, randomises the
  // ranking; `record` keeps the sources of fill_top.
  RoundReport round(Run& run, const Candidate& root, int64_t width_, Rng* jitter_rng, bool record) {
    const Space& space = run.space;
    const Objective& objective = run.objective;
    const size_t width = static_cast<size_t>(width_);
    const double started = run.elapsed();
    const int64_t expanded_before = run.stats.expanded;
    RoundReport report;

    int restrict_depth = -1;  // candidates at depth <= this must contain a permitted one
    std::vector<Implementation> permitted;
    std::vector<Node> beam, pool;
    std::vector<const Candidate*> batch;
    std::vector<double> keys;
    std::unordered_map<uint64_t, std::vector<size_t>> seen;

    for (int64_t pass = 1; pass <= s_.passes && !run.stop(); ++pass) {
      const int coarse_depth =
          pass < s_.passes ? static_cast<int>(std::ceil(double(pass) * depth_estimate_ / s_.passes))
                           : std::numeric_limits<int>::max();
      bool dropped = false;  // a level had more children than the beam holds
      beam.clear();
      beam.push_back({root, hash_words(root), hash_words(root), 0});
      while (!beam.empty() && !run.stop()) {
        pool.clear();
        seen.clear();
        for (const Node& node : beam) {
          if (run.stop()) break;
          for (Candidate& kid : run.expand(node.candidate)) {
            if (space.is_complete(kid)) {
              remember(space, kid, run.offer(kid));
              continue;
            }
            Node child;
            child.depth = node.depth + 1;
            if (child.depth <= restrict_depth) {
              bool ok = false;
              for (const Implementation& p : permitted) ok = ok || contains(space, kid, p);
              if (!ok) continue;
            }
            child.hash = hash_words(kid);
            auto& same = seen[child.hash];
            bool duplicate = false;
            for (size_t i : same) duplicate = duplicate || pool[i].candidate == kid;
            if (duplicate) continue;
            same.push_back(pool.size());
            child.coarse = child.depth <= coarse_depth ? child.hash : node.coarse;
            child.candidate = std::move(kid);
            pool.push_back(std::move(child));
          }
        }
        if (run.budget_hit()) break;
        // Prune by the bound once an incumbent exists.
        if (s_.prune && run.best_cost() < kInf) {
          size_t kept = 0;
          for (size_t i = 0; i < pool.size(); ++i) {
            if (run.survives_bound(objective.lower_bound(space, pool[i].candidate))) {
              if (kept != i) pool[kept] = std::move(pool[i]);
              ++kept;
            }
          }
          pool.resize(kept);
        }
        dropped = dropped || pool.size() > width;
        batch.clear();
        for (const Node& n : pool) batch.push_back(&n.candidate);
        objective.estimate_batch(space, batch, keys);
        if (jitter_rng) {
          for (double& k : keys) {
            if (std::isfinite(k)) k += std::fabs(k) * s_.jitter * jitter_rng->unit();
          }
        }
        // Rank: non-duplicates (first of their coarse ancestor) by estimate, then duplicates.
        std::vector<size_t> order = sorted_indices(keys);
        std::vector<size_t> firsts, dups;
        std::unordered_map<uint64_t, char> coarse_seen;
        for (size_t i : order) {
          if (coarse_seen.emplace(pool[i].coarse, 1).second) {
            firsts.push_back(i);
          } else {
            dups.push_back(i);
          }
        }
        beam.clear();
        for (const std::vector<size_t>* list : {&firsts, &dups}) {
          for (size_t i : *list) {
            if (beam.size() == width) break;
            beam.push_back(std::move(pool[i]));
          }
        }
        // Sources of different completions for the top-K (fill_top): the first round's first
        // pass, at about 8 depths.
        const int every = std::max(1, depth_estimate_ / 8);
        if (record && pass == 1 && run.budget.keep_top > 1 && !beam.empty() && beam[0].depth % every == 0) {
          sources_.emplace_back();
          for (const Node& n : beam) sources_.back().push_back(n.candidate);
        }
      }
      // The first pass saw every candidate the bound let through: nothing is left to find.
      if (pass == 1 && !dropped && !run.budget_hit()) {
        report.exhausted = true;
        break;
      }
      // The next pass refines the valleys of the best implementations found so far.
      permitted = top_;
      restrict_depth = pass < s_.passes ? coarse_depth : -1;
      if (permitted.empty()) restrict_depth = -1;
    }
    report.seconds = run.elapsed() - started;
    report.expanded = run.stats.expanded - expanded_before;
    return report;
  }

  Settings s_;
  int depth_estimate_ = 1;
  std::vector<int> order_;        // the brancher's, for descents
  double descended_ = kInf;       // the incumbent's cost after the last descent
  double descent_seconds_ = 0;    // what the last descent took: reserved for the next one
  std::vector<Implementation> top_;  // the valleys the restricted passes refine
  std::vector<std::vector<Candidate>> sources_;  // see fill_top
  Kicks kicks_;                                  // see kick
};

}  // namespace

EngineEntry beam_entry() {
  return {"beam",
          "beam search with coarse-to-fine passes (Adams 2019); dedupes identical candidates; "
          "anytime: wider and randomised rounds until the budget is spent",
          {{"width", "32", "candidates kept per level (clamped to Budget::max_kept)"},
           {"passes", "3", "coarse-to-fine passes (1: plain beam search)"},
           {"keep", "4", "best implementations whose valleys the next pass refines"},
           {"prune", "1", "1: discard children whose lower bound >= the incumbent"},
           {"anytime", "1", "1: after the first round, more rounds until a time or node limit is hit"},
           {"grow", "2", "width factor from one anytime round to the next (narrowed to fit the budget)"},
           {"jitter", "0.2", "a round not wider than an earlier one ranks by estimate * [1, 1+jitter)"},
           {"descend", "1", "1: after each round that improved the best, descend from it (one decision changed at a time)"},
           {"kick", "1", "1 (with descend=1): after a round that did not improve the best, as long again escaping its local minimum by kicks"}},
          [](const Options& o) -> std::unique_ptr<Search> {
            Settings s;
            s.width = o.integer("width");
            s.passes = o.integer("passes");
            s.keep = o.integer("keep");
            s.prune = o.flag("prune");
            s.anytime = o.flag("anytime");
            s.grow = o.number("grow");
            s.jitter = o.number("jitter");
            s.descend = o.flag("descend");
            s.kick = o.flag("kick");
            if (s.width < 1 || s.passes < 1 || s.keep < 1) {
              throw std::invalid_argument("search 'beam': width, passes and keep must be >= 1");
            }
            if (!(s.grow >= 1) || !(s.jitter >= 0) || s.jitter == kInf) {
              throw std::invalid_argument("search 'beam': grow must be >= 1 and jitter a number >= 0");
            }
            return std::make_unique<Beam>(s);
          }};
}

}  // namespace candor::search_detail
