// libautoschedule_candor.so: the autoscheduler plugin for stock Halide 14 generators.
//
//   GENERATOR -g NAME -o DIR -e static_library,c_header,schedule
//             -p build/lib/libautoschedule_candor.so -s Candor target=$(candor target) auto_schedule=true
//
// On load it registers the autoscheduler "Candor" (also as "autoschedule_candor") with
// Halide. On a pipeline it describes the kernel (Halide's bounds inference on the
// estimates), searches the Halide CPU space with the cost model (plugin_options.h: the
// CANDOR_* knobs), checks the model's best schedules on
// synthetic inputs until one matches the reference, applies it to the pipeline's Funcs, and
// returns the very same schedule as C++ source in AutoSchedulerResults::schedule_source
// (what `-e schedule` writes to NAME.schedule.h). A time budget is the plugin's wall time:
// describing, searching and verifying. When the search finds nothing in time, or none of the
// best schedules passes (a crash, a hang, a mismatch) or the time runs out first, the plugin
// warns and emits the reference schedule (hb::reference_schedule).
// Errors the user must fix (missing estimates, a bad knob) are reported as Halide user
// errors: the generator prints the message and exits with a failure status.
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string_view>

#include <Halide.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "child_checks.h"
#include "child_process.h"
#include "groups.h"
#include "halide_bridge/compile.h"
#include "halide_bridge/cpu_features.h"
#include "halide_bridge/directives.h"
#include "halide_bridge/kernel_description.h"
#include "halide_bridge/pipeline_app.h"
#include "models/halide/machine.h"
#include "plugin_options.h"
#include "scheduler.h"
#include "support/files.h"
#include "support/progress.h"

namespace candor::scheduler {
namespace {

namespace hb = halide_bridge;

// The directory holding this shared object (build/lib), found from one of its own symbols.
std::filesystem::path plugin_directory() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&plugin_directory), &info) == 0 || !info.dli_fname) return {};
  std::error_code ec;
  std::filesystem::path self = std::filesystem::canonical(info.dli_fname, ec);
  return ec ? std::filesystem::path() : self.parent_path();
}

// The body of `apply_schedule_NAME(Halide::Pipeline pipeline, Halide::Target target)` in the
// NAME.schedule.h a generator emits: it rebuilds the map of Funcs by name that the printed
// directives expect (Pipeline::get_func indexes the Funcs in the pipeline's topological
// order, which is the same for the same generator), then runs the printed directives.
std::string schedule_source(Halide::Pipeline pipeline, const std::string& printed, const std::string& comment) {
  std::map<std::string, Halide::Func> by_name = hb::pipeline_funcs(pipeline.outputs());
  std::map<std::string, size_t> index_of;  // Halide name -> topological index
  for (size_t i = 0; i < by_name.size(); ++i) index_of[pipeline.get_func(i).name()] = i;

  std::ostringstream out;
  out << comment;
  out << "(void)target;\n";
  out << "std::map<std::string, ::Halide::Func> funcs;\n";
  for (const auto& [name, func] : by_name) {
    auto it = index_of.find(func.name());
    if (it == index_of.end()) {
      throw std::runtime_error("Func '" + func.name() + "' is not among the pipeline's Funcs (Pipeline::get_func)");
    }
    out << "funcs[\"" << name << "\"] = pipeline.get_func(" << it->second << ");  // " << func.name() << "\n";
  }
  out << printed;  // one block; the generator indents the whole body
  return out.str();
}

