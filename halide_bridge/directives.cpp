#include "directives.h"

#include <set>
#include <sstream>

namespace candor::halide_bridge {

namespace {

using Op = Directive::Op;

Directive make(Op op, const std::string& func, int stage, std::vector<VarRef> vars = {}) {
  Directive d;
  d.op = op;
  d.func = func;
  d.stage = stage;
  d.vars = std::move(vars);
  return d;
}

std::string stage_label(const std::string& func, int stage) {
  return stage == 0 ? func : func + ".update(" + std::to_string(stage - 1) + ")";
}

// Loop name -> is RVar, for every loop of every stage after its splits.
using LoopTable = std::map<std::pair<std::string, int>, std::map<std::string, bool>>;

LoopTable loop_table(const Schedule& schedule, const KernelDescription& kd) {
  LoopTable t;
  for (const FuncInfo& f : kd.funcs) {
    auto fs = schedule.funcs.find(f.name);
    for (const StageInfo& st : f.stages) {
      StageSchedule ss;
      if (fs != schedule.funcs.end() && st.index < int(fs->second.stages.size()))
        ss = fs->second.stages[st.index];
      for (const ScheduledLoop& l : scheduled_loops(st, ss))
        t[{f.name, st.index}][l.var] = l.is_rvar;
    }
  }
  return t;
}

VarRef loop_ref(const LoopTable& t, const std::string& func, int stage, const std::string& var,
                const std::string& context) {
  auto st = t.find({func, stage});
  if (st == t.end())
    throw BridgeError(context + ": no stage " + stage_label(func, stage) + " in the pipeline");
  auto it = st->second.find(var);
  if (it == st->second.end())
    throw BridgeError(context + ": " + stage_label(func, stage) + " has no loop '" + var + "'");
  return VarRef{var, it->second};
}

void lower_location(std::vector<Directive>& out, const LoopTable& t, const std::string& func,
                    const Location& loc, bool store) {
  Directive d;
  d.func = func;
  const std::string what = (store ? "store location of '" : "compute location of '") + func + "'";
  switch (loc.kind) {
    case Location::Kind::Inline:
      if (store) throw BridgeError(what + " cannot be inline");
      d.op = Op::ComputeInline;
      break;
    case Location::Kind::Root:
      d.op = store ? Op::StoreRoot : Op::ComputeRoot;
      break;
    case Location::Kind::At:
      d.op = store ? Op::StoreAt : Op::ComputeAt;
      d.at_func = loc.func;
      d.at_stage = loc.stage;
      d.at_var = loop_ref(t, loc.func, loc.stage, loc.var, what);
      break;
  }
  out.push_back(d);
}

}  // namespace

std::vector<Directive> lower(const Schedule& schedule, const KernelDescription& kd) {
  for (const auto& [name, fs] : schedule.funcs) {
    const FuncInfo* f = kd.find_func(name);
    if (!f) throw BridgeError("schedule names Func '" + name + "', which is not in the pipeline");
    if (fs.stages.size() > f->stages.size())
      throw BridgeError("schedule of '" + name + "' has " + std::to_string(fs.stages.size()) +
                        " stages; the Func has " + std::to_string(f->stages.size()));
  }
  const LoopTable table = loop_table(schedule, kd);
  std::vector<Directive> out;
  // Producers first, so the printed source reads in pipeline order.
  for (const FuncInfo& f : kd.funcs) {
    auto it = schedule.funcs.find(f.name);
    if (it == schedule.funcs.end()) continue;
    const FuncSchedule& fs = it->second;
    for (size_t s = 0; s < fs.stages.size(); ++s) {
      const StageSchedule& ss = fs.stages[s];
      const int stage = int(s);
      const auto& loops = table.at({f.name, stage});
      auto ref = [&](const std::string& v) { return VarRef{v, loops.at(v)}; };
      for (const Split& sp : ss.splits) {
        Directive d = make(Op::Split, f.name, stage, {ref(sp.var), ref(sp.outer), ref(sp.inner)});
        d.factor = sp.factor;
        d.tail = sp.tail;
        out.push_back(d);
      }
      if (!ss.order.empty()) {
        Directive d = make(Op::Reorder, f.name, stage);
        for (const std::string& v : ss.order) d.vars.push_back(ref(v));
        out.push_back(d);
      }
      // Annotations innermost first, GPU block and thread loops grouped into one call.
      Directive blocks = make(Op::GpuBlocks, f.name, stage), threads = make(Op::GpuThreads, f.name, stage);
      StageInfo st = f.stages[s];
      for (const ScheduledLoop& l : scheduled_loops(st, ss)) {
        switch (l.annotation) {
          case LoopAnnotation::Serial: break;
          case LoopAnnotation::Parallel: out.push_back(make(Op::Parallel, f.name, stage, {ref(l.var)})); break;
          case LoopAnnotation::Vectorized: out.push_back(make(Op::Vectorize, f.name, stage, {ref(l.var)})); break;
          case LoopAnnotation::Unrolled: out.push_back(make(Op::Unroll, f.name, stage, {ref(l.var)})); break;
          case LoopAnnotation::GpuBlock: blocks.vars.push_back(ref(l.var)); break;
          case LoopAnnotation::GpuThread: threads.vars.push_back(ref(l.var)); break;
        }
      }
      if (!blocks.vars.empty()) out.push_back(blocks);
      if (!threads.vars.empty()) out.push_back(threads);
    }
    if (!f.is_output) {
      lower_location(out, table, f.name, fs.compute, false);
      if (fs.store) lower_location(out, table, f.name, *fs.store, true);
    } else if (fs.compute.kind != Location::Kind::Root) {
      throw BridgeError("output '" + f.name + "' must be computed at the root");
    }
    if (fs.memory != Halide::MemoryType::Auto) {
      Directive d = make(Op::StoreIn, f.name, 0);
      d.memory = fs.memory;
      out.push_back(d);
    }
  }
  return out;
}

namespace {

Halide::VarOrRVar to_halide(const VarRef& v) { return Halide::VarOrRVar(v.name, v.is_rvar); }

std::vector<Halide::VarOrRVar> to_halide(const std::vector<VarRef>& vs) {
  std::vector<Halide::VarOrRVar> r;
  for (const VarRef& v : vs) r.push_back(to_halide(v));
  return r;
}

// Loop-level operations exist with the same signatures on Func (stage 0) and Stage.
template <typename S>
void apply_stage_op(S&& s, const Directive& d) {
  const auto& v = d.vars;
  switch (d.op) {
    case Op::Split: s.split(to_halide(v[0]), to_halide(v[1]), to_halide(v[2]), d.factor, d.tail); break;
    case Op::Reorder: s.reorder(to_halide(v)); break;
    case Op::Parallel: s.parallel(to_halide(v[0])); break;
    case Op::Vectorize: s.vectorize(to_halide(v[0])); break;
    case Op::Unroll: s.unroll(to_halide(v[0])); break;
    case Op::GpuBlocks:
    case Op::GpuThreads: {
      const bool b = d.op == Op::GpuBlocks;
      if (v.size() == 1) b ? (void)s.gpu_blocks(to_halide(v[0])) : (void)s.gpu_threads(to_halide(v[0]));
      if (v.size() == 2)
        b ? (void)s.gpu_blocks(to_halide(v[0]), to_halide(v[1]))
          : (void)s.gpu_threads(to_halide(v[0]), to_halide(v[1]));
      if (v.size() == 3)
        b ? (void)s.gpu_blocks(to_halide(v[0]), to_halide(v[1]), to_halide(v[2]))
          : (void)s.gpu_threads(to_halide(v[0]), to_halide(v[1]), to_halide(v[2]));
      if (v.empty() || v.size() > 3)
        throw BridgeError("GPU " + std::string(b ? "block" : "thread") + " loops of " +
                          stage_label(d.func, d.stage) + ": 1 to 3 loops, got " + std::to_string(v.size()));
      break;
    }
    default: throw BridgeError("not a loop directive");
  }
}

const Halide::Func& func_named(const std::map<std::string, Halide::Func>& funcs, const std::string& name) {
  auto it = funcs.find(name);
  if (it == funcs.end()) throw BridgeError("schedule names Func '" + name + "', which is not in the pipeline");
  return it->second;
}

void apply_one(const Directive& d, const std::map<std::string, Halide::Func>& funcs) {
  Halide::Func f = func_named(funcs, d.func);
  auto level = [&] {
    return Halide::LoopLevel(func_named(funcs, d.at_func), to_halide(d.at_var), d.at_stage);
  };
  switch (d.op) {
    case Op::ComputeInline: f.compute_inline(); break;
    case Op::ComputeRoot: f.compute_root(); break;
    case Op::ComputeAt: f.compute_at(level()); break;
    case Op::StoreRoot: f.store_root(); break;
    case Op::StoreAt: f.store_at(level()); break;
    case Op::StoreIn: f.store_in(d.memory); break;
    default:
      if (d.stage == 0)
        apply_stage_op(f, d);
      else
        apply_stage_op(f.update(d.stage - 1), d);
  }
}

// C++ identifiers for Func and loop names ("r$x" -> "r_x"), unique within one printout.
class Namer {
 public:
  Namer() { taken_ = {"funcs", "Halide", "int", "float", "double", "char", "auto", "do", "if", "for"}; }
  const std::string& id(const std::string& name) {
    auto it = ids_.find(name);
    if (it != ids_.end()) return it->second;
    std::string base;
    for (char c : name) base += (std::isalnum((unsigned char)c) || c == '_') ? c : '_';
    if (base.empty() || std::isdigit((unsigned char)base[0])) base = "_" + base;
    std::string cand = base;
    for (int k = 2; taken_.count(cand); ++k) cand = base + "_" + std::to_string(k);
    taken_.insert(cand);
    return ids_[name] = cand;
  }

