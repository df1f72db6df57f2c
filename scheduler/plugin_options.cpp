#include "plugin_options.h"

#include <cstdlib>
#include <stdexcept>

#include "budget_text.h"
#include "engines.h"
#include "support/install_dirs.h"
#include "support/numbers.h"

namespace candor::scheduler {

std::optional<std::string> process_environment(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  if (!value) return std::nullopt;
  return std::string(value);
}

namespace {

// parse_budget's messages name the command-line option; name the variable instead.
std::string rename_option(std::string message, const std::string& variable) {
  const std::string option = "--budget";
  if (message.rfind(option, 0) == 0) message.replace(0, option.size(), variable);
  return message;
}

}  // namespace

PluginOptions read_plugin_options(const std::filesystem::path& plugin_dir, const EnvReader& env) {
  PluginOptions o;
  if (auto autotune = env("CANDOR_AUTOTUNE"); autotune && !autotune->empty() && *autotune != "0") {
    throw std::invalid_argument(
        "CANDOR_AUTOTUNE=" + *autotune +
        ": the plugin cannot autotune, since a generator has no input data to benchmark schedules on; "
        "unset it (the plugin schedules with the cost model), or autotune an example app with "
        "`candor search APP --autotune N`");
  }
  if (auto search = env("CANDOR_SEARCH"); search && !search->empty()) o.search = *search;
  try {
    make_search(o.search);  // reject a bad spec before any work
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("CANDOR_SEARCH=") + o.search + ": " + e.what());
  }

  std::string budget = "time=30s";
  if (auto b = env("CANDOR_BUDGET"); b && !b->empty()) budget = *b;
  try {
    o.budget = parse_budget(budget);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(rename_option(e.what(), "CANDOR_BUDGET"));
  }
  if (auto seed = env("CANDOR_SEED"); seed && !seed->empty()) {
    const std::optional<int64_t> value = support::parse_integer(*seed, 0);
    if (!value) throw std::invalid_argument("CANDOR_SEED needs a non-negative integer, got '" + *seed + "'");
    o.budget.seed = static_cast<uint64_t>(*value);
  }

  if (auto machine = env("CANDOR_MACHINE"); machine && !machine->empty()) {
    o.machine_path = *machine;
    o.machine_named = true;
  } else if (!plugin_dir.empty()) {
    o.machine_path = (support::data_directory(plugin_dir.parent_path()) / "machine.json").string();
  } else {
    o.machine_path = "machine.json";
  }
  if (auto verbose = env("CANDOR_VERBOSE"); verbose && !verbose->empty() && *verbose != "0") o.verbose = true;
  if (auto pins = env("CANDOR_PINS"); pins && !pins->empty()) {
    for (size_t start = 0; start <= pins->size();) {
      size_t end = pins->find(';', start);
      if (end == std::string::npos) end = pins->size();
      const std::string pin = pins->substr(start, end - start);
      start = end + 1;
      if (!pin.empty()) o.pins.push_back(parse_pin(pin, "CANDOR_PINS: "));
    }
  }
  if (auto verify = env("CANDOR_VERIFY"); verify && !verify->empty()) {
    if (*verify != "0" && *verify != "1")
      throw std::invalid_argument("CANDOR_VERIFY needs 0 or 1, got '" + *verify + "'");
    o.verify = *verify == "1";
  }
  constexpr int kMostTop = 64;
  if (auto top = env("CANDOR_TOP"); top && !top->empty()) {
    const std::optional<int64_t> value = support::parse_integer(*top, 1, kMostTop);
    if (!value) throw std::invalid_argument("CANDOR_TOP needs an integer from 1 to 64, got '" + *top + "'");
    o.top = static_cast<int>(*value);
  }
  if (auto dir = env("CANDOR_TOP_DIR"); dir && !dir->empty()) {
    if (o.top == 0) throw std::invalid_argument("CANDOR_TOP_DIR is set without CANDOR_TOP");
    o.top_dir = *dir;
  }
  return o;
}

}  // namespace candor::scheduler
