#include "kernel_description.h"

#include <algorithm>
#include <set>

#include "naming.h"

namespace candor::halide_bridge {

namespace HI = Halide::Internal;

bool Edge::data_dependent() const {
  return std::any_of(footprint.begin(), footprint.end(), [](const AccessDim& a) { return a.lookup; });
}

bool Edge::irregular() const {
  return std::any_of(footprint.begin(), footprint.end(), [](const AccessDim& a) { return !a.affine; });
}

int64_t StageInfo::points() const {
  int64_t n = 1;
  for (const LoopInfo& l : loops) n *= l.extent;
  return n;
}

const LoopInfo* StageInfo::find_loop(const std::string& var) const {
  for (const LoopInfo& l : loops)
    if (l.var == var) return &l;
  return nullptr;
}

int64_t FuncInfo::points() const {
  int64_t n = 1;
  for (const Range& r : region) n *= r.extent();
  return n;
}

const FuncInfo* KernelDescription::find_func(const std::string& name) const {
  for (const FuncInfo& f : funcs)
    if (f.name == name) return &f;
  return nullptr;
}

const FuncInfo& KernelDescription::func(const std::string& name) const {
  if (const FuncInfo* f = find_func(name)) return *f;
  throw BridgeError("kernel description: no Func named '" + name + "'");
}

const InputInfo* KernelDescription::find_input(const std::string& name) const {
  for (const InputInfo& i : inputs)
    if (i.name == name) return &i;
  return nullptr;
}

std::vector<const Edge*> KernelDescription::edges_into(const std::string& func, int stage) const {
  std::vector<const Edge*> r;
  for (const Edge& e : edges)
    if (e.consumer == func && e.consumer_stage == stage) r.push_back(&e);
  return r;
}

std::vector<const Edge*> KernelDescription::edges_from(const std::string& producer) const {
  std::vector<const Edge*> r;
  for (const Edge& e : edges)
    if (e.producer == producer && e.consumer != producer) r.push_back(&e);
  return r;
}

std::vector<std::vector<char>> KernelDescription::read_paths() const {
  const int n = static_cast<int>(funcs.size());
  std::map<std::string, int> position;
  for (int i = 0; i < n; ++i) position[funcs[i].name] = i;
  std::vector<std::vector<int>> readers(n);
  for (const Edge& e : edges) {
    const auto p = position.find(e.producer), k = position.find(e.consumer);
    if (e.producer_is_input || p == position.end() || k == position.end() || k->second <= p->second) continue;
    readers[p->second].push_back(k->second);
  }
  // Consumers come after their producers: close over readers from the outputs back.
  std::vector<std::vector<char>> paths(n, std::vector<char>(n, 0));
  for (int f = n - 1; f >= 0; --f)
    for (int k : readers[f]) {
      paths[f][k] = 1;
      for (int g = 0; g < n; ++g) paths[f][g] |= paths[k][g];
    }
  return paths;
}

namespace {

std::string stage_name(const std::string& func, int stage) {
  return stage == 0 ? func : func + ".update(" + std::to_string(stage - 1) + ")";
}

// Finds every parameter and constant buffer the pipeline refers to, and builds the
// substitution that replaces them by their estimates (constant buffers by their shape).
class ParamCollector : public HI::IRGraphVisitor {
 public:
  std::map<std::string, HI::Parameter> buffers;
  std::map<std::string, HI::Parameter> scalars;
  std::map<std::string, Halide::Buffer<>> constants;
  std::map<std::string, Halide::Expr> constant_shape;  // "buf.min.0" -> value