 private:
  std::set<std::string> taken_;
  std::map<std::string, std::string> ids_;
};

std::string stage_expr(Namer& n, const std::string& func, int stage) {
  return stage == 0 ? n.id(func) : n.id(func) + ".update(" + std::to_string(stage - 1) + ")";
}

std::string var_list(Namer& n, const std::vector<VarRef>& vs) {
  std::string s;
  for (size_t i = 0; i < vs.size(); ++i) s += (i ? ", " : "") + n.id(vs[i].name);
  return s;
}

std::string statement(Namer& n, const Directive& d) {
  auto level = [&] {
    return "Halide::LoopLevel(" + n.id(d.at_func) + ", " + n.id(d.at_var.name) + ", " +
           std::to_string(d.at_stage) + ")";
  };
  const std::string f = n.id(d.func);
  switch (d.op) {
    case Op::ComputeInline: return f + ".compute_inline();";
    case Op::ComputeRoot: return f + ".compute_root();";
    case Op::ComputeAt: return f + ".compute_at(" + level() + ");";
    case Op::StoreRoot: return f + ".store_root();";
    case Op::StoreAt: return f + ".store_at(" + level() + ");";
    case Op::StoreIn: return f + ".store_in(Halide::MemoryType::" + to_string(d.memory) + ");";
    default: break;
  }
  const std::string s = stage_expr(n, d.func, d.stage);
  switch (d.op) {
    case Op::Split:
      return s + ".split(" + var_list(n, d.vars) + ", " + std::to_string(d.factor) +
             ", Halide::TailStrategy::" + to_string(d.tail) + ");";
    case Op::Reorder: return s + ".reorder(" + var_list(n, d.vars) + ");";
    case Op::Parallel: return s + ".parallel(" + var_list(n, d.vars) + ");";
    case Op::Vectorize: return s + ".vectorize(" + var_list(n, d.vars) + ");";
    case Op::Unroll: return s + ".unroll(" + var_list(n, d.vars) + ");";
    case Op::GpuBlocks: return s + ".gpu_blocks(" + var_list(n, d.vars) + ");";
    case Op::GpuThreads: return s + ".gpu_threads(" + var_list(n, d.vars) + ");";
    default: return "";
  }
}

}  // namespace

std::string print_directive(const Directive& d) {
  Namer n;
  return statement(n, d);
}

void apply_directives(const std::vector<Directive>& directives,
                      const std::map<std::string, Halide::Func>& funcs) {
  for (const Directive& d : directives) {
    try {
      apply_one(d, funcs);
    } catch (const Halide::Error& e) {
      throw BridgeError("Halide rejected `" + print_directive(d) + "`: " + e.what());
    }
  }
}

std::string print_directives(const std::vector<Directive>& directives) {
  Namer n;
  std::vector<std::string> func_names, vars, rvars;
  std::set<std::string> seen;
  auto note_func = [&](const std::string& f) {
    if (seen.insert("f:" + f).second) func_names.push_back(f);
  };
  auto note_var = [&](const VarRef& v) {
    if (seen.insert("v:" + v.name).second) (v.is_rvar ? rvars : vars).push_back(v.name);
  };
  for (const Directive& d : directives) {
    note_func(d.func);
    for (const VarRef& v : d.vars) note_var(v);
    if (d.op == Op::ComputeAt || d.op == Op::StoreAt) {
      note_func(d.at_func);
      note_var(d.at_var);
    }
  }
  std::ostringstream os;
  os << "{\n";
  for (const std::string& f : func_names)
    os << "    Halide::Func " << n.id(f) << " = funcs.at(\"" << f << "\");\n";
  for (const std::string& v : vars) os << "    Halide::Var " << n.id(v) << "(\"" << v << "\");\n";
  for (const std::string& v : rvars) os << "    Halide::RVar " << n.id(v) << "(\"" << v << "\");\n";
  for (const Directive& d : directives) os << "    " << statement(n, d) << "\n";
  os << "}\n";
  return os.str();
}

void apply_schedule(const Schedule& schedule, const KernelDescription& kd,
                    const std::vector<Halide::Func>& outputs) {
  apply_directives(lower(schedule, kd), pipeline_funcs(outputs));
}

std::string print_schedule(const Schedule& schedule, const KernelDescription& kd) {
  return print_directives(lower(schedule, kd));
}

}  // namespace candor::halide_bridge
