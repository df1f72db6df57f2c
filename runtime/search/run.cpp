#include "run.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <stdexcept>

#include "support/numbers.h"

namespace candor {

bool alike(const Space& space, const Candidate& a, const Candidate& b, int min_int_changes) {
  int int_changes = 0;
  for (int v = 0; v < space.num_vars(); ++v) {
    if (space.first_value(a, v) == space.first_value(b, v)) continue;
    if (!space.has_ordered_values(v) || ++int_changes >= min_int_changes) return false;
  }
  return true;
}

}  // namespace candor

namespace candor::search_detail {

uint64_t hash_words(const Candidate& c) {
  // splitmix64 finaliser over the words, chained.
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ c.words.size();
  for (Word w : c.words) {
    uint64_t z = w + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    h ^= z ^ (z >> 31);
  }
  return h;
}

Run::Run(const Space& space_, const Objective& objective_, const Brancher& brancher_,
         const Budget& budget_)
    : space(space_),
      objective(objective_),
      brancher(brancher_),
      budget(budget_),
      rng(budget_.seed),
      start_(std::chrono::steady_clock::now()) {}

double Run::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

double Run::seconds_left() const {
  if (!time_limited()) return kInf;
  return std::max(0.0, budget.seconds - elapsed());
}

bool Run::stop() {
  if (budget_hit_) return true;
  if (budget.progress && elapsed() >= next_progress_) {
    stats.seconds = elapsed();  // (finish() sets the final value)
    budget.progress(stats, best_cost_);
    next_progress_ = elapsed() + 0.5;
  }
  if (budget.max_expanded >= 0 && stats.expanded >= budget.max_expanded) {
    budget_hit_ = true;
    return true;
  }
  // A clock read costs tens of nanoseconds, an expansion far more: read it every time.
  if (time_limited() && elapsed() >= budget.seconds) {
    budget_hit_ = true;
    return true;
  }
  if (memory_exhausted()) {
    budget_hit_ = true;
    stats.memory_limit_hit = true;
    return true;
  }
  return false;
}

bool Run::memory_exhausted() {
  if (budget.max_memory_bytes < 0) return false;
  // Reading /proc costs microseconds: every 5 ms, or once 1/16 of the budget may have been
  // allocated in candidates since the last read.
  const double now = elapsed();
  if (now < next_memory_check_ && bytes_since_memory_check_ < budget.max_memory_bytes / 16) return false;
  next_memory_check_ = now + 0.005;
  bytes_since_memory_check_ = 0;
  return support::resident_bytes() >= budget.max_memory_bytes;
}

std::vector<Decision> Run::decisions(const Candidate& c) {
  ++stats.expanded;
  return brancher.branch(space, c);
}

bool Run::child(const Candidate& c, const Decision& d, Candidate& out) {
  ++stats.created;
  bytes_since_memory_check_ += static_cast<int64_t>(c.words.size() * sizeof(Word));
  out = c;
  if (!space.apply(out, d)) {
    ++stats.failed;
    return false;
  }
  return true;
}

std::vector<Candidate> Run::expand(const Candidate& c) {
  std::vector<Candidate> children;
  std::vector<Decision> ds = decisions(c);
  children.reserve(ds.size());
  Candidate kid;
  for (const Decision& d : ds) {
    if (child(c, d, kid)) children.push_back(std::move(kid));
  }
  return children;
}

double Run::offer(const Candidate& complete) {
  ++stats.complete;
  double cost = objective.cost(space, complete);
  const size_t keep = static_cast<size_t>(std::max(budget.keep_top, 1));
  const bool joins_top = keep > 1 && may_join_top(cost, complete, keep);
  if (!(cost < best_cost_) && !joins_top) return cost;
  // Propagation may be weaker than the spec: a complete candidate is accepted as the
  // incumbent only after the full check, so an invalid implementation is never returned.
  if (!space.satisfies_all(complete)) {
    ++stats.failed;
    return kInf;
  }
  if (joins_top) remember_top(cost, complete, keep);
  if (!(cost < best_cost_)) return cost;
  best_cost_ = cost;
  best_ = complete;
  stats.best_over_time.emplace_back(elapsed(), cost);
  return cost;
}

bool Run::may_join_top(double cost, const Candidate& complete, size_t keep) const {
  if (top_.size() < keep || cost < top_.back().first) return true;
  // A costlier newcomer may still take a surplus member's place, unless its own shape is full.
  if (budget.top_per_shape <= 0 || !budget.top_shape) return false;
  const uint64_t shape = budget.top_shape(complete);
  return std::count(top_shapes_.begin(), top_shapes_.end(), shape) < budget.top_per_shape;
}

void Run::remember_top(double cost, const Candidate& complete, size_t keep) {
  const int changes = budget.top_min_int_changes;
  // An alike member at most as costly represents this one already; alike members that cost
  // more give way to it.
  std::vector<bool> alike_member(top_.size());
  for (size_t i = 0; i < top_.size(); ++i) {
    alike_member[i] = alike(space, top_[i].second, complete, changes);
    if (alike_member[i] && top_[i].first <= cost) return;
  }
  const bool capped = budget.top_per_shape > 0 && budget.top_shape;
  const uint64_t shape = capped ? budget.top_shape(complete) : 0;
  // The members that stay, the newcomer among them in cost order (index `at`).
  std::vector<size_t> stay;  // indices into top_, top_.size() for the newcomer
  size_t at = top_.size();
  for (size_t i = 0; i <= top_.size(); ++i) {
    if (at == top_.size() && (i == top_.size() || cost < top_[i].first)) {
      at = stay.size();
      stay.push_back(top_.size());
    }
    if (i < top_.size() && !alike_member[i]) stay.push_back(i);
  }
  if (stay.size() > keep) {
    // One gives way: the costliest past its shape's first top_per_shape members (a shape's
    // surplus only fills room other shapes leave), else the costliest.
    size_t out = stay.size() - 1;
    if (capped) {
      std::map<uint64_t, int> members;
      std::optional<size_t> surplus;
      for (size_t k = 0; k < stay.size(); ++k) {
        const uint64_t sh = stay[k] == top_.size() ? shape : top_shapes_[stay[k]];
        if (++members[sh] > budget.top_per_shape) surplus = k;
      }
      if (surplus) out = *surplus;
    }
    if (out == at) return;
    stay.erase(stay.begin() + static_cast<std::ptrdiff_t>(out));
  }
  std::vector<std::pair<double, Candidate>> top;
  std::vector<uint64_t> shapes;
  for (size_t i : stay) {
    const bool newcomer = i == top_.size();
    top.push_back(newcomer ? std::make_pair(cost, complete) : std::move(top_[i]));
    if (capped) shapes.push_back(newcomer ? shape : top_shapes_[i]);
  }
  top_ = std::move(top);
  top_shapes_ = std::move(shapes);
}

SearchResult Run::finish(bool proved) {
  SearchResult result;
  stats.seconds = elapsed();
  result.best = best_;
  result.best_cost = best_cost_;
  result.optimal = proved && !budget_hit_ && best_.has_value();
  result.stats = stats;
  result.top = top_;
  if (result.top.empty() && best_) result.top.push_back({best_cost_, *best_});
  return result;
}

// --- options -------------------------------------------------------------------------

Options::Options(std::string engine, std::vector<SearchOptionInfo> declared)
    : engine_(std::move(engine)), declared_(std::move(declared)) {}

namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

}  // namespace