// The target the plugin's checks run on: the generator's, less what only ahead-of-time
// code uses; none when this host cannot run its code (a cross-compiling generator, or an
// instruction set this CPU lacks).
std::optional<Halide::Target> verification_target(const Halide::Target& target, std::string& why_not) {
  using T = Halide::Target;
  const T host = hb::aot_host_target();
  if (target.os != host.os || target.arch != host.arch || target.bits != host.bits) {
    why_not = "target " + target.to_string() + " is not this host's kind";
    return std::nullopt;
  }
  for (const hb::X86FeatureRequirement& isa : hb::x86_feature_requirements()) {
    if (target.has_feature(isa.feature) && !host.has_feature(isa.feature)) {
      why_not = "this CPU cannot run target " + target.to_string();
      return std::nullopt;
    }
  }
  T checked = target;
  for (T::Feature aot_only : {T::NoRuntime, T::CPlusPlusMangling, T::UserContext, T::Matlab, T::NoBoundsQuery})
    checked = checked.without_feature(aot_only);
  return checked;
}

// The schedules the plugin may emit: the model's best few, in its order.
constexpr int kCheckedSchedules = 4;
// A check compiles the pipeline twice (reference, candidate): generous for large pipelines.
constexpr double kCheckTimeoutSeconds = 300;
// Of the time a budget leaves after describing the pipeline: the search's share, and where
// the greedy dive completing a search that found nothing in its share must stop. What is
// left after the search is verification's.
constexpr double kSearchShare = 2.0 / 3.0;
constexpr double kCompletionShare = 5.0 / 6.0;

// Pipelines of more Funcs are searched in groups of at most kGroupFuncs (groups.h): a
// greedy dive over 52 Funcs took 18 s on two cores, over 21 under a second.
constexpr size_t kWholeSearchFuncs = 24;
constexpr int kGroupFuncs = 16;

using Clock = std::chrono::steady_clock;

double seconds_until(Clock::time_point deadline) {
  return std::chrono::duration<double>(deadline - Clock::now()).count();
}

// Which schedule to emit: one of the model's best, or none (the reference schedule then).
struct Pick {
  std::optional<size_t> index;
  std::string note;  // how it was checked, or why there is none
  // Each checked schedule's verdict, in the model's order: "" matched the reference at
  // every size, else why not; the schedules past it were not checked.
  std::vector<std::string> verdicts;
};

// A size the schedules are checked at, "512x384" (the first output's extents).
std::string size_text(const hb::OutputSizes& sizes) {
  std::string text;
  for (int extent : sizes.at(0)) text += (text.empty() ? "" : "x") + std::to_string(extent);
  return text;
}

// The reference outputs on synthetic inputs at the estimates and at other sizes
// (other_output_sizes), computed in a child process while the plugin searches: Halide's
// bounds query sizes the inputs, the reference schedule runs, and the outputs go to a
// temporary file per size that the checking children read. A size the reference schedule
// itself cannot run at (a generator that constrains its sizes) is left out.
class BackgroundReference {
 public:
  BackgroundReference(const Halide::Pipeline& pipeline, const hb::KernelDescription& kd, const Halide::Target& target)
      : sizes_(sizes_to_check(pipeline, kd)),
        shapes_(sizes_.size()),
        files_(output_files(sizes_.size())),
        child_([&, sizes = sizes_, files = files_] {
          try {
            // One compile of the bounds query and one of the reference serve every size.
            std::vector<std::string> errors;
            const std::vector<hb::InputShapes> shapes = hb::queried_input_shapes(pipeline, kd, sizes, errors);
            if (!errors[0].empty()) throw hb::BridgeError(errors[0]);
            for (size_t k = 0; k < sizes.size(); ++k)
              for (const auto& [name, shape] : shapes[k]) {
                std::cout << "shape " << k << " " << name << " " << shape.size();
                for (const hb::Range& r : shape) std::cout << " " << r.min << " " << r.max;
                std::cout << "\n";
              }
            std::vector<size_t> runnable = {0};  // the sizes whose inputs could be queried
            for (size_t k = 1; k < sizes.size(); ++k) {
              if (errors[k].empty()) runnable.push_back(k);
              else std::cout << "skipped " << k << " " << one_line(errors[k]) << "\n";
            }
            const auto resize = [&](size_t j, hb::AppInstance& inst) {
              hb::resize_instance(inst, kd, shapes[runnable[j]], sizes[runnable[j]]);
            };
            const std::vector<hb::Outputs> outputs = hb::reference_outputs_at_sizes(
                hb::pipeline_app(pipeline, kd, shapes[0]), runnable.size(), resize, target, errors);
            for (size_t j = 0; j < runnable.size(); ++j) {
              if (!errors[j].empty()) {
                std::cout << "skipped " << runnable[j] << " " << one_line(errors[j]) << "\n";
                continue;
              }
              hb::save_outputs(outputs[j], files[runnable[j]].string());
              std::cout << "size " << runnable[j] << "\n";
            }
            std::cout << "ready" << std::endl;
          } catch (const std::exception& e) {
            std::cout << "failed " << one_line(e.what()) << std::endl;
          }
          return 0;
        }) {}
  ~BackgroundReference() {
    std::error_code ec;
    for (const std::filesystem::path& f : files_) std::filesystem::remove(f, ec);
  }

