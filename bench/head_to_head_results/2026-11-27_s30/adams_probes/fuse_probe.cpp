// Probe (stop 30): each schedule of FILE (candor JSON, one a line) timed side by side with the
// same schedule with loops INNER and OUTER of FUNC's pure stage fused into one parallel loop;
// Funcs computed or stored at either move to the fused loop. Prints, per instance, verified,
// ratio to the first instance, median ms. Built by run.sh.
//   fuse_probe APP FILE FUNC INNER OUTER
#include <fstream>
#include <iostream>
#include "apps.h"
#include "halide_bridge/compile.h"
#include "halide_bridge/kernel_description.h"
#include "halide_bridge/schedule.h"
#include "halide_bridge/timing_lock.h"
namespace hb = candor::halide_bridge;
int main(int argc, char** argv) {
  if (argc != 6) {
    std::cerr << "usage: fuse_probe APP FILE FUNC INNER OUTER\n";
    return 2;
  }
  const hb::App* app = candor::apps::find_app(argv[1]);
  const Halide::Target target = hb::host_target();
  hb::set_jit_threads(0, target);
  const hb::KernelDescription kd = hb::describe_app(app->build(), target);
  const hb::Outputs ref = hb::reference_outputs(*app, target);
  std::ifstream in(argv[2]);
  std::string line;
  std::vector<hb::AppInstance> insts;
  while (std::getline(in, line)) {
    hb::Schedule s = nlohmann::json::parse(line).get<hb::Schedule>();
    for (int fuse = 0; fuse < 2; ++fuse) {
      hb::AppInstance inst;
      std::string step, err;
      if (!hb::scheduled_instance(*app, s, kd, target, inst, step, err)) { std::cerr << err << "\n"; return 1; }
      if (fuse) {
        Halide::Func f = inst.funcs.at(argv[3]);
        Halide::Var t("fused_t");
        f.fuse(Halide::Var(argv[4]), Halide::Var(argv[5]), t).parallel(t);
        for (const auto& [name, fs] : s.funcs) {
          auto moved = [&](const hb::Location& l) {
            return l.kind == hb::Location::Kind::At && l.func == argv[3] && (l.var == argv[4] || l.var == argv[5]);
          };
          if (moved(fs.compute)) inst.funcs.at(name).compute_at(f, t);
          if (fs.store && moved(*fs.store)) inst.funcs.at(name).store_at(f, t);
        }
      }
      insts.push_back(std::move(inst));
    }
  }
  std::vector<const hb::AppInstance*> p;
  for (auto& i : insts) p.push_back(&i);
  hb::RunOptions o; o.min_timed_seconds = 3; o.timing_lock = hb::default_timing_lock_path();
  for (const auto& r : hb::evaluate_instances_interleaved(p, ref, target, o))
    std::cout << r.ok << " " << r.ratio_to_first << " " << r.median_ms << " " << r.error.substr(0, 200) << "\n";
}
