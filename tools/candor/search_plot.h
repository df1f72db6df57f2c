// The plot of one search, drawn by gnuplot: the best predicted cost over the search's time,
// the runtimes measured after it (the pick's; autotuning, every candidate's), and the lower
// bound. `candor search --plot FILE` writes it as PNG; `candor report` embeds it as SVG.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "search_run.h"

namespace candor::cli {

struct PlotData {
  std::string title;
  std::string model;  // the model that predicts ("learned", "analytic")
  double search_seconds = 0;
  std::vector<std::pair<double, double>> best_predicted_ms;  // (seconds, ms), at each improvement
  std::vector<std::pair<double, double>> measured_ms;        // (seconds, ms), each verified measurement
  double root_bound_ms = 0;  // no schedule of the space can beat it
  double pick_bound_ms = 0;  // the pick's own bound
};

PlotData plot_data(const SearchRun& run);

enum class PlotFormat { Png, Svg };

// Whether gnuplot is on PATH.
bool gnuplot_available();

// Why a file cannot be written at `path` (it is a directory or a device, or the nearest folder
// on its way that exists is not writable), or "" when it can.
std::string output_problem(const std::string& path);

// Why a plot cannot be written to `path` (gnuplot is missing, or output_problem), or "" when it
// can: checked before a search, so that a long search does not end in an error.
std::string plot_problem(const std::string& path);

// The plot's file contents (PNG bytes or SVG text). Throws std::runtime_error with gnuplot's
// message when gnuplot is missing or fails.
std::string render_plot(const PlotData& data, PlotFormat format);

// render_plot written to `path` (support::write_file_atomically); throws std::runtime_error.
void write_plot(const PlotData& data, const std::string& path, PlotFormat format);

}  // namespace candor::cli