 private:
  using HI::IRGraphVisitor::visit;
  void visit(const HI::Variable* op) override {
    if (op->param.defined()) {
      if (op->param.is_buffer())
        buffers[op->param.name()] = op->param;
      else
        scalars[op->param.name()] = op->param;
    } else if (op->image.defined()) {
      for (int d = 0; d < op->image.dimensions(); ++d) {
        std::string p = op->image.name() + ".";
        constant_shape[p + "min." + std::to_string(d)] = op->image.dim(d).min();
        constant_shape[p + "extent." + std::to_string(d)] = op->image.dim(d).extent();
      }
    }
  }
  void visit(const HI::Call* op) override {
    if (op->call_type == HI::Call::Image) {
      if (op->param.defined())
        buffers[op->param.name()] = op->param;
      else if (op->image.defined())
        constants[op->name] = op->image;
    }
    HI::IRGraphVisitor::visit(op);
  }
};

std::optional<int64_t> const_value(const Halide::Expr& e) {
  if (!e.defined()) return std::nullopt;
  Halide::Expr s = HI::simplify(e);
  if (const int64_t* v = HI::as_const_int(s)) return *v;
  if (const uint64_t* u = HI::as_const_uint(s)) return int64_t(*u);
  return std::nullopt;
}

struct CallSite {
  std::vector<Halide::Expr> args;
};

// All call sites of Funcs and images in an expression, by callee name.
class CallCollector : public HI::IRVisitor {
 public:
  std::map<std::string, std::vector<CallSite>> calls;
  std::set<std::string> inputs;

 private:
  using HI::IRVisitor::visit;
  void visit(const HI::Call* op) override {
    if (op->call_type == HI::Call::Halide || op->call_type == HI::Call::Image) {
      calls[op->name].push_back(CallSite{op->args});
      if (op->call_type == HI::Call::Image) inputs.insert(op->name);
    }
    HI::IRVisitor::visit(op);
  }
};

bool is_input_alias(const HI::Function& f) {
  if (f.has_update_definition() || f.values().size() != 1) return false;
  const auto* call = f.values()[0].as<HI::Call>();
  if (!call || call->call_type != HI::Call::Image || !call->param.defined()) return false;
  if (call->args.size() != f.args().size()) return false;
  for (size_t i = 0; i < call->args.size(); ++i) {
    const auto* v = call->args[i].as<HI::Variable>();
    if (!v || v->name != f.args()[i]) return false;
  }
  return true;
}

void unite(std::vector<Range>& into, const std::vector<Range>& r) {
  if (into.empty()) {
    into = r;
    return;
  }
  for (size_t d = 0; d < r.size() && d < into.size(); ++d) {
    into[d].min = std::min(into[d].min, r[d].min);
    into[d].max = std::max(into[d].max, r[d].max);
  }
}

class Describer {
 public:
  Describer(const Halide::Pipeline& p, const Halide::Target& t) : pipeline_(p), target_(t) {}

  KernelDescription run() {
    kd_.target = target_.to_string();
    for (const Halide::Func& f : pipeline_.outputs()) outputs_.push_back(f.function());
    if (outputs_.empty()) throw BridgeError("pipeline has no outputs");
    env_ = HI::build_environment(outputs_);
    names_ = pipeline_names(outputs_);
    order_ = HI::topological_order(outputs_, env_);
    for (const std::string& name : order_) {
      const HI::Function& f = env_.at(name);
      if (!f.has_pure_definition() && !f.has_extern_definition())
        throw BridgeError("Func '" + cname(name) + "' has no definition");
    }
    collect_params();
    set_output_regions();
    func_value_bounds_ = HI::compute_function_value_bounds(order_, env_);
    // Consumers before producers: when a Func is reached, every reader has added its
    // requirement to the Func's region.
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) describe_func(env_.at(*it));
    finish();
    return kd_;
  }

 private:
  const Halide::Pipeline& pipeline_;
  Halide::Target target_;
  KernelDescription kd_;
  std::vector<HI::Function> outputs_;
  std::map<std::string, HI::Function> env_;
  std::vector<std::string> order_;
  std::map<std::string, Halide::Expr> subst_;
  std::map<std::string, std::vector<Range>> required_;  // by Func or input name
  std::map<std::string, FuncInfo> infos_;
  std::map<std::string, InputInfo> inputs_;
  HI::FuncValueBounds func_value_bounds_;
  PipelineNames names_;

  // Canonical name of a Func (by Halide name), or the name itself for inputs.
  std::string cname(const std::string& halide_name) const {
    auto it = names_.canonical.find(halide_name);
    return it == names_.canonical.end() ? halide_name : it->second;
  }

  Halide::Expr prepare(const Halide::Expr& e) const {
    if (!e.defined()) return e;
    return HI::simplify(HI::substitute(subst_, HI::substitute_in_all_lets(e)));
  }