  // Waits up to `seconds` for the child. "" when the outputs at the estimates are ready
  // (then checked() lists the sizes with outputs, the estimates first, and skipped() why
  // the others have none); otherwise what failed, with `out_of_time` set when the time ran out.
  std::string wait(double seconds, bool& out_of_time) {
    const ChildResult r = child_.wait(seconds);
    out_of_time = r.timed_out;
    if (r.timed_out) return "the reference outputs were not ready in time";
    std::istringstream lines(r.output);
    for (std::string line; std::getline(lines, line);) {
      std::istringstream words(line);
      std::string word, name;
      size_t k = 0, dims = 0;
      words >> word;
      if (word == "ready") return "";
      if (word == "failed") return line.substr(7);
      if (word == "size" && words >> k && k < sizes_.size()) checked_.push_back(k);
      if (word == "skipped" && words >> k && k < sizes_.size()) {
        std::string why;
        std::getline(words, why);
        skipped_ += fmt::format("{}the reference schedule does not run at {} ({})", skipped_.empty() ? "" : "; ",
                                size_text(sizes_[k]), why.empty() ? why : why.substr(1));
      }
      if (word == "shape" && words >> k >> name >> dims && k < sizes_.size()) {
        std::vector<hb::Range>& shape = shapes_[k][name];
        shape.resize(dims);
        for (hb::Range& range : shape) words >> range.min >> range.max;
      }
    }
    return r.crashed ? "computing them crashed (killed by a signal)"
                     : fmt::format("computing them ended with status {}", r.exit_status);
  }
  // The outputs' file of each size.
  const std::vector<std::filesystem::path>& files() const { return files_; }
  const std::vector<size_t>& checked() const { return checked_; }
  const std::string& skipped() const { return skipped_; }
  const hb::OutputSizes& sizes(size_t k) const { return sizes_.at(k); }
  const hb::InputShapes& shapes(size_t k) const { return shapes_.at(k); }

 private:
  static std::vector<hb::OutputSizes> sizes_to_check(const Halide::Pipeline& pipeline, const hb::KernelDescription& kd) {
    std::vector<hb::OutputSizes> sizes = {hb::estimated_output_sizes(pipeline, kd)};
    for (hb::OutputSizes& other : hb::other_output_sizes(sizes[0])) sizes.push_back(std::move(other));
    return sizes;
  }
  // Named by this process and object: each plugin run and pipeline has its own.
  std::vector<std::filesystem::path> output_files(size_t count) const {
    std::vector<std::filesystem::path> paths;
    for (size_t k = 0; k < count; ++k)
      paths.push_back(std::filesystem::temp_directory_path() /
                      fmt::format("candor_reference_{}_{}.outputs.{}", getpid(), reinterpret_cast<uintptr_t>(this), k));
    return paths;
  }

