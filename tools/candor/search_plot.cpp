#include "search_plot.h"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "support/files.h"

namespace candor::cli {
namespace {

namespace fs = std::filesystem;

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = dirs.substr(start, end - start);
    if (!dir.empty() && access((dir + "/" + program).c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

// A gnuplot string literal: single quotes, each one inside doubled.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// A temporary folder, removed with what it holds when the object goes.
class TemporaryFolder {
 public:
  TemporaryFolder() {
    std::string pattern = (fs::temp_directory_path() / "candor_plot_XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temporary folder for the plot");
    path_ = pattern;
  }
  ~TemporaryFolder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void write_points(const fs::path& file, const std::vector<std::pair<double, double>>& points) {
  std::ofstream out(file);
  for (const auto& [x, y] : points)
    if (y > 0) out << fmt::format("{:.6g} {:.9g}\n", x, y);
  if (!out) throw std::runtime_error("cannot write the plot's data to " + file.string());
}

std::string read_all(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

PlotData plot_data(const SearchRun& run) {
  PlotData d;
  const std::string engine = run.options.search;
  d.title = fmt::format("candor search {}: {}, {} model", run.options.app, engine, run.scheduler->cost_model_name());
  d.model = run.scheduler->cost_model_name();
  d.search_seconds = run.outcome.stats.seconds;
  for (const auto& [seconds, cost] : run.outcome.stats.best_over_time) d.best_predicted_ms.emplace_back(seconds, cost * 1e3);
  // The best stays the best until the search ends.
  if (!d.best_predicted_ms.empty()) d.best_predicted_ms.emplace_back(d.search_seconds, d.best_predicted_ms.back().second);
  for (const TimedMeasurement& t : run.measurements)
    if (t.measurement.ok) d.measured_ms.emplace_back(t.seconds, t.measurement.runtime_ms);
  d.root_bound_ms = run.outcome.root_lower_bound_seconds * 1e3;
  d.pick_bound_ms = run.pick().lower_bound_seconds * 1e3;
  return d;
}

bool gnuplot_available() { return on_path("gnuplot"); }

std::string plot_problem(const std::string& path) {
  if (!gnuplot_available()) return "--plot needs gnuplot, which is not on PATH (Debian: apt-get install gnuplot-nox)";
  return output_problem(path);
}

std::string output_problem(const std::string& path) {
  std::error_code ec;
  const fs::path target = fs::absolute(path, ec);
  if (ec) return "cannot write " + path + ": " + ec.message();
  if (fs::exists(target, ec) && !fs::is_regular_file(target, ec)) return "cannot write " + path + ": not a regular file";
  // The nearest folder that exists must be writable (write_file_atomically creates the rest).
  fs::path dir = target.parent_path();
  while (!dir.empty() && !fs::exists(dir, ec) && dir != dir.root_path()) dir = dir.parent_path();
  if (!fs::is_directory(dir, ec)) return "cannot write " + path + ": " + dir.string() + " is not a folder";
  if (access(dir.c_str(), W_OK) != 0) return "cannot write " + path + ": " + dir.string() + " is not writable";
  return "";
}

std::string render_plot(const PlotData& d, PlotFormat format) {
  if (!gnuplot_available()) throw std::runtime_error("plotting needs gnuplot, which is not on PATH (Debian: apt-get install gnuplot-nox)");
  TemporaryFolder tmp;
  const fs::path best = tmp.path() / "best.dat", measured = tmp.path() / "measured.dat";
  const fs::path out = tmp.path() / (format == PlotFormat::Png ? "plot.png" : "plot.svg");
  write_points(best, d.best_predicted_ms);
  write_points(measured, d.measured_ms);

  double x_max = d.search_seconds;
  for (const auto& [x, y] : d.measured_ms) x_max = std::max(x_max, x);
  x_max = std::max(x_max, 1e-3) * 1.03;
  std::string script = format == PlotFormat::Png
                           ? "set terminal pngcairo size 1000,560 font \",10\"\n"
                           : "set terminal svg size 1000,560 dynamic font \"sans,12\" background \"white\"\n";
  script += "set output " + quoted(out.string()) + "\n";
  script += "set title " + quoted(d.title) + " noenhanced\n";
  script += "set xlabel 'seconds since the search began'\nset ylabel 'ms (log scale)'\n";
  script += "set logscale y\nset grid xtics ytics mytics\nset key outside below noenhanced\n";
  script += fmt::format("set xrange [0:{:.6g}]\n", x_max);
  // The search ends here; the measurements come after it.
  script += fmt::format("set arrow from {0:.6g}, graph 0 to {0:.6g}, graph 1 nohead dt 3 lc rgb 'gray40'\n",
                        d.search_seconds);
  script += fmt::format("set label 'search ends' at {:.6g}, graph 0.96 right offset -0.6, 0 tc rgb 'gray40'\n",
                        d.search_seconds);
  std::vector<std::string> plots;
  if (!d.best_predicted_ms.empty())
    plots.push_back(fmt::format("{} using 1:2 with steps lw 2 lc rgb '#1f77b4' title 'best predicted ({} model)'",
                                quoted(best.string()), d.model));
  if (!d.measured_ms.empty())
    plots.push_back(quoted(measured.string()) + " using 1:2 with points pt 7 ps 1.2 lc rgb '#d62728' title 'measured (verified)'");
  if (d.root_bound_ms > 0)
    plots.push_back(fmt::format("{:.9g} with lines dt 2 lw 2 lc rgb '#2ca02c' title 'lower bound (no schedule of the space beats it)'",
                                d.root_bound_ms));
  if (d.pick_bound_ms > 0)
    plots.push_back(fmt::format("{:.9g} with lines dt 4 lw 1.5 lc rgb '#9467bd' title \"the pick's lower bound\"",
                                d.pick_bound_ms));
  if (plots.empty()) throw std::runtime_error("nothing to plot: the search recorded no cost and no bound");
  script += "plot ";
  for (size_t i = 0; i < plots.size(); ++i) script += (i ? ", \\\n     " : "") + plots[i];
  script += "\n";

  const fs::path script_file = tmp.path() / "plot.gp", errors = tmp.path() / "gnuplot.err";
  {
    std::ofstream s(script_file);
    s << script;
    if (!s) throw std::runtime_error("cannot write the plot's script to " + script_file.string());
  }
  // The folder is mkdtemp's: its name holds no quote.
  const int status = std::system(fmt::format("gnuplot '{}' 2> '{}'", script_file.string(), errors.string()).c_str());
  const std::string output = read_all(out);
  if (status != 0 || output.empty()) {
    std::string message = read_all(errors);
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
    throw std::runtime_error("gnuplot failed" + (WIFEXITED(status) ? fmt::format(" (exit status {})", WEXITSTATUS(status)) : std::string()) +
                             (message.empty() ? std::string() : ": " + message));
  }
  return output;
}

void write_plot(const PlotData& data, const std::string& path, PlotFormat format) {
  const std::string bytes = render_plot(data, format);
  std::string error;
  if (!support::write_file_atomically(path, bytes, error)) throw std::runtime_error(error);
}

}  // namespace candor::cli
