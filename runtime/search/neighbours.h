// Neighbours of a complete candidate: the moves of a measured local search. Autotuning
// corrects the cost model where it is wrong by measuring, and its moves must be small so that
// a measured improvement can be kept and built on. A neighbour changes one decision: an enum
// or categorical integer choice to another allowed value (a Func to another host), any other
// integer choice to the nearest allowed integer below or above (a tile size halves or
// doubles). Every other decision keeps its value where the space still allows it; the
// decisions the change rules out are completed by a greedy dive on the objective's estimate
// (the one the greedy engine makes).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "search.h"

namespace candor {

struct Neighbour {
  Candidate candidate;  // complete
  double cost = 0;      // the objective's cost
  int var = -1;         // the decision changed
  int value = -1;       // its new value
};

// The distinct neighbours of `centre`, a complete candidate below `root`, in the order to
// measure them: every changed decision's cheapest move comes before any decision's second, and
// within such a round the cheaper come first (so the first few measured try many decisions).
// Decisions are re-applied in `order`, then any variable it leaves out.
std::vector<Neighbour> neighbours(const Space& space, const Objective& objective, const Candidate& root,
                                  const Candidate& centre, const std::vector<int>& order);

// A local minimum of the objective's cost below `root`, reached from the complete candidate
// `start` by taking neighbours' moves (one decision changed, the rest kept, completed greedily)
// while they lower the cost: the best a search finds in its budget may sit one decision away
// from a better implementation (a tile size, where a Func is stored). A choice between
// alternatives (enum or categorical) also moves with the decisions the order takes after it
// up to the next object's (a Func's host, annotations and tiles) re-made by the greedy
// completion. Stops at a local minimum or when `budget` runs out (time; expansions: each move
// and the greedy completions').
struct Descent {
  Candidate best;          // start, or the cheapest implementation the moves reached
  double cost = 0;         // its cost
  int moves = 0;           // improving moves taken
  int64_t evaluated = 0;   // neighbours costed
  bool converged = false;  // no neighbour of `best` is cheaper
  SearchStats stats;       // of the descent alone (seconds: since its run began)
};
Descent descend(const Space& space, const Objective& objective, const Candidate& root, const Candidate& start,
                const std::vector<int>& order, const Budget& budget);

// Iterated local search: descend from `start`, then escape each local minimum by kicks. A kick
// is a block move (as in descend) of a choice the order's first declaration makes (where a
// Func is computed), taken whatever it costs; the kicks of a minimum are descended from in
// turn, cheapest first, and the first descent that ends below the minimum moves the search
// there. A descent takes a placement and the
// tiles that suit it only when both pay at once; a kick lets the tiles follow the placement
// over several moves (lens_blur's bokeh_sum inside its consumer's subtiles pays only once the
// consumer's subtiles widen: a 30 s beam stopped 1.5% above it). Stops when every kick of a
// minimum was descended from in vain (converged), or when `budget` runs out. `moves` counts
// the first descent's moves and one per escape.
Descent iterated_descent(const Space& space, const Objective& objective, const Candidate& root,
                         const Candidate& start, const std::vector<int>& order, const Budget& budget);

namespace search_detail {
class Run;
// A bound on one phase of a run, on top of its budget: elapsed seconds, or expansions (a
// run with a node limit but no time limit stays reproducible).
struct PhaseLimit {
  double until_seconds = std::numeric_limits<double>::infinity();
  int64_t until_expanded = std::numeric_limits<int64_t>::max();
};
// descend within a search's run (its budget, statistics and incumbent: every implementation
// a move reaches is offered to it) and `limit`; `start_cost` is start's cost.
Descent descend(Run& run, const Candidate& root, const Candidate& start, double start_cost,
                const std::vector<int>& order, const PhaseLimit& limit = {});

// iterated_descent's kicks within a search's run, resumable: each call goes on with the kicks
// of the run's incumbent where the last call stopped (the kicks are made anew when the
// incumbent changed), until `limit`.
class Kicks {
 public:
  // Descends from kicks of the incumbent until one improves it, every kick is spent, or the
  // limit or budget is reached. True when the incumbent improved.
  bool escape(Run& run, const Candidate& root, const std::vector<int>& order, const PhaseLimit& limit);
  // Every kick of the incumbent was descended from (it is a local minimum for kicks too).
  bool spent(const Run& run) const;

 private:
  double centre_cost_ = std::numeric_limits<double>::infinity();
  std::vector<Neighbour> kicks_;
  size_t next_ = 0;
};
}  // namespace search_detail

}  // namespace candor