  std::vector<hb::OutputSizes> sizes_;
  std::vector<hb::InputShapes> shapes_;
  std::vector<std::filesystem::path> files_;
  std::vector<size_t> checked_;
  std::string skipped_;
  BackgroundChild child_;
};

// A check's failure that the schedule passed at the estimates: it failed at another size.
constexpr const char* kEstimatesOnly = "correct at the estimates only: ";

// The first of the model's best schedules whose output, on synthetic inputs at the estimates
// and at the other sizes, matches the reference schedule's: Halide 14 miscompiles a few of
// the space's schedules (bench/head_to_head_results/2026-11-27_s30/README.md), and a tile
// whose tail shifts inwards fails where an output is shorter than the tile. When none passes
// at every size, the first that passes at the estimates, with a warning naming where it
// fails. Each check runs in a child process, so a schedule that crashes or hangs costs only
// its place. No pick when every one failed or the time ran out before a verdict. The first
// `check_all` schedules are all checked, even past the first that passes.
Pick verified_pick(const Halide::Pipeline& pipeline, const hb::KernelDescription& kd, const Halide::Target& target,
                   BackgroundReference& background, const std::vector<PricedSchedule>& schedules, size_t check_all,
                   Clock::time_point deadline) {
  bool out_of_time = false;
  const std::string unready = background.wait(seconds_until(deadline), out_of_time);
  if (out_of_time) return {std::nullopt, "the budget ran out while computing the reference outputs", {}};
  if (!unready.empty())
    return {0, "not verified: the reference schedule did not run on synthetic inputs (" + unready + ")", {}};
  if (!background.skipped().empty()) std::cerr << "[candor] " << background.skipped() << "\n";
  const std::vector<size_t>& sizes = background.checked();  // the estimates first
  std::string at_sizes = size_text(background.sizes(0));
  for (size_t j = 1; j < sizes.size(); ++j)
    at_sizes += (j + 1 == sizes.size() ? " and " : ", ") + size_text(background.sizes(sizes[j]));
  const size_t count = std::min(schedules.size(), std::max(size_t(kCheckedSchedules), check_all));
  const hb::App app = hb::pipeline_app(pipeline, kd, background.shapes(0));
  std::vector<hb::Outputs> references;
  hb::RunOptions run;
  run.tolerance = hb::tolerance_for(kd);
  // A few runs at the estimates, timed: the log says how far the model's prediction was.
  run.warmup_runs = 1;
  run.timed_runs = 3;
  const auto resize = [&](size_t j, hb::AppInstance& inst) {
    hb::resize_instance(inst, kd, background.shapes(sizes[j]), background.sizes(sizes[j]));
  };
  const ChildChecks checks = first_passing_in_child(
      count,
      [&] {
        for (size_t k : sizes) references.push_back(hb::load_outputs(background.files()[k].string()));
      },
      [&](size_t i) {
        hb::AppInstance inst;
        hb::EvalResult r;
        if (!hb::scheduled_instance(app, schedules[i].schedule, kd, target, inst, r.failed_step, r.error))
          return r.failed_step + ": " + r.error;
        r = hb::verify_at_sizes(inst, references, resize, target, run);
        if (r.ok) {
          const double predicted_ms = schedules[i].predicted_seconds * 1e3;
          std::cerr << fmt::format("[candor] schedule #{} of the model's best matches the reference at {} (max "
                                   "error {:g}); at the estimates it runs in {:.4g} ms, predicted {:.4g} ms "
                                   "(measured / predicted {:.2f}, median of {} runs)\n",
                                   i + 1, at_sizes, r.max_abs_error, r.median_ms, predicted_ms,
                                   predicted_ms > 0 ? r.median_ms / predicted_ms : 0.0, r.run_ms.size());
          return std::string();
        }
        // verify_at_sizes says "at size J: ..." of the first size that failed.
        size_t j = 0;
        if (std::sscanf(r.error.c_str(), "at size %zu:", &j) == 1 && j > 0 && j < sizes.size())
          return fmt::format("{}fails at {}: {}: {}", kEstimatesOnly, size_text(background.sizes(sizes[j])),
                             r.failed_step, r.error.substr(r.error.find(':') + 2));
        constexpr std::string_view kAtEstimates = "at size 0: ";
        if (r.error.rfind(kAtEstimates, 0) == 0) r.error.erase(0, kAtEstimates.size());
        return r.failed_step + ": " + r.error;
      },
      kCheckTimeoutSeconds, seconds_until(deadline), check_all);
  Pick pick;
  pick.verdicts = checks.verdicts;
  std::string failures;
  std::optional<size_t> estimates_only;  // the first correct at the estimates only
  for (size_t i = 0; i < pick.verdicts.size(); ++i) {
    const std::string& verdict = pick.verdicts[i];
    if (verdict.empty()) continue;
    const std::string line = fmt::format("schedule #{} of the model's best: {}", i + 1, verdict);
    std::cerr << "[candor] " << line << "\n";
    failures += (failures.empty() ? "" : "; ") + line;
    if (!estimates_only && verdict.rfind(kEstimatesOnly, 0) == 0) estimates_only = i;
  }
  const std::optional<size_t> passed = checks.passed();  // the first correct at every size
  const std::string where = sizes.size() > 1 ? fmt::format(" at the estimates and {} other sizes", sizes.size() - 1)
                                             : " at the estimates";
  // A schedule correct at the estimates only gives way to one correct at every size unless
  // that one is predicted more than kSizeRobustness slower.
  constexpr double kSizeRobustness = 1.1;
  if (passed && !(estimates_only && *estimates_only < *passed &&
                  schedules[*passed].predicted_seconds >
                      kSizeRobustness * schedules[*estimates_only].predicted_seconds)) {
    pick.index = *passed;
    pick.note = *passed == 0 ? "verified on synthetic inputs" + where
                             : fmt::format("verified on synthetic inputs{}: schedule #{} of the model's best, the "
                                           "ones before it failed", where, *passed + 1);
    return pick;
  }
  if (estimates_only) {  // better than the reference schedule, out of time or not
    pick.index = *estimates_only;
    const std::string fails = pick.verdicts[*estimates_only].substr(std::strlen(kEstimatesOnly));
    const std::string robust =
        passed ? fmt::format("; schedule #{}, correct at every size, is predicted {:.2f}x slower", *passed + 1,
                             schedules[*passed].predicted_seconds / schedules[*estimates_only].predicted_seconds)
               : "";
    std::cerr << fmt::format("[candor] warning: emitting schedule #{}, correct at the estimates, which {}{} (a "
                             "schedule for other sizes needs estimates at them)\n", *estimates_only + 1, fails, robust);
    pick.note = fmt::format("verified on synthetic inputs at the estimates only: schedule #{} of the model's best, "
                            "which {}{}", *estimates_only + 1, fails, robust);
    return pick;
  }
  if (checks.out_of_time) {
    pick.note = fmt::format("the budget ran out while verifying the model's best schedules ({} failed before)",
                            checks.verdicts.size());
  } else if (!checks.unchecked.empty()) {
    pick.index = 0;
    pick.note = "not verified: the reference outputs could not be read (" + checks.unchecked + ")";
  } else {
    pick.note = fmt::format("none of the model's {} best schedules matched the reference on synthetic inputs ({})",
                            count, failures);
  }
  return pick;
}