  void collect_params() {
    ParamCollector pc;
    for (const std::string& name : order_) {
      const HI::Function& f = env_.at(name);
      f.accept(&pc);
      if (!f.has_extern_definition()) continue;
      for (const Halide::ExternFuncArgument& a : f.extern_arguments()) {  // buffers handed over whole
        if (a.is_image_param()) pc.buffers[a.image_param.name()] = a.image_param;
        if (a.is_buffer()) pc.constants[a.buffer.name()] = a.buffer;
      }
    }
    for (const auto& [name, p] : pc.scalars) {
      Halide::Expr est = p.estimate();
      if (!est.defined())
        throw BridgeError("scalar parameter '" + name +
                          "' has no estimate (call set_estimate(value) on it)");
      subst_[name] = est;
      std::ostringstream os;
      os << est;
      kd_.scalar_params[name] = os.str();
    }
    for (const auto& [name, p] : pc.buffers) {
      InputInfo in;
      in.name = name;
      in.type = p.type();
      for (int d = 0; d < p.dimensions(); ++d) {
        Halide::Expr mn = p.min_constraint_estimate(d), ex = p.extent_constraint_estimate(d);
        if (!mn.defined() || !ex.defined())
          throw BridgeError("input '" + name + "' has no estimate for dimension " +
                            std::to_string(d) +
                            " (call dim(" + std::to_string(d) +
                            ").set_estimate(min, extent) or set_estimates)");
        auto mv = const_value(mn), ev = const_value(ex);
        if (!mv || !ev)
          throw BridgeError("input '" + name + "' has a non-constant estimate in dimension " +
                            std::to_string(d));
        subst_[name + ".min." + std::to_string(d)] = mn;
        subst_[name + ".extent." + std::to_string(d)] = ex;
        in.estimate.push_back(Range{*mv, *mv + *ev - 1});
      }
      inputs_[name] = in;
    }
    for (const auto& [name, buf] : pc.constants) {
      InputInfo in;
      in.name = name;
      in.type = buf.type();
      in.is_constant = true;
      for (int d = 0; d < buf.dimensions(); ++d)
        in.estimate.push_back(Range{buf.dim(d).min(), buf.dim(d).max()});
      inputs_[name] = in;
    }
    for (const auto& [k, v] : pc.constant_shape) subst_[k] = v;
  }

  void set_output_regions() {
    for (const HI::Function& f : outputs_) {
      const auto& estimates = f.schedule().estimates();
      std::vector<Range> region;
      for (const std::string& arg : f.args()) {
        auto it = std::find_if(estimates.begin(), estimates.end(),
                               [&](const HI::Bound& b) { return b.var == arg; });
        if (it == estimates.end() || !it->min.defined() || !it->extent.defined())
          throw BridgeError("output '" + cname(f.name()) + "' has no estimate for dimension '" + arg +
                            "' (call set_estimate(" + arg + ", min, extent) on it)");
        auto mn = const_value(prepare(it->min)), ex = const_value(prepare(it->extent));
        if (!mn || !ex)
          throw BridgeError("output '" + cname(f.name()) + "' has a non-constant estimate for '" + arg +
                            "'");
        if (*ex <= 0)
          throw BridgeError("output '" + cname(f.name()) + "' has the estimate extent " + std::to_string(*ex) +
                            " for '" + arg + "' (extents are positive)");
        region.push_back(Range{*mn, *mn + *ex - 1});
      }
      unite(required_[f.name()], region);
      kd_.outputs.push_back(cname(f.name()));
    }
  }

  // Every count the models derive from a region (points, bytes, operations) is an int64:
  // a region past 2^48 points (no machine holds it) would overflow them.
  static void check_size(const FuncInfo& info) {
    int64_t points = 1;
    for (const Range& r : info.region) {
      if (r.extent() <= 0 || __builtin_mul_overflow(points, r.extent(), &points) || points > (int64_t(1) << 48))
        throw BridgeError("Func '" + info.name + "' covers more than 2^48 points under the estimates; "
                          "lower the estimates to the sizes the pipeline runs at");
    }
  }

