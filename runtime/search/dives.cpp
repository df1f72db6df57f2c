#include <algorithm>

#include "run.h"

namespace candor::search_detail {

std::vector<size_t> sorted_indices(const std::vector<double>& keys) {
  std::vector<size_t> idx(keys.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return keys[a] < keys[b]; });
  return idx;
}

namespace {

double random_dive(Run& run, const Candidate& start, Rng& rng, Candidate* reached, int* steps) {
  struct Frame {
    Candidate candidate;
    std::vector<Decision> untried;
  };
  std::vector<Frame> stack;
  if (run.space.is_complete(start)) {
    double cost = run.offer(start);
    if (cost < kInf) {
      if (reached) *reached = start;
      if (steps) *steps = 0;
    }
    return cost;
  }
  if (run.stop()) return kInf;
  stack.push_back({start, run.decisions(start)});
  Candidate kid;
  while (!stack.empty()) {
    Frame& frame = stack.back();
    if (frame.untried.empty()) {
      stack.pop_back();
      continue;
    }
    size_t pick = rng.below(frame.untried.size());
    std::swap(frame.untried[pick], frame.untried.back());
    Decision d = std::move(frame.untried.back());
    frame.untried.pop_back();
    if (!run.child(frame.candidate, d, kid)) continue;
    if (run.space.is_complete(kid)) {
      double cost = run.offer(kid);
      if (cost == kInf) continue;
      if (reached) *reached = kid;
      if (steps) *steps = static_cast<int>(stack.size());
      return cost;
    }
    if (run.stop()) return kInf;
    std::vector<Decision> ds = run.decisions(kid);
    stack.push_back({std::move(kid), std::move(ds)});
  }
  return kInf;
}

double greedy_dive(Run& run, const Candidate& start, Candidate* reached, int* steps) {
  if (run.space.is_complete(start)) {
    double cost = run.offer(start);
    if (cost < kInf) {
      if (reached) *reached = start;
      if (steps) *steps = 0;
    }
    return cost;
  }
  struct Choice {
    Candidate candidate;
    bool complete;
    double cost;  // complete ones: their cost as offered
  };
  struct Frame {
    std::vector<Choice> ranked;  // best first
    size_t next = 0;
  };
  std::vector<Frame> stack;
  std::vector<const Candidate*> batch;
  std::vector<double> estimates;
  auto push = [&](const Candidate& c) {
    std::vector<Candidate> kids = run.expand(c);
    std::vector<double> keys(kids.size(), kInf);
    std::vector<char> complete(kids.size(), 0);
    batch.clear();
    std::vector<size_t> partial;
    for (size_t i = 0; i < kids.size(); ++i) {
      if (run.space.is_complete(kids[i])) {
        complete[i] = 1;
        keys[i] = run.offer(kids[i]);
      } else {
        partial.push_back(i);
        batch.push_back(&kids[i]);
      }
    }
    if (!batch.empty()) {
      run.objective.estimate_batch(run.space, batch, estimates);
      for (size_t j = 0; j < partial.size(); ++j) keys[partial[j]] = estimates[j];
    }
    Frame frame;
    for (size_t i : sorted_indices(keys)) {
      if (complete[i] && keys[i] == kInf) continue;  // rejected by the full check
      frame.ranked.push_back({std::move(kids[i]), complete[i] != 0, keys[i]});
    }
    stack.push_back(std::move(frame));
  };
  if (run.stop()) return kInf;
  push(start);
  while (!stack.empty()) {
    Frame& frame = stack.back();
    if (frame.next == frame.ranked.size()) {
      stack.pop_back();
      continue;
    }
    Choice& choice = frame.ranked[frame.next++];
    if (choice.complete) {
      if (reached) *reached = choice.candidate;
      if (steps) *steps = static_cast<int>(stack.size());
      return choice.cost;
    }
    if (run.stop()) return kInf;
    Candidate c = std::move(choice.candidate);
    push(c);
  }
  return kInf;
}

}  // namespace

double dive(Run& run, const Candidate& start, DivePolicy policy, Rng& rng, Candidate* reached,
            int* steps) {
  if (policy == DivePolicy::Random) return random_dive(run, start, rng, reached, steps);
  return greedy_dive(run, start, reached, steps);
}

}  // namespace candor::search_detail
