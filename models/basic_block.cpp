#include "basic_block.h"

#include <algorithm>
#include <limits>
#include <climits>
#include <fstream>
#include <functional>
#include <map>
#include <queue>
#include <random>
#include <sstream>

namespace candor::models {

// --- parsing ----------------------------------------------------------------------------

namespace {

struct Token {
  std::string text;
  int column = 0;  // 1-based
};

bool is_name(const std::string& s) {
  if (s.empty()) return false;
  auto head = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  if (!head(s[0])) return false;
  for (char c : s) {
    if (!head(c) && !(c >= '0' && c <= '9')) return false;
  }
  return true;
}

// The tokens of one line, comments removed.
std::vector<Token> tokenize(const std::string& line) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < line.size()) {
    char c = line[i];
    if (c == '#') break;
    if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < line.size() && line[i] != '#' && line[i] != ' ' && line[i] != '\t' &&
           line[i] != '\r' && line[i] != '\v' && line[i] != '\f') {
      ++i;
    }
    tokens.push_back({line.substr(start, i - start), static_cast<int>(start) + 1});
  }
  return tokens;
}

[[noreturn]] void fail(const std::string& file, int line, int column, const std::string& message) {
  throw ParseError(file + ":" + std::to_string(line) + ":" + std::to_string(column) +
                   ": error: " + message);
}

}  // namespace

BasicBlock parse_basic_block(const std::string& text, const std::string& file) {
  std::vector<std::string> lines;
  {
    std::string line;
    std::istringstream in(text);
    while (std::getline(in, line)) lines.push_back(line);
  }
  // First pass: where each (well-formed) name is first defined, to tell "unknown" from
  // "defined later".
  std::map<std::string, int> first_line;
  for (size_t l = 0; l < lines.size(); ++l) {
    std::vector<Token> tokens = tokenize(lines[l]);
    if (!tokens.empty() && is_name(tokens[0].text)) first_line.emplace(tokens[0].text, l + 1);
  }

  BasicBlock block;
  std::map<std::string, int> index;
  std::map<std::string, int> defined_at;
  for (size_t l = 0; l < lines.size(); ++l) {
    const int line_no = static_cast<int>(l) + 1;
    std::vector<Token> tokens = tokenize(lines[l]);
    if (tokens.empty()) continue;
    const Token& name = tokens[0];
    if (!is_name(name.text)) {
      fail(file, line_no, name.column,
           "invalid instruction name '" + name.text + "' (expected [A-Za-z_][A-Za-z0-9_]*)");
    }
    if (index.count(name.text)) {
      fail(file, line_no, name.column,
           "duplicate instruction '" + name.text + "' (first defined at line " +
               std::to_string(defined_at[name.text]) + ")");
    }
    if (tokens.size() < 2) {
      int end_column = name.column + static_cast<int>(name.text.size());
      fail(file, line_no, end_column, "expected a latency after '" + name.text + "'");
    }
    const Token& lat = tokens[1];
    bool digits = !lat.text.empty();
    for (char c : lat.text) digits = digits && c >= '0' && c <= '9';
    if (!digits) {
      bool negative_integer = lat.text.size() > 1 && lat.text[0] == '-' &&
                              lat.text.find_first_not_of("0123456789", 1) == std::string::npos;
      fail(file, line_no, lat.column,
           std::string(negative_integer ? "latency must be positive" : "latency must be a positive integer") +
               ", got '" + lat.text + "'");
    }
    if (lat.text.size() > 9) {
      fail(file, line_no, lat.column, "latency '" + lat.text + "' is too large (at most 999999999)");
    }
    int latency = std::stoi(lat.text);
    if (latency <= 0) fail(file, line_no, lat.column, "latency must be positive, got '" + lat.text + "'");

    const int self = block.size();
    std::vector<int> deps;
    for (size_t t = 2; t < tokens.size(); ++t) {
      const Token& dep = tokens[t];
      if (!is_name(dep.text)) {
        fail(file, line_no, dep.column,
             "invalid dependency name '" + dep.text + "' (expected [A-Za-z_][A-Za-z0-9_]*)");
      }
      if (dep.text == name.text) {
        fail(file, line_no, dep.column, "instruction '" + name.text + "' cannot depend on itself");
      }
      auto it = index.find(dep.text);
      if (it == index.end()) {
        auto later = first_line.find(dep.text);
        if (later != first_line.end()) {
          fail(file, line_no, dep.column,
               "dependency '" + dep.text + "' is defined later (line " +
                   std::to_string(later->second) + "); a dependency must name an earlier instruction");
        }
        fail(file, line_no, dep.column, "unknown instruction '" + dep.text + "'");
      }
      if (std::find(deps.begin(), deps.end(), it->second) == deps.end()) deps.push_back(it->second);
    }
    index[name.text] = self;
    defined_at[name.text] = line_no;
    block.names.push_back(name.text);
    block.latency.push_back(latency);
    block.deps.push_back(std::move(deps));
  }
  if (block.size() == 0) fail(file, 1, 1, "no instructions (the basic block is empty)");
  return block;
}

