#include "groups.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <set>
#include <stdexcept>

#include "scheduler.h"

namespace candor::scheduler {

namespace hb = halide_bridge;

std::vector<std::vector<int>> func_groups(const hb::KernelDescription& kd, int max_funcs) {
  if (max_funcs < 1) throw std::invalid_argument("func_groups: max_funcs must be >= 1");
  std::vector<std::vector<int>> groups;
  for (int f = 0; f < static_cast<int>(kd.funcs.size()); ++f) {
    if (kd.funcs[f].is_input_alias) continue;
    if (groups.empty() || static_cast<int>(groups.back().size()) >= max_funcs) groups.emplace_back();
    groups.back().push_back(f);
  }
  for (std::vector<int>& group : groups) {
    std::set<int> with_aliases(group.begin(), group.end());
    for (int f : group)
      for (const hb::Edge& e : kd.edges) {
        if (e.consumer != kd.funcs[f].name || e.producer_is_input) continue;
        const hb::FuncInfo* p = kd.find_func(e.producer);
        if (p && p->is_input_alias) with_aliases.insert(static_cast<int>(p - kd.funcs.data()));
      }
    group.assign(with_aliases.begin(), with_aliases.end());
  }
  return groups;
}

hb::KernelDescription group_kernel(const hb::KernelDescription& kd, const std::vector<int>& group) {
  hb::KernelDescription g;
  g.target = kd.target;
  g.scalar_params = kd.scalar_params;
  std::set<std::string> members;
  for (int f : group) members.insert(kd.funcs.at(f).name);
  for (int f : group) {
    hb::FuncInfo func = kd.funcs[f];
    bool read_outside = func.is_output;
    for (const hb::Edge* e : kd.edges_from(func.name)) read_outside |= members.count(e->consumer) == 0;
    if (read_outside && !func.is_input_alias) {
      func.is_output = true;
      func.can_inline = false;
      g.outputs.push_back(func.name);
    }
    std::vector<std::string> consumers;
    for (const std::string& c : func.consumers)
      if (members.count(c)) consumers.push_back(c);
    func.consumers = consumers;
    g.funcs.push_back(std::move(func));
  }
  std::set<std::string> inputs;
  auto add_input = [&](hb::InputInfo in) {
    if (inputs.insert(in.name).second) g.inputs.push_back(std::move(in));
  };
  for (const hb::Edge& e : kd.edges) {
    if (!members.count(e.consumer)) continue;
    hb::Edge edge = e;
    if (e.producer_is_input) {
      if (const hb::InputInfo* in = kd.find_input(e.producer)) add_input(*in);
    } else if (!members.count(e.producer)) {
      // An earlier group's output, computed at the root: read here like an input buffer.
      const hb::FuncInfo& p = kd.func(e.producer);
      hb::InputInfo in;
      in.name = p.name;
      in.type = p.types.at(0);
      in.estimate = p.region;
      in.required = p.region;
      in.vector_width = p.vector_width;
      add_input(std::move(in));
      edge.producer_is_input = true;
    }
    g.edges.push_back(std::move(edge));
  }
  return g;
}

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

}  // namespace

GroupedOutcome schedule_in_groups(const hb::KernelDescription& kd, const models::halide::MachineDescription& machine,
                                  const std::string& engine, const Budget& budget, double hard_seconds,
                                  int max_funcs) {
  const auto start = Clock::now();
  const std::vector<std::vector<int>> groups = func_groups(kd, max_funcs);
  GroupedOutcome out;
  out.groups = static_cast<int>(groups.size());
  std::vector<std::vector<PricedSchedule>> per_group;
  const bool timed = budget.seconds < std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < groups.size(); ++i) {
    const double groups_left = static_cast<double>(groups.size() - i);
    const hb::KernelDescription sub = group_kernel(kd, groups[i]);
    Budget share = budget;
    double hard = std::numeric_limits<double>::infinity();
    if (timed) {
      share.seconds = std::max(0.01, (budget.seconds - seconds_since(start)) / groups_left);
      hard = std::max(share.seconds, (hard_seconds - seconds_since(start)) / groups_left);
    }
    if (budget.max_expanded >= 0) share.max_expanded = std::max<int64_t>(1, budget.max_expanded / out.groups);
    // A progress line follows the whole search: the groups before this one count too.
    if (budget.progress)
      share.progress = [&budget, before = seconds_since(start), done = out.stats](const SearchStats& s, double best) {
        SearchStats whole = done;
        whole.add_counts(s);
        whole.seconds = before + s.seconds;
        budget.progress(whole, best);
      };
    std::vector<PricedSchedule> found;
    try {
      const KernelScheduler scheduler(sub, machine, {});
      const ScheduleOutcome o = scheduler.search(engine, share, hard);
      out.stats.add_counts(o.stats);
      for (const ScheduledCandidate& c : o.candidates)
        found.push_back({c.schedule, c.predicted_seconds, c.lower_bound_seconds});
    } catch (const std::runtime_error&) {
      found.push_back({hb::reference_schedule(sub), 0, 0});
      ++out.groups_at_reference;
    }
    per_group.push_back(std::move(found));
  }
  size_t joined = 0;
  for (const auto& found : per_group) joined = std::max(joined, found.size());
  joined = std::min(joined, static_cast<size_t>(std::max(1, budget.keep_top)));
  for (size_t k = 0; k < joined; ++k) {
    PricedSchedule all;
    for (const auto& found : per_group) {
      const PricedSchedule& part = found[std::min(k, found.size() - 1)];
      for (const auto& [name, fs] : part.schedule.funcs) all.schedule.funcs[name] = fs;
      all.predicted_seconds += part.predicted_seconds;
      all.lower_bound_seconds += part.lower_bound_seconds;
    }
    if (std::none_of(out.schedules.begin(), out.schedules.end(),
                     [&](const PricedSchedule& s) { return s.schedule == all.schedule; }))
      out.schedules.push_back(std::move(all));
  }
  return out;
}

}  // namespace candor::scheduler