void Options::parse(const std::string& text) {
  auto valid_keys = [&] {
    std::string keys;
    for (const SearchOptionInfo& o : declared_) keys += (keys.empty() ? "" : ", ") + o.key;
    return keys.empty() ? std::string("none") : keys;
  };
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string::npos) comma = text.size();
    std::string item = trim(text.substr(pos, comma - pos));
    pos = comma + 1;
    if (item.empty()) {
      if (comma == text.size()) break;
      throw std::invalid_argument("search '" + engine_ + "': empty option in '" + text + "'");
    }
    size_t eq = item.find('=');
    if (eq == std::string::npos) {
      throw std::invalid_argument("search '" + engine_ + "': option '" + item +
                                  "' is not key=value (options: " + valid_keys() + ")");
    }
    std::string key = trim(item.substr(0, eq));
    std::string value = trim(item.substr(eq + 1));
    bool known = false;
    for (const SearchOptionInfo& o : declared_) known |= o.key == key;
    if (!known) {
      throw std::invalid_argument("search '" + engine_ + "': unknown option '" + key +
                                  "' (options: " + valid_keys() + ")");
    }
    if (given_.count(key)) {
      throw std::invalid_argument("search '" + engine_ + "': option '" + key + "' given twice");
    }
    if (value.empty()) {
      throw std::invalid_argument("search '" + engine_ + "': option '" + key + "' has no value");
    }
    given_[key] = value;
  }
}

bool Options::given(const std::string& key) const { return given_.count(key) > 0; }

const std::string& Options::raw(const std::string& key) const {
  auto it = given_.find(key);
  if (it != given_.end()) return it->second;
  for (const SearchOptionInfo& o : declared_) {
    if (o.key == key) return o.default_value;
  }
  throw std::logic_error("search '" + engine_ + "': undeclared option '" + key + "'");
}

double Options::number(const std::string& key) const {
  const std::string& v = raw(key);
  if (v == "inf") return kInf;
  const std::optional<double> x = support::parse_decimal(v, -1e300, 1e300);
  if (!x) {
    throw std::invalid_argument("search '" + engine_ + "': option '" + key +
                                "' needs a decimal number (or inf), got '" + v + "'");
  }
  return *x;
}

int64_t Options::integer(const std::string& key) const {
  double x = number(key);
  if (x == kInf) return -1;
  if (x != std::floor(x) || std::fabs(x) > 9e15) {
    throw std::invalid_argument("search '" + engine_ + "': option '" + key +
                                "' needs an integer, got '" + raw(key) + "'");
  }
  return static_cast<int64_t>(x);
}

std::string Options::word(const std::string& key,
                          const std::vector<std::string>& allowed) const {
  const std::string& v = raw(key);
  std::string list;
  for (const std::string& a : allowed) {
    if (a == v) return v;
    list += (list.empty() ? "" : ", ") + a;
  }
  throw std::invalid_argument("search '" + engine_ + "': option '" + key + "' must be one of " +
                              list + ", got '" + v + "'");
}

bool Options::flag(const std::string& key) const {
  int64_t x = integer(key);
  if (x != 0 && x != 1) {
    throw std::invalid_argument("search '" + engine_ + "': option '" + key + "' must be 0 or 1");
  }
  return x == 1;
}

}  // namespace candor::search_detail
