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

// Every loop of every stage after its splits, by (func, stage) and loop name.
using LoopTable = std::map<std::pair<std::string, int>, std::map<std::string, VarRef>>;

LoopTable loop_table(const Schedule& schedule, const KernelDescription& kd) {
  LoopTable t;
  for (const FuncInfo& f : kd.funcs) {
    auto fs = schedule.funcs.find(f.name);
    for (const StageInfo& st : f.stages) {
      StageSchedule ss;
      if (fs != schedule.funcs.end() && st.index < int(fs->second.stages.size()))
        ss = fs->second.stages[st.index];
      t[{f.name, st.index}];  // a stage without loops (an extern stage) has an empty table
      // Loops split away are named by the splits too: record the nest after each split.
      for (size_t k = 0; k <= ss.splits.size(); ++k) {
        StageSchedule prefix;
        prefix.splits.assign(ss.splits.begin(), ss.splits.begin() + k);
        for (const ScheduledLoop& l : scheduled_loops(st, prefix))
          t[{f.name, st.index}][l.var] = VarRef{l.var, l.is_rvar, l.arg_index, l.rvar_index, l.same_in_halide};
      }
      scheduled_loops(st, ss);  // reports bad orders and annotations
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
  return it->second;
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
      auto ref = [&](const std::string& v) {
        auto l = loops.find(v);
        if (l == loops.end())
          throw BridgeError("schedule of " + stage_label(f.name, stage) + " names unknown loop '" + v + "'");
        return l->second;
      };
      for (const Split& sp : ss.splits) {
        Directive d = make(Op::Split, f.name, stage, {ref(sp.var), ref(sp.outer), ref(sp.inner)});
        d.factor = sp.factor;
        d.tail = sp.tail;
        out.push_back(d);
      }
      if (ss.order.size() >= 2) {  // one loop has one order (and reorder(x) is not valid C++)
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

// The Halide loop `v` of stage `stage` of `f`.
Halide::VarOrRVar to_halide(const VarRef& v, const Halide::Func& f, int stage) {
  if (v.arg_index >= 0) return f.args().at(v.arg_index);
  if (v.rvar_index >= 0) return f.rvars(stage - 1).at(v.rvar_index);
  return Halide::VarOrRVar(v.name, v.is_rvar);
}

// Loop-level operations exist with the same signatures on Func (stage 0) and Stage.
template <typename S>
void apply_stage_op(S&& s, const Directive& d, const Halide::Func& f) {
  std::vector<Halide::VarOrRVar> v;
  for (const VarRef& r : d.vars) v.push_back(to_halide(r, f, d.stage));
  switch (d.op) {
    case Op::Split: s.split(v[0], v[1], v[2], d.factor, d.tail); break;
    case Op::Reorder: s.reorder(v); break;
    case Op::Parallel: s.parallel(v[0]); break;
    case Op::Vectorize: s.vectorize(v[0]); break;
    case Op::Unroll: s.unroll(v[0]); break;
    case Op::GpuBlocks:
      if (v.size() == 1) s.gpu_blocks(v[0]);
      if (v.size() == 2) s.gpu_blocks(v[0], v[1]);
      if (v.size() == 3) s.gpu_blocks(v[0], v[1], v[2]);
      break;
    case Op::GpuThreads:
      if (v.size() == 1) s.gpu_threads(v[0]);
      if (v.size() == 2) s.gpu_threads(v[0], v[1]);
      if (v.size() == 3) s.gpu_threads(v[0], v[1], v[2]);
      break;
    default: throw BridgeError("not a loop directive");
  }
  if ((d.op == Op::GpuBlocks || d.op == Op::GpuThreads) && (v.empty() || v.size() > 3))
    throw BridgeError("GPU loops of " + stage_label(d.func, d.stage) + ": 1 to 3 per kind, got " +
                      std::to_string(v.size()));
}

const Halide::Func& func_named(const std::map<std::string, Halide::Func>& funcs, const std::string& name) {
  auto it = funcs.find(name);
  if (it == funcs.end()) throw BridgeError("schedule names Func '" + name + "', which is not in the pipeline");
  return it->second;
}

void apply_one(const Directive& d, const std::map<std::string, Halide::Func>& funcs) {
  Halide::Func f = func_named(funcs, d.func);
  auto level = [&] {
    const Halide::Func& at = func_named(funcs, d.at_func);
    // No stage index: Halide 14 rejects explicit ones as invalid locations; without one it
    // finds the stage that reads the Func (the validator ensures there is exactly one).
    return Halide::LoopLevel(at, to_halide(d.at_var, at, d.at_stage));
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
        apply_stage_op(f, d, f);
      else
        apply_stage_op(f.update(d.stage - 1), d, f);
  }
}

// C++ identifiers for Funcs and loops ("r$x" -> "r_x"), unique within one printout.
// Keys say what is named ("F:blur", "V:x"); hints say what the identifier should look like.
class Namer {
 public:
  Namer() { taken_ = {"funcs", "Halide", "int", "float", "double", "char", "auto", "do", "if", "for"}; }
  const std::string& id(const std::string& key, const std::string& hint) {
    auto it = ids_.find(key);
    if (it != ids_.end()) return it->second;
    std::string base;
    for (char c : hint) base += (std::isalnum((unsigned char)c) || c == '_') ? c : '_';
    if (base.empty() || std::isdigit((unsigned char)base[0])) base = "_" + base;
    std::string cand = base;
    for (int k = 2; taken_.count(cand); ++k) cand = base + "_" + std::to_string(k);
    taken_.insert(cand);
    return ids_[key] = cand;
  }
  const std::string& func(const std::string& name) { return id("F:" + name, name); }

 private:
  std::set<std::string> taken_;
  std::map<std::string, std::string> ids_;
};

std::string stage_expr(Namer& n, const std::string& func, int stage) {
  return stage == 0 ? n.func(func) : n.func(func) + ".update(" + std::to_string(stage - 1) + ")";
}

// Loops whose Halide name is known are shared between stages; the others are found by
// position in one Func, so they are distinct per (func, stage).
std::string var_key(const VarRef& v, const std::string& func, int stage) {
  if (v.same_in_halide) return "V:" + v.name;
  return "V:" + func + "/" + std::to_string(stage) + "/" + v.name;
}

const std::string& var_id(Namer& n, const VarRef& v, const std::string& func, int stage) {
  return n.id(var_key(v, func, stage), v.name);
}

std::string var_list(Namer& n, const std::vector<VarRef>& vs, const std::string& func, int stage) {
  std::string s;
  for (size_t i = 0; i < vs.size(); ++i) s += (i ? ", " : "") + var_id(n, vs[i], func, stage);
  return s;
}

std::string statement(Namer& n, const Directive& d) {
  auto level = [&] {
    return n.func(d.at_func) + ", " + var_id(n, d.at_var, d.at_func, d.at_stage);
  };
  const std::string f = n.func(d.func);
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
      return s + ".split(" + var_list(n, d.vars, d.func, d.stage) + ", " + std::to_string(d.factor) +
             ", Halide::TailStrategy::" + to_string(d.tail) + ");";
    case Op::Reorder: return s + ".reorder(" + var_list(n, d.vars, d.func, d.stage) + ");";
    case Op::Parallel: return s + ".parallel(" + var_list(n, d.vars, d.func, d.stage) + ");";
    case Op::Vectorize: return s + ".vectorize(" + var_list(n, d.vars, d.func, d.stage) + ");";
    case Op::Unroll: return s + ".unroll(" + var_list(n, d.vars, d.func, d.stage) + ");";
    case Op::GpuBlocks: return s + ".gpu_blocks(" + var_list(n, d.vars, d.func, d.stage) + ");";
    case Op::GpuThreads: return s + ".gpu_threads(" + var_list(n, d.vars, d.func, d.stage) + ");";
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
  std::ostringstream decls, body;
  std::set<std::string> declared;
  auto declare_func = [&](const std::string& f) {
    if (declared.insert("F:" + f).second)
      decls << "    Halide::Func " << n.func(f) << " = funcs.at(\"" << f << "\");\n";
  };
  auto declare_var = [&](const VarRef& v, const std::string& f, int stage) {
    if (!declared.insert(var_key(v, f, stage)).second) return;
    const std::string& id = var_id(n, v, f, stage);
    const char* type = v.is_rvar ? "Halide::RVar " : "Halide::Var ";
    if (v.arg_index >= 0 && !v.same_in_halide)
      decls << "    " << type << id << " = " << n.func(f) << ".args()[" << v.arg_index << "];\n";
    else if (v.rvar_index >= 0)
      decls << "    " << type << id << " = " << n.func(f) << ".rvars(" << stage - 1 << ")[" << v.rvar_index
            << "];\n";
    else
      decls << "    " << type << id << "(\"" << v.name << "\");\n";
  };
  for (const Directive& d : directives) {
    declare_func(d.func);
    if (d.op == Op::ComputeAt || d.op == Op::StoreAt) declare_func(d.at_func);
  }
  for (const Directive& d : directives) {
    for (const VarRef& v : d.vars) declare_var(v, d.func, d.stage);
    if (d.op == Op::ComputeAt || d.op == Op::StoreAt) declare_var(d.at_var, d.at_func, d.at_stage);
    body << "    " << statement(n, d) << "\n";
  }
  return "{\n" + decls.str() + body.str() + "}\n";
}

void apply_schedule(const Schedule& schedule, const KernelDescription& kd,
                    const std::vector<Halide::Func>& outputs) {
  apply_directives(lower(schedule, kd), pipeline_funcs(outputs));
}

std::string print_schedule(const Schedule& schedule, const KernelDescription& kd) {
  return print_directives(lower(schedule, kd));
}

}  // namespace candor::halide_bridge