  // The stage's loops (canonical names) and, in `halide_vars`, the names the IR uses.
  std::vector<LoopInfo> stage_loops(const HI::Function& f, int stage, const std::vector<Range>& region,
                                    std::vector<std::string>& halide_vars) const {
    const HI::Definition& def = stage == 0 ? f.definition() : f.update(stage - 1);
    const std::string label = stage_name(cname(f.name()), stage);
    const auto& rvs = def.schedule().rvars();
    const std::vector<std::string> cargs = canonical_args(f);
    std::vector<LoopInfo> loops;
    std::set<std::string> used;
    for (const HI::Dim& d : def.schedule().dims()) {
      if (d.var == Halide::Var::outermost().name()) continue;
      LoopInfo l;
      l.is_rvar = d.is_rvar();
      l.is_pure = d.is_pure();
      if (l.is_rvar) {
        auto it = std::find_if(rvs.begin(), rvs.end(),
                               [&](const HI::ReductionVariable& rv) { return rv.var == d.var; });
        if (it == rvs.end())
          throw BridgeError(label + " is already scheduled (loop '" + d.var +
                            "' is not in its definition); describe an unscheduled pipeline");
        auto mn = const_value(prepare(it->min)), ex = const_value(prepare(it->extent));
        if (!mn || !ex)
          throw BridgeError("RDom variable '" + d.var + "' of " + label +
                            " does not have a constant extent under the estimates");
        l.var = canonical_rvar(d.var);
        l.rvar_index = int(it - rvs.begin());
        l.min = *mn;
        l.extent = *ex;
      } else {
        const auto& args = f.args();
        auto it = std::find(args.begin(), args.end(), d.var);
        if (it == args.end())
          throw BridgeError(label + " is already scheduled (loop '" + d.var +
                            "' is not in its definition); describe an unscheduled pipeline");
        l.arg_index = int(it - args.begin());
        l.var = cargs[l.arg_index];
        l.min = region[l.arg_index].min;
        l.extent = region[l.arg_index].extent();
      }
      l.same_in_halide = l.var == d.var;
      if (!used.insert(l.var).second)
        throw BridgeError(label + ": two loops share the name '" + l.var + "'; name the RDom or Vars");
      halide_vars.push_back(d.var);
      loops.push_back(l);
    }
    return loops;
  }

  std::vector<Range> to_ranges(const HI::Box& box, const std::string& callee,
                               const std::string& consumer) const {
    std::vector<Range> r;
    for (size_t d = 0; d < box.size(); ++d) {
      // A bound may name parameters through a Func's value bounds (an index clamped to
      // `input.width() - 1` inside another Func): their estimates make it a constant.
      auto mn = box[d].has_lower_bound() ? const_value(prepare(box[d].min)) : std::nullopt;
      auto mx = box[d].has_upper_bound() ? const_value(prepare(box[d].max)) : std::nullopt;
      if (!mn || !mx) {
        auto in = inputs_.find(callee);
        if (in != inputs_.end()) {
          // Data-dependent reads of an input: all Halide can promise is the buffer itself.
          r.push_back(in->second.estimate[d]);
          continue;
        }
        throw BridgeError("cannot bound the region of '" + callee + "' read by " + consumer +
                          " in dimension " + std::to_string(d) +
                          " (a data-dependent or unclamped index; Halide's bounds inference cannot bound it "
                          "either: clamp the index)");
      }
      r.push_back(Range{*mn, *mx});
    }
    return r;
  }

