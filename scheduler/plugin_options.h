// The knobs of the autoscheduler plugin (plugin.cpp), read from CANDOR_* environment
// variables since a generator's command line has no room for them:
//   CANDOR_SEARCH   search engine spec, as `candor search --search` (default: beam)
//   CANDOR_BUDGET   limits, as `candor search --budget`: time=10s,nodes=N,kept=N,seed=N
//                   (default: time=30s)
//   CANDOR_SEED     the search's seed (overrides a seed= in CANDOR_BUDGET)
//   CANDOR_MACHINE  machine description (default: machine.json in the data directory above
//                   the plugin's, build/machine.json, or P/share/candor/machine.json for a
//                   plugin installed in P/lib; calibrated there if missing)
//   CANDOR_VERBOSE  1: also print the schedule source to stderr
//   CANDOR_PINS     decisions fixed before searching, CHOICE=VALUE separated by ';'
//                   (as `candor search --pin`), e.g. "location(blur_x)=ROOT;tile(out.x)=64"
//   CANDOR_VERIFY   0: emit the model's pick unverified (default 1: the first of its best
//                   schedules that matches the reference on synthetic inputs)
//   CANDOR_TOP      K: also write the model's K best schedules (1-64), each checked on
//                   synthetic inputs, as OUTPUTS.top<i>.schedule.h with an index OUTPUTS.top.json
//   CANDOR_TOP_DIR  where CANDOR_TOP writes them (default: the current directory)
//   CANDOR_AUTOTUNE rejected: a generator has no input data to benchmark schedules on.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "search.h"

namespace candor::scheduler {

struct PluginOptions {
  std::string search = "beam";
  Budget budget;  // seconds = 30 unless CANDOR_BUDGET says otherwise
  std::string machine_path;
  bool machine_named = false;  // by CANDOR_MACHINE: an unusable file there is an error
  bool verbose = false;
  // Run the model's best schedules on synthetic inputs, in a child process, and emit the
  // first whose output matches the reference schedule's.
  bool verify = true;
  // Decisions fixed before the search (choice name, value), as `candor search --pin`.
  std::vector<std::pair<std::string, std::string>> pins;
  // CANDOR_TOP: how many of the best schedules to write beside the emitted one (0: none).
  int top = 0;
  std::filesystem::path top_dir = ".";
};

// Reads a variable; nullopt when unset.
using EnvReader = std::function<std::optional<std::string>(const std::string& name)>;
std::optional<std::string> process_environment(const std::string& name);

// `plugin_dir` is the plugin's directory (the machine description defaults to machine.json in
// support::data_directory(plugin_dir/..)). Throws std::invalid_argument with a message naming the
// variable for a bad value or for CANDOR_AUTOTUNE.
PluginOptions read_plugin_options(const std::filesystem::path& plugin_dir,
                                  const EnvReader& env = process_environment);

}  // namespace candor::scheduler
