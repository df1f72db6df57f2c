// candor_refeaturize: brings a measured dataset up to date with today's space, featurization
// and analytic model (refeaturize.h), so the learned model can be retrained after they change
// without measuring anything again.
//
//   build/bin/candor_refeaturize IN.jsonl OUT.jsonl [--machine FILE]
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "models/halide/machine.h"
#include "refeaturize.h"
#include "tools/strict_numbers.h"

int main(int argc, char** argv) {
  CLI::App app{"Recompute the features, cost terms and analytic predictions of measured samples "
               "(docs/dataset.md) with today's space and models; stale samples are dropped"};
  std::string input, output, machine_path;
  app.add_option("input", input, "the dataset to read (JSON lines)")->required()->check(CLI::ExistingFile);
  app.add_option("output", output, "the dataset to write")->required();
  app.add_option("--machine", machine_path, "machine description (default: build/machine.json, calibrated if missing)");
  candor::cli::require_decimal_numbers(app);
  CLI11_PARSE(app, argc, argv);
  try {
    if (machine_path.empty()) machine_path = candor::models::halide::default_machine_path();
    const candor::collect::RefeaturizeStats s =
        candor::collect::refeaturize(input, output, candor::models::halide::load_or_calibrate(machine_path));
    std::cout << fmt::format("{}: {} samples read, {} written, {} stale (no longer the measured schedule), "
                             "{} of unknown pipelines\n",
                             output, s.read, s.written, s.stale, s.unknown_pipeline);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "candor_refeaturize: error: " << e.what() << "\n";
    return 1;
  }
}
