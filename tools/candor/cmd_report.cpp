// `candor report APP [search options] --out FILE.html|DIR`: runs a search as `candor search`
// does (run_search) and writes one self-contained HTML page of it: the schedule's source, its
// loop nest as Halide lowers it, where the analytic model thinks the time goes, the lower
// bound's terms, the measurements and the search's plot (inline SVG). No script, no
// external resources; every text from the run is HTML-escaped.
#include <fmt/format.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "commands.h"
#include "halide_bridge/directives.h"
#include "models/halide/lower_bound.h"
#include "search_plot.h"
#include "search_run.h"
#include "support/files.h"

namespace Halide::Internal {
// Declared in Halide 14's PrintLoopNest.h, which Halide.h leaves out; libHalide exports it
// (Pipeline::print_loop_nest prints the same text to stderr).
std::string print_loop_nest(const std::vector<Function>& output_funcs);
}  // namespace Halide::Internal

namespace candor::cli {
namespace {

namespace fs = std::filesystem;
namespace mh = models::halide;

struct ReportOptions {
  SearchOptions search;
  std::string out;
};

std::string escaped(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string ms(double seconds) { return fmt::format("{:.4g}", seconds * 1e3); }

// A table: a header row and rows of cells, each already HTML (escape what comes from outside).
std::string table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
                  const std::string& cls = "") {
  std::string out = cls.empty() ? "<table>\n<tr>" : "<table class=\"" + cls + "\">\n<tr>";
  for (const std::string& h : header) out += "<th>" + h + "</th>";
  out += "</tr>\n";
  for (const auto& row : rows) {
    out += "<tr>";
    for (const std::string& cell : row) out += "<td>" + cell + "</td>";
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

// Two columns: what, value (values already HTML).
std::string facts(const std::vector<std::pair<std::string, std::string>>& rows) {
  std::string out = "<table class=\"facts\">\n";
  for (const auto& [k, v] : rows) out += "<tr><th>" + escaped(k) + "</th><td>" + v + "</td></tr>\n";
  return out + "</table>\n";
}

std::string section(const std::string& id, const std::string& title, const std::string& body) {
  return "<section id=\"" + id + "\">\n<h2>" + escaped(title) + "</h2>\n" + body + "</section>\n";
}

std::string pre(const std::string& text) { return "<pre>" + escaped(text) + "</pre>\n"; }

// The command line of this process (/proc/self/cmdline), words quoted where they need it.
std::string command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()), out, word;
  auto flush = [&] {
    const bool plain = !word.empty() && word.find_first_not_of(
                                            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,@+") ==
                                            std::string::npos;
    std::string q = word;
    if (!plain) {
      q = "'";
      for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
      q += "'";
    }
    out += (out.empty() ? "" : " ") + q;
    word.clear();
  };
  for (char c : all) c ? void(word += c) : flush();
  if (!word.empty()) flush();
  return out;
}

// The pick's loop nest as Halide lowers it (Halide's print_loop_nest).
std::string loop_nest(const SearchRun& run) {
  try {
    halide_bridge::AppInstance instance = run.app.build();
    halide_bridge::apply_schedule(run.pick().schedule, run.kd, instance.outputs);
    std::vector<Halide::Internal::Function> outputs;
    for (const Halide::Func& f : instance.outputs) outputs.push_back(f.function());
    return Halide::Internal::print_loop_nest(outputs);
  } catch (const std::exception& e) {  // Halide::Error and the bridge's errors
    return std::string("(Halide could not print the loop nest: ") + e.what() + ")";
  }
}

std::string stage_name(const std::string& func, int stage) {
  return stage == 0 ? func : fmt::format("{}.update({})", func, stage - 1);
}

std::string summary_section(const SearchRun& run) {
  const SearchOptions& o = run.options;
  const scheduler::ScheduledCandidate& pick = run.pick();
  const SearchStats& s = run.outcome.stats;
  std::vector<std::pair<std::string, std::string>> rows = {
      {"app", escaped(o.app) + (run.app.description.empty() ? "" : " (" + escaped(run.app.description) + ")")},
      {"search", escaped(o.search) + ", budget " + escaped(o.budget)},
      {"ranked by", "the " + escaped(run.scheduler->cost_model_name()) + " cost model"},
      {"machine", escaped(fmt::format("{}, {} cores, {}", run.machine.cpu, run.machine.cores, run.machine.halide_target))},
      {"search time", fmt::format("{:.2f} s ({} nodes expanded, {} created, {} pruned by the bound){}", s.seconds,
                                  s.expanded, s.created, s.pruned_by_bound,
                                  run.outcome.completed_past_time_limit ? "; completed by a greedy dive past the time limit" : "")},
      {"predicted", ms(pick.predicted_seconds) + " ms"},
      {"lower bound of the pick", ms(pick.lower_bound_seconds) + " ms"},
      {"lower bound of the space", ms(run.outcome.root_lower_bound_seconds) + " ms (no schedule of it beats this)"},
      {"measured", run.measured ? fmt::format("{:.4g} ms (verified against the reference)", run.tuned.runtime_ms)
                                : std::string("not measured (--no-measure)")},
  };
  if (run.measured && o.autotune > 0)
    rows.push_back({"autotuning", fmt::format("{} schedules measured ({} neighbours), {} centre moves, {:.1f} s",
                                              run.tuned.measured, run.tuned.proposed_measured, run.tuned.centre_moves,
                                              run.tuned.seconds)});
  rows.push_back({"whole run", fmt::format("{:.1f} s", run.wall_seconds)});
  rows.push_back({"command", "<code>" + escaped(command_line()) + "</code>"});
  return section("summary", "Summary", facts(rows));
}

std::string plot_section(const SearchRun& run) {
  std::string body =
      "<p>The best cost the " + escaped(run.scheduler->cost_model_name()) +
      " model predicted as the search went, the runtimes measured after it (each verified), and the lower "
      "bound.</p>\n";
  if (!gnuplot_available()) {
    std::cerr << "candor report: warning: gnuplot is not on PATH: the page has no plot\n";
    return section("plot", "The search over time", body + "<p class=\"missing\">No plot: gnuplot is not installed.</p>\n");
  }
  std::string svg = render_plot(plot_data(run), PlotFormat::Svg);
  // Inline: from the <svg> element on (the XML declaration and doctype go).
  const size_t start = svg.find("<svg");
  if (start == std::string::npos) throw std::runtime_error("gnuplot wrote no <svg> element");
  return section("plot", "The search over time", body + "<div class=\"plot\">\n" + svg.substr(start) + "</div>\n");
}

std::string model_section(const SearchRun& run) {
  static const char* where[] = {"inline", "root", "tile", "subtile"};
  const mh::Prediction& p = run.pick().analytic;
  std::vector<std::vector<std::string>> rows, loads;
  for (const mh::StageCost& c : p.stages) {
    const double share = p.seconds > 0 ? c.total_s / p.seconds : 0;
    rows.push_back({escaped(stage_name(c.func, c.stage)),
                    std::string(c.in_registers ? "registers, " : "") + where[int(c.where)],
                    fmt::format("{:.2f}", c.recompute), fmt::format("{:.0f}", c.parallel_tasks),
                    fmt::format("{:.2f}", c.cores_used), fmt::format("{:.2f}", c.vector_efficiency),
                    fmt::format("{:.2f}", c.loads_per_point), ms(c.compute_s), ms(c.load_s), ms(c.store_s),
                    ms(c.total_s),
                    fmt::format("<span class=\"bar\" style=\"width:{:.0f}px\"></span> {:.1f}%",
                                std::min(1.0, std::max(0.0, share)) * 120, share * 100)});
    const auto& l = c.load_parts;
    loads.push_back({escaped(stage_name(c.func, c.stage)), ms(l.levels_s), ms(l.l1_s), ms(l.strided_s), ms(l.gathers_s),
                     ms(l.column_walk_s), fmt::format("{:.3g}", c.column_walk_lines), ms(c.stall_s)});
  }
  std::string body = "<p>The analytic model's terms for each stage of the pick (ms; the Funcs it inlines are not listed). "
                     "The pipeline: <b>" + ms(p.seconds) + " ms</b>.</p>\n";
  body += table({"stage", "where", "recompute", "tasks", "cores", "vector eff.", "loads/point", "compute", "load", "store",
                 "total", "share"},
                rows, "numbers");
  body += "<h3>Loads by cause (ms)</h3>\n";
  body += table({"stage", "levels", "L1", "strided", "gathers", "column walks", "lines walked", "stalled"}, loads, "numbers");
  return section("model", "Where the model thinks the time goes", body);
}

std::string bound_terms(const mh::LowerBoundTerms& t) {
  std::vector<std::vector<std::string>> rows;
  for (const mh::StageBound& s : t.stages)
    rows.push_back({escaped(stage_name(s.func, s.stage)), fmt::format("{:.4g}", s.points), fmt::format("{:.3g}", s.ops_per_point),
                    fmt::format("{:.2f}", s.cores), s.vector ? "yes" : "no", ms(s.seconds)});
  std::string out = facts({{"bound", "<b>" + ms(t.seconds()) + " ms</b> = max(compute, memory)"},
                           {"compute", ms(t.compute_s) + " ms (the stages below, one after another)"},
                           {"memory", escaped(fmt::format("{} ms: {:.4g} bytes that must move, at the bandwidth of {}",
                                                          ms(t.memory_s), t.bytes, t.level))}});
  out += table({"stage that counts", "points", "certain ops/point", "cores", "may vectorize", "seconds (ms)"}, rows,
               "numbers");
  return out;
}

std::string bound_section(const SearchRun& run) {
  const HalideCpuSpace& space = run.scheduler->space();
  std::string body = "<p>An admissible bound (models/halide/lower_bound.h): the arithmetic no schedule can avoid at the "
                     "best rate it can still reach, or the bytes that must move at the fastest bandwidth that holds "
                     "them.</p>\n<h3>The pick</h3>\n";
  body += bound_terms(mh::lower_bound_terms(run.kd, space.view(run.pick().decisions), run.machine));
  body += "<h3>The whole space (the search's root)</h3>\n";
  if (run.options.pins.empty()) {
    if (const std::optional<Candidate> root = space.root())
      body += bound_terms(mh::lower_bound_terms(run.kd, space.view(*root), run.machine));
  } else {
    body += "<p>With the pins: " + ms(run.outcome.root_lower_bound_seconds) + " ms.</p>\n";
  }
  return section("bound", "The lower bound's terms", body);
}

std::string measurements_section(const SearchRun& run) {
  if (!run.measured) return section("measurements", "Measurements", "<p>Not measured (--no-measure).</p>\n");
  const bool side_by_side = run.options.autotune > 0;
  // The search's candidates and the finalists' further processes in one table; the
  // neighbours autotuning measured (hundreds, on a fast pipeline) folded in a second.
  std::vector<std::vector<std::string>> rows, neighbour_rows;
  for (size_t k = 0; k < run.measurements.size(); ++k) {
    const TimedMeasurement& t = run.measurements[k];
    const scheduler::Measurement& m = t.measurement;
    std::vector<std::string> row = {
        fmt::format("{}", k + 1), fmt::format("{:.1f}", t.seconds),
        escaped(run.label(t.index)) + (t.repeat ? fmt::format(" (again, process {})", t.repeat + 1) : ""),
        ms(run.tried[t.index].predicted_seconds),
        m.ok ? fmt::format("{:.4g}", m.runtime_ms) : "<span class=\"failed\">failed: " + escaped(m.failure) + "</span>",
        fmt::format("{:.1f}{}", m.wall_seconds, m.from_journal ? " (journal)" : ""), t.index == run.chosen ? "pick" : ""};
    // Autotuning times schedules side by side: the ratio to the first in the same process (not
    // of those timed alone for --top).
    const bool beside = m.ok && t.index < run.neighbours_end;
    if (side_by_side) row.insert(row.begin() + 5, beside ? fmt::format("{:.3f}", m.ratio_to_first) : "");
    (run.is_neighbour(t.index) && t.repeat == 0 ? neighbour_rows : rows).push_back(std::move(row));
  }
  std::string body = fmt::format("<p>Each schedule compiled, verified against the reference and timed ({} timed runs, the "
                                 "median) in a child process. The pick: {:.4g} ms.</p>\n",
                                 run.options.runs, run.tuned.runtime_ms);
  std::vector<std::string> header = {"#", "at (s)", "schedule", "predicted (ms)", "measured (ms)", "wall (s)", ""};
  if (side_by_side) header.insert(header.begin() + 5, "ratio to the first in its process");
  body += table(header, rows, "numbers");
  if (!neighbour_rows.empty())
    body += fmt::format("<details><summary>The {} neighbours measured (one decision changed from the centre, timed "
                        "beside it)</summary>\n",
                        neighbour_rows.size()) +
            table(header, neighbour_rows, "numbers") + "</details>\n";
  return section("measurements", "Measurements", body);
}

std::string top_section(const SearchRun& run) {
  std::vector<std::vector<std::string>> rows;
  std::string sources;
  for (size_t i = 0; i < run.top_count(); ++i) {
    const scheduler::ScheduledCandidate& c = run.outcome.candidates[i];
    rows.push_back({fmt::format("{}", i + 1), ms(c.predicted_seconds), ms(c.lower_bound_seconds),
                    escaped(measurement_text(run.top_measurements[i]))});
    sources += fmt::format("<details><summary>#{} schedule</summary>\n", i + 1) +
               pre(halide_bridge::print_schedule(c.schedule, run.kd)) + "</details>\n";
  }
  return section("top", fmt::format("The {} best schedules by predicted cost", run.top_count()),
                 table({"#", "predicted (ms)", "lower bound (ms)", "measured"}, rows, "numbers") + sources);
}

const char* kStyle = R"(body { font-family: sans-serif; margin: 2em auto; max-width: 1100px; color: #222; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; padding-bottom: .2em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: .6em 0; } th, td { border: 1px solid #ddd; padding: .25em .6em; }
th { background: #f3f3f3; text-align: left; } table.numbers td { text-align: right; font-variant-numeric: tabular-nums; }
table.numbers td:first-child { text-align: left; } table.facts th { width: 14em; }
pre { background: #f7f7f7; border: 1px solid #ddd; padding: .8em; overflow-x: auto; font-size: .85em; }
.bar { display: inline-block; height: .8em; background: #1f77b4; vertical-align: middle; }
.failed { color: #b00; } .missing { color: #b00; } .plot svg { width: 100%; height: auto; }
details { margin: .3em 0; } summary { cursor: pointer; }
)";

std::string page(const SearchRun& run) {
  const scheduler::ScheduledCandidate& pick = run.pick();
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>candor report: " +
                     escaped(run.options.app) + "</title>\n<style>\n" + kStyle + "</style>\n</head>\n<body>\n";
  html += "<h1>candor report: " + escaped(run.options.app) + "</h1>\n";
  html += summary_section(run);
  html += plot_section(run);
  html += section("schedule", "Schedule (Halide C++)", pre(halide_bridge::print_schedule(pick.schedule, run.kd)));
  html += section("loop-nest", "Loop nest (as Halide lowers it)", pre(loop_nest(run)));
  html += model_section(run);
  html += bound_section(run);
  html += measurements_section(run);
  if (run.options.top > 0) html += top_section(run);
  const std::vector<std::string> pins = run.scheduler->pins(pick);
  std::string decisions;
  for (const std::string& pin : pins) decisions += pin + "\n";
  html += section("decisions", "Decisions (as --pin arguments)",
                  fmt::format("<details><summary>The pick's {} decisions, CHOICE=VALUE: passed back as <code>--pin</code>s they "
                              "give the same schedule</summary>\n",
                              pins.size()) +
                      pre(decisions) + "</details>\n");
  return html + "</body>\n</html>\n";
}

// FILE, or DIR/APP.html when `out` is a folder (exists, or ends with '/').
std::string page_path(const std::string& out, const std::string& app) {
  std::error_code ec;
  if (!out.empty() && out.back() != '/' && !fs::is_directory(out, ec)) return out;
  std::string name;
  for (char c : app) name += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ? c : '_';
  return (fs::path(out) / (name + ".html")).string();
}

int report_command(const ReportOptions& o) {
  const std::string path = page_path(o.out, o.search.app);
  if (const std::string problem = output_problem(path); !problem.empty()) throw std::invalid_argument(problem);
  const std::unique_ptr<SearchRun> run = run_search(o.search);
  std::string error;
  if (!support::write_file_atomically(path, page(*run), error)) throw std::runtime_error(error);
  std::cout << fmt::format("candor report: wrote {} (search {:.1f} s, whole run {:.1f} s)\n", path,
                           run->outcome.stats.seconds, run->wall_seconds);
  return 0;
}

}  // namespace

void register_report_command(CLI::App& app, int& exit_status) {
  auto o = std::make_shared<ReportOptions>();
  CLI::App* cmd = app.add_subcommand(
      "report", "Search an app as `candor search` does and write one HTML page of it: schedule source, loop nest, "
                "the model's terms per stage, the lower bound's terms, measurements, the search's plot");
  cmd->add_option("app", o->search.app, "the app (see `candor apps`), or random:SEED[@SIZE] or layers:SEED[@SIZE]")
      ->required();
  add_search_options(*cmd, o->search);
  cmd->add_option("--out", o->out, "the page: FILE.html, or a folder (DIR/APP.html)")->required();
  cmd->callback([o, &exit_status] { exit_status = run_reporting_errors("report", [&] { return report_command(*o); }); });
}

}  // namespace candor::cli