  AccessDim footprint_dim(const std::vector<CallSite>& sites, size_t d, const std::vector<std::string>& loop_vars,
                          const VarBounds& bounds, const Range& whole) const {
    AccessDim a;
    a.coeffs.assign(loop_vars.size(), Rational(0));
    bool first = true;
    for (const CallSite& s : sites) {
      auto form = d < s.args.size() ? affine_form(s.args[d], loop_vars, bounds) : std::nullopt;
      if (!form || (!first && form->coeffs != a.coeffs)) {
        // Not one affine map for all call sites: report the absolute region instead.
        a.affine = false;
        a.lookup = !form || std::any_of(sites.begin(), sites.end(), [&](const CallSite& other) {
          return d >= other.args.size() || !affine_form(other.args[d], loop_vars, bounds);
        });
        a.coeffs.assign(loop_vars.size(), Rational(0));
        a.min_offset = whole.min;
        a.max_offset = whole.max;
        return a;
      }
      const BoundaryClamp clamp = boundary_clamp(s.args[d]);
      a.boundary |= clamp != BoundaryClamp::None;
      a.clamped_everywhere |= clamp == BoundaryClamp::Everywhere;
      int64_t lo = form->const_min.floor(), hi = form->const_max.ceil();
      if (first) {
        a.coeffs = form->coeffs;
        a.min_offset = lo;
        a.max_offset = hi;
      } else {
        a.min_offset = std::min(a.min_offset, lo);
        a.max_offset = std::max(a.max_offset, hi);
      }
      first = false;
    }
    return a;
  }

  // An extern stage: one stage without loops (nothing of it is scheduled but its place, the
  // root), reading each Func or buffer argument over its own region in the dimensions they
  // share (the first ones); Halide's bounds query asks the C function itself at run time.
  void describe_extern(const HI::Function& f, FuncInfo& info) {
    info.is_extern = true;
    info.can_inline = false;
    StageInfo st;
    st.func = info.name;
    for (const Halide::ExternFuncArgument& a : f.extern_arguments()) {
      std::string callee;
      int dims = 0;
      std::vector<Range> whole;
      if (a.is_func()) {
        const HI::Function producer(a.func);
        callee = producer.name();
        dims = producer.dimensions();
      } else if (a.is_image_param() || a.is_buffer()) {
        callee = a.is_image_param() ? a.image_param.name() : a.buffer.name();
        whole = inputs_.at(callee).estimate;
        dims = int(whole.size());
      } else {
        continue;  // a scalar
      }
      Edge edge;
      edge.producer = cname(callee);
      edge.producer_is_input = !a.is_func();
      edge.consumer = info.name;
      edge.calls = 1;
      for (int d = 0; d < dims; ++d) {
        const Range r = d < int(info.region.size()) ? info.region[d] : whole.empty() ? Range{0, 0} : whole[d];
        edge.required.push_back(r);
        AccessDim access;
        access.affine = false;
        access.min_offset = r.min;
        access.max_offset = r.max;
        edge.footprint.push_back(access);
      }
      if (a.is_func()) {
        unite(required_[callee], edge.required);
        consumers_of_[edge.producer].insert(info.name);
        read_by_extern_.insert(callee);
      }
      kd_.edges.push_back(edge);
    }
    info.stages.push_back(st);
  }