// A C++ identifier from Func names: what is not a letter, digit or '_' becomes '_'.
std::string identifier(const std::string& name) {
  std::string id = name;
  for (char& c : id)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return id;
}

// CANDOR_TOP: the model's best schedules, each as a header like the one the generator's
// `-e schedule` writes (a function apply_schedule_STEM_top<i>(pipeline, target)), and an index
// STEM.top.json of their predictions and verdicts. STEM names the pipeline's outputs.
void write_top_schedules(const Halide::Pipeline& pipeline, const hb::KernelDescription& kd,
                         const std::vector<PricedSchedule>& choices, const Pick& pick, const PluginOptions& options,
                         const std::string& machine_params) {
  std::string stem;
  for (const std::string& o : kd.outputs) stem += (stem.empty() ? "" : "_") + identifier(o);
  std::error_code ec;
  std::filesystem::create_directories(options.top_dir, ec);
  nlohmann::json index = nlohmann::json::array();
  for (size_t i = 0; i < choices.size() && i < size_t(options.top); ++i) {
    const PricedSchedule& c = choices[i];
    const std::string verdict = i < pick.verdicts.size()
                                    ? (pick.verdicts[i].empty() ? "matches the reference" : pick.verdicts[i])
                                    : (options.verify ? "not checked (out of time)" : "not checked (CANDOR_VERIFY=0)");
    const std::string comment =
        fmt::format("// candor schedule #{} of the model's best for {}: predicted {:.4f} ms, lower bound {:.4f} ms\n"
                    "// on synthetic inputs: {}\n",
                    i + 1, stem, c.predicted_seconds * 1e3, c.lower_bound_seconds * 1e3, verdict);
    const std::string function = fmt::format("apply_schedule_{}_top{}", stem, i + 1);
    const std::string guard = fmt::format("{}_TOP{}_SCHEDULE_H", stem, i + 1);
    std::string body = schedule_source(pipeline, hb::print_schedule(c.schedule, kd), comment), indented;
    for (size_t at = 0; at < body.size();) {
      const size_t end = std::min(body.find('\n', at), body.size());
      indented += "    " + body.substr(at, end - at) + "\n";
      at = end + 1;
    }
    const std::string header = fmt::format(
        "#ifndef {0}\n#define {0}\n\n// MACHINE GENERATED by the Candor autoscheduler (CANDOR_TOP)\n"
        "// with machine_params={1}\n\n#include \"Halide.h\"\n\ninline void {2}(\n    ::Halide::Pipeline pipeline,\n"
        "    ::Halide::Target target\n) {{\n{3}}}\n\n#endif  // {0}\n",
        guard, machine_params, function, indented);
    const std::string file = fmt::format("{}.top{}.schedule.h", stem, i + 1);
    std::string error;
    if (!support::write_file_atomically((options.top_dir / file).string(), header, error))
      throw std::runtime_error("CANDOR_TOP: " + error);
    index.push_back({{"rank", i + 1},
                     {"file", file},
                     {"function", function},
                     {"predicted_ms", c.predicted_seconds * 1e3},
                     {"lower_bound_ms", c.lower_bound_seconds * 1e3},
                     {"verified", i < pick.verdicts.size() && pick.verdicts[i].empty()},
                     {"verdict", verdict},
                     {"emitted", pick.index && *pick.index == i}});
  }
  std::string error;
  const std::filesystem::path path = options.top_dir / (stem + ".top.json");
  if (!support::write_file_atomically(path.string(), index.dump(2) + "\n", error))
    throw std::runtime_error("CANDOR_TOP: " + error);
  std::cerr << fmt::format("[candor] CANDOR_TOP: the {} best schedules written to {}\n", index.size(),
                           options.top_dir.string());
}