BasicBlock read_basic_block(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParseError(path + ": error: cannot read file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_basic_block(text.str(), path);
}

std::string to_text(const BasicBlock& block) {
  std::string out;
  for (int i = 0; i < block.size(); ++i) {
    out += block.names[i] + " " + std::to_string(block.latency[i]);
    for (int d : block.deps[i]) out += " " + block.names[d];
    out += "\n";
  }
  return out;
}

BasicBlock random_basic_block(const RandomBlockOptions& options) {
  if (options.size < 1 || options.min_latency < 1 || options.max_latency < options.min_latency) {
    throw std::invalid_argument("random_basic_block: need size >= 1 and 1 <= min_latency <= max_latency");
  }
  std::mt19937_64 gen(options.seed);
  auto unit = [&] { return static_cast<double>(gen() >> 11) * 0x1.0p-53; };
  BasicBlock block;
  const uint64_t span = static_cast<uint64_t>(options.max_latency - options.min_latency) + 1;
  for (int j = 0; j < options.size; ++j) {
    block.names.push_back("i" + std::to_string(j));
    block.latency.push_back(options.min_latency + static_cast<int>(gen() % span));
    std::vector<int> deps;
    for (int i = 0; i < j; ++i) {
      if (unit() < options.edge_probability) deps.push_back(i);
    }
    block.deps.push_back(std::move(deps));
  }
  return block;
}

// --- complete orders --------------------------------------------------------------------

bool is_valid_order(const BasicBlock& block, const std::vector<int>& order) {
  const int n = block.size();
  if (static_cast<int>(order.size()) != n) return false;
  std::vector<int> position(n, -1);
  for (int k = 0; k < n; ++k) {
    int i = order[k];
    if (i < 0 || i >= n || position[i] >= 0) return false;
    position[i] = k;
  }
  for (int i = 0; i < n; ++i) {
    for (int d : block.deps[i]) {
      if (position[d] > position[i]) return false;
    }
  }
  return true;
}

std::vector<Cycles> issue_times(const BasicBlock& block, const std::vector<int>& order) {
  if (!is_valid_order(block, order)) {
    throw std::invalid_argument("not a valid issue order of the basic block");
  }
  std::vector<Cycles> issue(block.size(), 0);
  Cycles previous = -1;
  for (int i : order) {
    Cycles t = previous + 1;
    for (int d : block.deps[i]) t = std::max(t, issue[d] + Cycles(block.latency[d]));
    issue[i] = t;
    previous = t;
  }
  return issue;
}

Cycles makespan(const BasicBlock& block, const std::vector<int>& order) {
  std::vector<Cycles> issue = issue_times(block, order);
  Cycles span = 0;
  for (int i = 0; i < block.size(); ++i) span = std::max(span, issue[i] + block.latency[i]);
  return span;
}

PartialOrder PartialOrder::from_total(const std::vector<int>& order) {
  PartialOrder p(static_cast<int>(order.size()));
  for (size_t x = 0; x < order.size(); ++x) {
    for (size_t y = x + 1; y < order.size(); ++y) p.set_before(order[x], order[y]);
  }
  return p;
}

// --- heuristics -------------------------------------------------------------------------

std::vector<Cycles> critical_path_priority(const BasicBlock& block) {
  const int n = block.size();
  std::vector<Cycles> priority(block.latency.begin(), block.latency.end());
  // Dependencies point to earlier instructions, so a reverse scan sees every successor first.
  for (int i = n - 1; i >= 0; --i) {
    for (int d : block.deps[i]) priority[d] = std::max(priority[d], Cycles(block.latency[d]) + priority[i]);
  }
  return priority;
}

std::vector<int> list_schedule(const BasicBlock& block, const PartialOrder* constraints) {
  const int n = block.size();
  std::vector<Cycles> priority = critical_path_priority(block);
  std::vector<int> waiting(n, 0);  // predecessors not yet issued
  std::vector<std::vector<int>> successors(n);
  auto add_edge = [&](int a, int b) {
    successors[a].push_back(b);
    ++waiting[b];
  };
  for (int b = 0; b < n; ++b) {
    for (int a : block.deps[b]) add_edge(a, b);
  }
  if (constraints) {
    for (int a = 0; a < n; ++a) {
      for (int b = 0; b < n; ++b) {
        if (a != b && constraints->before(a, b)) add_edge(a, b);
      }
    }
  }
  std::vector<Cycles> issue(n, -1);
  std::vector<int> order, ready;
  for (int i = 0; i < n; ++i) {
    if (waiting[i] == 0) ready.push_back(i);
  }
  Cycles previous = -1;
  while (!ready.empty()) {
    int pick = -1;
    Cycles pick_time = 0;
    for (int i : ready) {
      Cycles t = previous + 1;
      for (int d : block.deps[i]) t = std::max(t, issue[d] + Cycles(block.latency[d]));
      if (pick < 0 || t < pick_time || (t == pick_time && priority[i] > priority[pick]) ||
          (t == pick_time && priority[i] == priority[pick] && i < pick)) {
        pick = i;
        pick_time = t;
      }
    }
    ready.erase(std::find(ready.begin(), ready.end(), pick));
    issue[pick] = pick_time;
    previous = pick_time;
    order.push_back(pick);
    for (int s : successors[pick]) {
      if (--waiting[s] == 0) ready.push_back(s);
    }
  }
  if (static_cast<int>(order.size()) != n) return {};
  return order;
}

// --- lower bound ------------------------------------------------------------------------

Cycles lower_bound(const BasicBlock& block, const PartialOrder& order, BoundDetail* detail) {
  const int n = block.size();
  // Edge weights of the precedence graph (0: no edge).
  std::vector<int> weight(static_cast<size_t>(n) * n, 0);
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      if (a != b && order.before(a, b)) weight[a * n + b] = 1;
    }
  }
  for (int b = 0; b < n; ++b) {
    for (int a : block.deps[b]) weight[a * n + b] = std::max(weight[a * n + b], block.latency[a]);
  }
  // Topological order (Kahn).
  std::vector<int> indegree(n, 0), topo;
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) indegree[b] += weight[a * n + b] > 0;
  }
  for (int i = 0; i < n; ++i) {
    if (indegree[i] == 0) topo.push_back(i);
  }
  for (size_t k = 0; k < topo.size(); ++k) {
    int a = topo[k];
    for (int b = 0; b < n; ++b) {
      if (weight[a * n + b] > 0 && --indegree[b] == 0) topo.push_back(b);
    }
  }
  if (static_cast<int>(topo.size()) != n) {
    if (detail) detail->value = detail->critical_path = kInfeasible;
    return kInfeasible;
  }

  const int words = (n + 63) / 64;
  auto bit = [](std::vector<uint64_t>& set, int words_, int row, int i) {
    set[static_cast<size_t>(row) * words_ + i / 64] |= uint64_t{1} << (i % 64);
  };
  std::vector<Cycles> head(n, 0), tail(n, 0), scratch;

  // Heads, in topological order, with the ancestors' release-time chain.
  std::vector<uint64_t> ancestors(static_cast<size_t>(n) * words, 0);
  for (int b : topo) {
    for (int a = 0; a < n; ++a) {
      int w = weight[a * n + b];
      if (w == 0) continue;
      head[b] = std::max(head[b], head[a] + Cycles(w));
      for (int k = 0; k < words; ++k) ancestors[b * words + k] |= ancestors[a * words + k];
      bit(ancestors, words, b, a);
    }
    scratch.clear();
    for (int k = 0; k < words; ++k) {
      for (uint64_t m = ancestors[b * words + k]; m; m &= m - 1) {
        scratch.push_back(head[k * 64 + __builtin_ctzll(m)]);
      }
    }
    if (!scratch.empty()) {
      std::sort(scratch.begin(), scratch.end());
      Cycles t = std::numeric_limits<Cycles>::min() / 2;
      for (Cycles release : scratch) t = std::max(release, t + 1);
      head[b] = std::max(head[b], t + 1);
    }
  }
  // Tails, in reverse topological order, with the descendants' delivery-time bound.
  std::vector<uint64_t> descendants(static_cast<size_t>(n) * words, 0);
  for (int k = n - 1; k >= 0; --k) {
    int a = topo[k];
    tail[a] = block.latency[a];
    for (int b = 0; b < n; ++b) {
      int w = weight[a * n + b];
      if (w == 0) continue;
      tail[a] = std::max(tail[a], Cycles(w) + tail[b]);
      for (int x = 0; x < words; ++x) descendants[a * words + x] |= descendants[b * words + x];
      bit(descendants, words, a, b);
    }
    scratch.clear();
    for (int x = 0; x < words; ++x) {
      for (uint64_t m = descendants[a * words + x]; m; m &= m - 1) {
        scratch.push_back(tail[x * 64 + __builtin_ctzll(m)]);
      }
    }
    std::sort(scratch.begin(), scratch.end(), std::greater<Cycles>());
    for (size_t j = 0; j < scratch.size(); ++j) {
      tail[a] = std::max(tail[a], 1 + static_cast<Cycles>(j) + scratch[j]);
    }
  }
  Cycles critical = 0;
  for (int i = 0; i < n; ++i) critical = std::max(critical, head[i] + tail[i]);

  // Jackson's rule on the relaxation: one issue per cycle, releases head, deliveries tail.
  std::vector<int> by_release(n);
  for (int i = 0; i < n; ++i) by_release[i] = i;
  std::sort(by_release.begin(), by_release.end(), [&](int x, int y) { return head[x] < head[y]; });
  std::priority_queue<Cycles> available;  // tails
  Cycles t = 0, value = 0;
  size_t next = 0;
  for (int step = 0; step < n; ++step) {
    if (available.empty()) t = std::max(t, head[by_release[next]]);
    while (next < by_release.size() && head[by_release[next]] <= t) available.push(tail[by_release[next++]]);
    value = std::max(value, t + available.top());
    available.pop();
    ++t;
  }
  value = std::max(value, critical);
  if (detail) {
    detail->head = head;
    detail->tail = tail;
    detail->critical_path = critical;
    detail->value = value;
  }
  return value;
}

