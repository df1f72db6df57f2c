// Halide 14's stock autoschedulers as the benchmarks run them (head_to_head, corpus_try):
// each one's plugin and machine parameters. The including target defines
// CANDOR_MULLAPUDI2016_PLUGIN, CANDOR_ADAMS2019_PLUGIN and CANDOR_LI2018_PLUGIN.
#pragma once

#include <Halide.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace candor::bench {

inline const std::vector<std::string>& stock_schedulers() {
  static const std::vector<std::string> names = {"Mullapudi2016", "Adams2019", "Li2018"};
  return names;
}

inline bool is_stock_scheduler(const std::string& name) {
  return std::count(stock_schedulers().begin(), stock_schedulers().end(), name) > 0;
}

// CANDOR_PLUGIN_<NAME> where set, else the plugin Debian's Halide 14 ships.
inline std::string stock_plugin_path(const std::string& scheduler) {
  const std::string env = "CANDOR_PLUGIN_" + scheduler;
  if (const char* p = std::getenv(env.c_str()); p && *p) return p;
  if (scheduler == "Mullapudi2016") return CANDOR_MULLAPUDI2016_PLUGIN;
  if (scheduler == "Adams2019") return CANDOR_ADAMS2019_PLUGIN;
  if (scheduler == "Li2018") return CANDOR_LI2018_PLUGIN;
  throw std::invalid_argument("no plugin for " + scheduler);
}

// Mullapudi2016 parallelizes for the given core count (every core); Adams2019 and Li2018
// take their defaults.
inline Halide::MachineParams stock_machine_params(const std::string& scheduler) {
  const Halide::MachineParams generic = Halide::MachineParams::generic();
  if (scheduler == "Mullapudi2016")
    return Halide::MachineParams(int(std::max(1u, std::thread::hardware_concurrency())),
                                 generic.last_level_cache_size, generic.balance);
  return generic;
}

}  // namespace candor::bench