void run_candor(const Halide::Pipeline& pipeline, const Halide::Target& target,
                const Halide::MachineParams& params, Halide::AutoSchedulerResults* results) {
  const auto start = Clock::now();
  const PluginOptions options = read_plugin_options(plugin_directory());

  if (target.has_gpu_feature()) {
    std::cerr << "[candor] warning: target " << target.to_string()
              << " has a GPU feature, but the plugin schedules for the CPU only (the pipeline will run on the host)\n";
  }
  hb::KernelDescription kd = hb::describe_pipeline(pipeline, target);
  const models::halide::MachineDescription machine = models::halide::load_or_calibrate(
      options.machine_path, {},
      options.machine_named ? models::halide::IfUnusable::Fail : models::halide::IfUnusable::Recalibrate);
  // Past kWholeSearchFuncs Funcs (and without pins, which name choices of the whole space),
  // the pipeline is searched in groups.
  std::optional<KernelScheduler> whole;
  if (kd.funcs.size() <= kWholeSearchFuncs || !options.pins.empty()) whole.emplace(kd, machine, options.pins);
  std::string not_verified = "not verified (CANDOR_VERIFY=0)";
  std::optional<Halide::Target> checked_target;
  if (options.verify) {
    std::string why_not;
    checked_target = verification_target(target, why_not);
    if (!checked_target) not_verified = "not verified: " + why_not;
  }
  // Forked before the search starts its threads.
  std::optional<BackgroundReference> background;
  if (checked_target) background.emplace(pipeline, kd, *checked_target);

  // The budget's time counts from the plugin's start: describing, searching and verifying.
  const bool timed = options.budget.seconds < std::numeric_limits<double>::infinity();
  constexpr double kYear = 3.2e7;  // beyond it, a time point would overflow: no deadline
  const auto deadline = timed && options.budget.seconds < kYear
                            ? start + std::chrono::duration_cast<Clock::duration>(
                                          std::chrono::duration<double>(options.budget.seconds))
                            : Clock::time_point::max();
  Budget budget = options.budget;
  double completion_seconds = std::numeric_limits<double>::infinity();
  if (timed) {
    const double left = std::max(0.0, seconds_until(deadline));
    budget.seconds = std::max(0.01, (background ? kSearchShare : 1.0) * left);
    completion_seconds = std::max(budget.seconds, (background ? kCompletionShare : 1.0) * left);
  }
  if (options.verify) budget.keep_top = std::max(budget.keep_top, kCheckedSchedules);
  budget.keep_top = std::max(budget.keep_top, options.top);
  std::string outputs;
  for (const std::string& o : kd.outputs) outputs += (outputs.empty() ? "" : ", ") + o;
  // Progress from the first second: what is scheduled and for how long, then the search's
  // state every 10 s (every 2 s with CANDOR_VERBOSE), as plain lines: builds log them.
  std::cerr << fmt::format("[candor] {}: {} Funcs described in {:.1f} s; searching ({}) for {}{}\n", outputs,
                           kd.funcs.size(), std::chrono::duration<double>(Clock::now() - start).count(),
                           options.search, timed ? fmt::format("{:.1f} s", budget.seconds) : "its node limit",
                           background ? ", then verifying" : "");
  auto line = std::make_shared<support::ProgressLine>("candor", std::cerr, support::ProgressLine::Mode::Plain,
                                                      options.verbose ? 2 : 10);
  budget.progress = [line, limits = budget](const SearchStats& stats, double best) {
    line->update(limits.share_spent(stats),
                 fmt::format("search: {} nodes expanded, {}", stats.expanded,
                             best < std::numeric_limits<double>::infinity()
                                 ? fmt::format("best predicted {:.4f} ms", best * 1e3)
                                 : std::string("no complete schedule yet")));
  };

  // The model's best schedules, best first, and how the search found them.
  std::vector<PricedSchedule> choices;
  std::string searched;
  Pick pick;
  try {
    if (whole) {
      const ScheduleOutcome outcome = whole->search(options.search, budget, completion_seconds);
      for (const ScheduledCandidate& c : outcome.candidates)
        choices.push_back({c.schedule, c.predicted_seconds, c.lower_bound_seconds});
      std::string how;
      if (outcome.optimal) how = ", optimal for the model";
      if (outcome.completed_past_time_limit) how = ", completed by a greedy dive past the search's share of the time";
      searched = fmt::format("{} in {:.1f} s ({} nodes expanded{})", options.search, outcome.stats.seconds,
                             outcome.stats.expanded, how);
    } else {
      const GroupedOutcome outcome =
          schedule_in_groups(kd, machine, options.search, budget, completion_seconds, kGroupFuncs);
      choices = outcome.schedules;
      searched = fmt::format("{} in {} groups of at most {} Funcs, {:.1f} s ({} nodes expanded{})", options.search,
                             outcome.groups, kGroupFuncs, outcome.stats.seconds, outcome.stats.expanded,
                             outcome.groups_at_reference
                                 ? fmt::format("; {} found nothing in time and took the reference schedule",
                                               outcome.groups_at_reference)
                                 : "");
    }
  } catch (const std::runtime_error& e) {
    pick.note = e.what();
  }
  if (!choices.empty()) {
    pick = background ? verified_pick(pipeline, kd, *checked_target, *background, choices, size_t(options.top), deadline)
                      : Pick{0, not_verified, {}};
  }

  // With no pick, the reference schedule: what the picks are checked against, so it needs
  // no check of its own.
  const hb::Schedule emitted = pick.index ? choices[*pick.index].schedule : hb::reference_schedule(kd);
  hb::apply_schedule(emitted, kd, pipeline.outputs());
  const std::string printed = hb::print_schedule(emitted, kd);

  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::string summary;
  if (pick.index) {
    const PricedSchedule& best = choices[*pick.index];
    summary = fmt::format("{}: predicted {:.4f} ms, lower bound {:.4f} ms; {}", searched,
                          best.predicted_seconds * 1e3, best.lower_bound_seconds * 1e3, pick.note);
  } else {
    summary = "the reference schedule (every Func at the root, outer loops parallel)";
    std::cerr << "[candor] warning: " << pick.note << "; emitting the reference schedule"
              << (timed ? " (a larger CANDOR_BUDGET leaves more time to search and verify)" : "") << "\n";
  }
  const std::string comment = fmt::format(
      "// candor schedule of {} ({} Funcs)\n// search {}\n// machine description {}\n", outputs,
      kd.funcs.size(), summary, options.machine_path);

  results->scheduler_name = "Candor";
  results->target = target;
  results->machine_params_string = params.to_string();
  results->schedule_source = schedule_source(pipeline, printed, comment);
  if (options.top > 0) write_top_schedules(pipeline, kd, choices, pick, options, results->machine_params_string);

  std::cerr << fmt::format("[candor] {}: {} (plugin total {:.1f} s)\n", outputs, summary, seconds);
  if (options.verbose) std::cerr << results->schedule_source;
}