  void describe_func(const HI::Function& f) {
    FuncInfo info;
    info.name = cname(f.name());
    info.halide_name = f.name();
    info.args = canonical_args(f);
    info.types = f.output_types();
    auto req = required_.find(f.name());
    if (req == required_.end())
      throw BridgeError("Func '" + info.name + "' is not read by any output");
    info.region = req->second;
    check_size(info);
    info.is_output = std::any_of(outputs_.begin(), outputs_.end(),
                                 [&](const HI::Function& o) { return o.same_as(f); });
    info.can_inline = !info.is_output && f.can_be_inlined() && !f.has_update_definition();
    info.is_input_alias = !f.has_extern_definition() && is_input_alias(f);
    info.read_by_extern = read_by_extern_.count(f.name()) > 0;
    if (info.read_by_extern) info.can_inline = false;
    info.vector_width = 1 << 30;
    for (const Halide::Type& t : info.types) {
      info.vector_width = std::min(info.vector_width, target_.natural_vector_size(t));
      info.bytes_per_point += t.bytes();
    }
    if (f.has_extern_definition()) {
      describe_extern(f, info);
      infos_[info.name] = info;
      return;
    }
    const int stages = 1 + int(f.updates().size());
    for (int s = 0; s < stages; ++s) {
      const HI::Definition& def = s == 0 ? f.definition() : f.update(s - 1);
      StageInfo st;
      st.func = info.name;
      st.index = s;
      std::vector<std::string> loop_vars;
      st.loops = stage_loops(f, s, info.region, loop_vars);
      st.ops_uniform_along.resize(loop_vars.size());

      std::vector<Halide::Expr> exprs;
      auto add = [&](const Halide::Expr& e) {
        exprs.push_back(prepare(e));
        OpCounts ops = count_ops(exprs.back());
        // The compiled code divides by parameters' run-time values, not by their estimates
        // (which `prepare` folds in): count those divisions before substituting.
        ops.variable_div = count_ops(HI::simplify(HI::substitute_in_all_lets(e))).variable_div;
        st.ops += ops;
        for (size_t i = 0; i < loop_vars.size(); ++i)
          st.ops_uniform_along[i] += count_ops_uniform_along(exprs.back(), loop_vars[i]);
      };
      for (const Halide::Expr& v : def.values()) add(v);
      if (s > 0)
        for (const Halide::Expr& a : def.args()) add(a);
      if (def.predicate().defined()) add(def.predicate());

      HI::Scope<HI::Interval> scope;
      VarBounds rdom_bounds(st.loops.size());  // an RDom's loops run over fixed values
      for (size_t i = 0; i < st.loops.size(); ++i) {
        const LoopInfo& l = st.loops[i];
        scope.push(loop_vars[i], HI::Interval(Halide::Expr(int32_t(l.min)),
                                              Halide::Expr(int32_t(l.min + l.extent - 1))));
        if (l.is_rvar) rdom_bounds[i] = {l.min, l.min + l.extent - 1};
      }
      CallCollector cc;
      std::map<std::string, HI::Box> boxes;
      for (const Halide::Expr& e : exprs) {
        e.accept(&cc);
        for (auto& [callee, box] : HI::boxes_required(e, scope, func_value_bounds_)) {
          auto it = boxes.find(callee);
          if (it == boxes.end())
            boxes[callee] = box;
          else
            it->second = HI::box_union(it->second, box);
        }
      }
      for (const auto& [callee, sites] : cc.calls) {
        Edge edge;
        edge.producer = cname(callee);
        edge.producer_is_input = cc.inputs.count(callee) > 0;
        edge.consumer = info.name;
        edge.consumer_stage = s;
        edge.calls = int(sites.size());
        edge.required = to_ranges(boxes.at(callee), edge.producer, stage_name(info.name, s));
        for (size_t d = 0; d < edge.required.size(); ++d)
          edge.footprint.push_back(footprint_dim(sites, d, loop_vars, rdom_bounds, edge.required[d]));
        if (callee != f.name()) {
          unite(required_[callee], edge.required);
          if (!edge.producer_is_input) consumers_of_[edge.producer].insert(info.name);
        }
        st.non_affine_addresses |= edge.irregular();
        kd_.edges.push_back(edge);
      }
      if (s > 0)
        for (const Halide::Expr& a : def.args()) st.non_affine_addresses |= !affine_form(prepare(a), loop_vars);
      info.stages.push_back(st);
    }
    infos_[info.name] = info;
  }

  void finish() {
    for (const std::string& halide_name : order_) {
      const std::string name = cname(halide_name);
      FuncInfo info = infos_.at(name);
      const auto& c = consumers_of_[name];
      info.consumers.assign(c.begin(), c.end());
      kd_.funcs.push_back(info);
    }
    for (auto& [name, in] : inputs_) {
      auto it = required_.find(name);
      if (it != required_.end()) in.required = it->second;
      in.vector_width = target_.natural_vector_size(in.type);
      kd_.inputs.push_back(in);
    }
    // Edges in producer-before-consumer order of the consumer, stages ascending.
    std::map<std::string, size_t> pos;
    for (size_t i = 0; i < order_.size(); ++i) pos[cname(order_[i])] = i;
    std::stable_sort(kd_.edges.begin(), kd_.edges.end(), [&](const Edge& a, const Edge& b) {
      if (a.consumer != b.consumer) return pos[a.consumer] < pos[b.consumer];
      if (a.consumer_stage != b.consumer_stage) return a.consumer_stage < b.consumer_stage;
      return a.producer < b.producer;
    });
  }

  std::map<std::string, std::set<std::string>> consumers_of_;
  std::set<std::string> read_by_extern_;  // Halide names of the Funcs extern stages read
};

}  // namespace

