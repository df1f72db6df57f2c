// candor block FILE.bb: schedules the instructions of one basic block on the basic-block
// space (spaces/basic_block.space) with any search engine.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "basic_block_space.h"
#include "budget_text.h"
#include "commands.h"
#include "engines.h"

namespace candor::cli {
namespace {

struct BlockOptions {
  std::string file;
  std::string search = "dfbb";
  std::string budget = "time=10s";
  bool json = false;
  bool print_candidate = false;
};

int run_block(const BlockOptions& options) {
  models::BasicBlock block = models::read_basic_block(options.file);
  Budget budget = parse_budget(options.budget);
  std::unique_ptr<Search> search = make_search(options.search);

  BasicBlockSpace space(block);
  models::BasicBlockObjective objective(block, space.encoding());
  models::NextInstructionBrancher brancher(block, space.encoding());
  std::optional<Candidate> root = space.root();
  if (!root) {
    std::cerr << "candor block: error: " << options.file << ": the dependencies admit no order\n";
    return 1;
  }
  const double root_bound = objective.lower_bound(space, *root);
  const models::Cycles baseline = models::makespan(block, models::list_schedule(block));

  SearchResult result = search->run(space, *root, objective, brancher, budget);
  if (!result.best) {
    std::cerr << "candor block: error: the budget ran out before " << search->name()
              << " reached a complete order; raise --budget\n";
    return 1;
  }
  std::vector<int> order = models::issue_order(space, *result.best, space.encoding());
  const models::Cycles makespan = models::makespan(block, order);
  std::vector<std::string> names;
  for (int i : order) names.push_back(block.names[i]);

  if (options.json) {
    nlohmann::json out = {
        {"file", options.file},
        {"search", search->name()},
        {"instructions", block.size()},
        {"makespan", makespan},
        {"order", names},
        {"optimal", result.optimal},
        {"lower_bound", root_bound},
        {"list_schedule_makespan", baseline},
        {"nodes", result.stats.expanded},
        {"created", result.stats.created},
        {"failed", result.stats.failed},
        {"pruned", result.stats.pruned_by_bound},
        {"complete", result.stats.complete},
        {"seconds", result.stats.seconds},
    };
    nlohmann::json progress = nlohmann::json::array();
    for (auto [t, cost] : result.stats.best_over_time) progress.push_back({t, cost});
    out["best_over_time"] = progress;
    std::cout << out.dump() << "\n";
    return 0;
  }
  std::cout << fmt::format("{}: {} instructions, search {}\n", options.file, block.size(), search->name());
  std::cout << fmt::format("makespan {} ({}), lower bound at the root {}, list scheduling {}\n", makespan,
                           result.optimal ? "optimal" : "not proved optimal", root_bound, baseline);
  std::cout << "order: " << fmt::format("{}", fmt::join(names, " ")) << "\n";
  std::cout << fmt::format(
      "nodes expanded {}, created {}, failed {}, pruned by bound {}, implementations {}, {:.3f} s\n",
      result.stats.expanded, result.stats.created, result.stats.failed, result.stats.pruned_by_bound,
      result.stats.complete, result.stats.seconds);
  if (options.print_candidate) std::cout << space.print(*result.best);
  return 0;
}

}  // namespace

void register_block_command(CLI::App& app, int& exit_status) {
  auto options = std::make_shared<BlockOptions>();
  CLI::App* cmd = app.add_subcommand(
      "block", "Schedule the instructions of a basic block (.bb: one 'NAME LATENCY [DEP ...]' a line)");
  cmd->add_option("file", options->file, "the .bb file")->required();
  cmd->add_option("--search", options->search,
                  "search engine, NAME or NAME:key=value,...\n" + search_help())
      ->capture_default_str();
  cmd->add_option("--budget", options->budget, "limits: time=10s,nodes=N,kept=N,seed=N")
      ->capture_default_str();
  cmd->add_flag("--json", options->json, "print one JSON object (makespan, order, optimal, nodes, pruned, ...)");
  cmd->add_flag("--print-candidate", options->print_candidate, "print every choice of the best candidate");
  cmd->callback([options, &exit_status] {
    try {
      exit_status = run_block(*options);
    } catch (const models::ParseError& e) {
      std::cerr << e.what() << "\n";
      exit_status = 1;
    } catch (const std::invalid_argument& e) {
      std::cerr << "candor block: error: " << e.what() << "\n";
      exit_status = 1;
    }
  });
}

}  // namespace candor::cli
