// The candor command-line tool: one registration function per command, each in its own file.
#pragma once

#include <CLI/CLI.hpp>

namespace candor::cli {

// Each function adds one subcommand to `app`; the subcommand's callback runs the command
// and stores its exit status in `exit_status` (0 success, 1 user error).
void register_block_command(CLI::App& app, int& exit_status);

// The commands on Halide pipelines (built with CANDOR_HALIDE).
void register_apps_command(CLI::App& app, int& exit_status);
void register_target_command(CLI::App& app, int& exit_status);
void register_search_command(CLI::App& app, int& exit_status);
void register_measure_command(CLI::App& app, int& exit_status);
void register_model_command(CLI::App& app, int& exit_status);
void register_report_command(CLI::App& app, int& exit_status);

}  // namespace candor::cli