// The function registered with Halide: every failure becomes a Halide user error (an
// exception the generator reports: "Error: Candor autoscheduler: ..."), never a crash.
struct CandorAutoscheduler {
  void operator()(const Halide::Pipeline& pipeline, const Halide::Target& target,
                  const Halide::MachineParams& params, Halide::AutoSchedulerResults* results) const {
    std::string failure;
    try {
      run_candor(pipeline, target, params, results);
      return;
    } catch (const Halide::Error& e) {
      failure = e.what();
    } catch (const std::exception& e) {
      failure = e.what();
    }
    // Halide's user_error (which Halide.h does not export by that name): reported through
    // the compile-time error reporter, then thrown as Halide::CompileError.
    Halide::Internal::ErrorReport(__FILE__, __LINE__, nullptr, Halide::Internal::ErrorReport::User)
        << "Candor autoscheduler: " << failure;
  }
};

// Also as "autoschedule_candor": Halide's add_halide_library(... AUTOSCHEDULER NS::NAME)
// passes `-s NAME`, and the installed package's target is Candor::autoschedule_candor.
struct RegisterCandor {
  RegisterCandor() {
    Halide::Pipeline::add_autoscheduler("Candor", CandorAutoscheduler());
    Halide::Pipeline::add_autoscheduler("autoschedule_candor", CandorAutoscheduler());
  }
} register_candor;

}  // namespace
}  // namespace candor::scheduler
