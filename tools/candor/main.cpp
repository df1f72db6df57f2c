#include <cstdio>
#include <exception>

#include "commands.h"
#include "tools/strict_numbers.h"

int main(int argc, char** argv) {
  CLI::App app{"candor: constraint-based candidate-space search for schedules"};
  app.require_subcommand(1);
  int exit_status = 0;
  candor::cli::register_block_command(app, exit_status);
#ifdef CANDOR_HAVE_HALIDE
  candor::cli::register_apps_command(app, exit_status);
  candor::cli::register_target_command(app, exit_status);
  candor::cli::register_search_command(app, exit_status);
  candor::cli::register_measure_command(app, exit_status);
  candor::cli::register_model_command(app, exit_status);
  candor::cli::register_report_command(app, exit_status);
#endif
  candor::cli::require_decimal_numbers(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "candor: error: %s\n", e.what());
    return 1;
  }
  return exit_status;
}