KernelDescription describe_pipeline(const Halide::Pipeline& pipeline, const Halide::Target& target) {
  try {
    return Describer(pipeline, target).run();
  } catch (const BridgeError&) {
    throw;
  } catch (const Halide::Error& e) {
    throw BridgeError(std::string("Halide error while describing the pipeline: ") + e.what());
  }
}

PipelineParameters pipeline_parameters(const std::vector<Halide::Func>& outputs) {
  std::vector<HI::Function> fs;
  for (const Halide::Func& f : outputs) fs.push_back(f.function());
  ParamCollector pc;
  for (const auto& [name, f] : HI::build_environment(fs)) f.accept(&pc);
  return {pc.buffers, pc.scalars};
}

KernelDescription describe_app(const AppInstance& app, const Halide::Target& target) {
  return describe_pipeline(app.pipeline(), target);
}

std::map<std::string, Halide::Func> pipeline_funcs(const std::vector<Halide::Func>& outputs) {
  std::vector<HI::Function> fs;
  for (const Halide::Func& f : outputs) fs.push_back(f.function());
  std::map<std::string, Halide::Func> r;
  for (const auto& [name, f] : pipeline_names(fs).by_canonical) r.emplace(name, Halide::Func(f));
  return r;
}

void to_json(nlohmann::json& j, const Range& r) {
  j = nlohmann::json{{"min", r.min}, {"extent", r.extent()}};
}

void to_json(nlohmann::json& j, const LoopInfo& l) {
  j = nlohmann::json{{"var", l.var}, {"rvar", l.is_rvar}, {"pure", l.is_pure}, {"min", l.min},
                     {"extent", l.extent}, {"arg_index", l.arg_index}, {"rvar_index", l.rvar_index}};
}

void to_json(nlohmann::json& j, const AccessDim& a) {
  j = nlohmann::json{{"affine", a.affine}, {"lookup", a.lookup}, {"coeffs", a.coeffs},
                     {"min_offset", a.min_offset}, {"max_offset", a.max_offset}, {"boundary", a.boundary},
                     {"clamped_everywhere", a.clamped_everywhere}};
}

void to_json(nlohmann::json& j, const Edge& e) {
  j = nlohmann::json{{"producer", e.producer},
                     {"producer_is_input", e.producer_is_input},
                     {"consumer", e.consumer},
                     {"consumer_stage", e.consumer_stage},
                     {"calls", e.calls},
                     {"footprint", e.footprint},
                     {"required", e.required}};
}

void to_json(nlohmann::json& j, const StageInfo& s) {
  j = nlohmann::json{{"index", s.index},
                     {"loops", s.loops},
                     {"ops", s.ops},
                     {"ops_uniform_along", s.ops_uniform_along},
                     {"non_affine_addresses", s.non_affine_addresses},
                     {"points", s.points()}};
}

void to_json(nlohmann::json& j, const FuncInfo& f) {
  std::vector<std::string> types;
  for (const Halide::Type& t : f.types) types.push_back(type_name(t));
  j = nlohmann::json{{"name", f.name},
                     {"halide_name", f.halide_name},
                     {"args", f.args},
                     {"types", types},
                     {"region", f.region},
                     {"is_output", f.is_output},
                     {"can_inline", f.can_inline},
                     {"is_input_alias", f.is_input_alias},
                     {"is_extern", f.is_extern},
                     {"read_by_extern", f.read_by_extern},
                     {"vector_width", f.vector_width},
                     {"bytes_per_point", f.bytes_per_point},
                     {"stages", f.stages},
                     {"consumers", f.consumers}};
}

void to_json(nlohmann::json& j, const InputInfo& i) {
  j = nlohmann::json{{"name", i.name},
                     {"type", type_name(i.type)},
                     {"constant", i.is_constant},
                     {"estimate", i.estimate},
                     {"required", i.required},
                     {"vector_width", i.vector_width}};
}

void to_json(nlohmann::json& j, const KernelDescription& k) {
  j = nlohmann::json{{"target", k.target}, {"funcs", k.funcs},   {"inputs", k.inputs},
                     {"edges", k.edges},   {"outputs", k.outputs}, {"scalar_params", k.scalar_params}};
}

}  // namespace candor::halide_bridge