// --- brute force ------------------------------------------------------------------------

std::optional<Schedule> brute_force_optimum(const BasicBlock& block, const PartialOrder* constraints) {
  const int n = block.size();
  if (n > 64) throw std::invalid_argument("brute_force_optimum: at most 64 instructions");
  std::vector<uint64_t> preds(n, 0);
  for (int b = 0; b < n; ++b) {
    for (int a : block.deps[b]) preds[b] |= uint64_t{1} << a;
    if (constraints) {
      for (int a = 0; a < n; ++a) {
        if (a != b && constraints->before(a, b)) preds[b] |= uint64_t{1} << a;
      }
    }
  }
  std::vector<Cycles> issue(n, 0);
  std::vector<int> current;
  Schedule best;
  best.makespan = std::numeric_limits<Cycles>::max();
  bool found = false;
  std::function<void(uint64_t, Cycles, Cycles)> extend = [&](uint64_t done, Cycles previous, Cycles span) {
    int placed = static_cast<int>(current.size());
    if (placed == n) {
      if (span < best.makespan) {
        best.makespan = span;
        best.order = current;
        found = true;
      }
      return;
    }
    // Whatever comes next, the last instruction issues n - placed cycles later at least.
    if (std::max(span, previous + (n - placed) + 1) >= best.makespan) return;
    for (int i = 0; i < n; ++i) {
      if ((done >> i) & 1 || (preds[i] & ~done) != 0) continue;
      Cycles t = previous + 1;
      for (int d : block.deps[i]) t = std::max(t, issue[d] + Cycles(block.latency[d]));
      issue[i] = t;
      current.push_back(i);
      extend(done | (uint64_t{1} << i), t, std::max(span, t + Cycles(block.latency[i])));
      current.pop_back();
    }
  };
  extend(0, -1, 0);
  if (!found) return std::nullopt;
  return best;
}

}  // namespace candor::models
