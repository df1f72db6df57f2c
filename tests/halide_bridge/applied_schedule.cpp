#include "applied_schedule.h"

#include <map>
#include <sstream>

#include "naming.h"

namespace candor::halide_bridge::testing {

namespace HI = Halide::Internal;

namespace {

// Loop names as Halide spells them ("x.x_o", "k$x") -> canonical components.
std::string rename(const std::string& name, const std::map<std::string, std::string>& m) {
  std::string out, part;
  auto flush = [&] {
    auto it = m.find(part);
    out += it == m.end() ? part : it->second;
    part.clear();
  };
  for (char c : name) {
    if (c == '.') {
      flush();
      out += '.';
    } else {
      part += c;
    }
  }
  flush();
  return out;
}

}  // namespace

std::string applied_schedule_text(const std::vector<Halide::Func>& outputs) {
  std::vector<HI::Function> fs;
  for (const Halide::Func& f : outputs) fs.push_back(f.function());
  const PipelineNames names = pipeline_names(fs);
  std::ostringstream os;
  for (const std::string& cname : names.order) {
    const HI::Function& f = names.by_canonical.at(cname);
    std::map<std::string, std::string> vars;
    const auto cargs = canonical_args(f);
    for (size_t i = 0; i < cargs.size(); ++i) vars[f.args()[i]] = cargs[i];
    for (const HI::Definition& u : f.updates())
      for (const HI::ReductionVariable& rv : u.schedule().rvars()) vars[rv.var] = canonical_rvar(rv.var);
    auto level = [&](Halide::LoopLevel l) {
      l.lock();
      if (l.is_inlined()) return std::string("inline");
      if (l.is_root()) return std::string("root");
      auto it = names.canonical.find(l.func());
      const std::string func = it == names.canonical.end() ? l.func() : it->second;
      // The consumer's loop names map through the consumer's own arguments.
      const HI::Function& c = names.by_canonical.at(func);
      std::map<std::string, std::string> cvars;
      const auto ca = canonical_args(c);
      for (size_t i = 0; i < ca.size(); ++i) cvars[c.args()[i]] = ca[i];
      for (const HI::Definition& u : c.updates())
        for (const HI::ReductionVariable& rv : u.schedule().rvars()) cvars[rv.var] = canonical_rvar(rv.var);
      return func + "." + rename(l.var().name(), cvars);
    };
    os << cname << ": compute " << level(f.schedule().compute_level()) << ", store "
       << level(f.schedule().store_level()) << ", memory " << int(f.schedule().memory_type()) << "\n";
    auto stage = [&](const HI::Definition& d, int index) {
      os << "  stage " << index << "\n";
      for (const HI::Split& s : d.schedule().splits())
        os << "    split " << rename(s.old_var, vars) << " -> " << rename(s.outer, vars) << ", "
           << rename(s.inner, vars) << " by " << s.factor << " tail " << int(s.tail) << " type "
           << int(s.split_type) << "\n";
      for (const HI::Dim& dim : d.schedule().dims())
        os << "    loop " << rename(dim.var, vars) << " " << int(dim.for_type) << " " << int(dim.device_api) << "\n";
    };
    stage(f.definition(), 0);
    for (size_t u = 0; u < f.updates().size(); ++u) stage(f.updates()[u], int(u) + 1);
  }
  return os.str();
}

}  // namespace candor::halide_bridge::testing
