#include "naming.h"

#include <regex>
#include <set>

namespace candor::halide_bridge {

namespace HI = Halide::Internal;

namespace {

// "blur$3" -> "blur": Halide's per-process uniquifier.
std::string strip_uniquifier(const std::string& n) {
  static const std::regex re(R"((.*?)(\$[0-9]+)+$)");
  std::smatch m;
  return std::regex_match(n, m, re) ? m[1].str() : n;
}

std::string sanitize(const std::string& n) {
  std::string r;
  for (char c : n) r += (std::isalnum((unsigned char)c) || c == '_') ? c : '_';
  return r;
}

// Names Halide invents when the author gave none carry a process-wide counter.
std::string drop_counter(const std::string& n, const char* pattern, const char* base) {
  return std::regex_match(n, std::regex(pattern)) ? std::string(base) : n;
}

class CallOrder : public HI::IRVisitor {
 public:
  std::vector<HI::Function> callees;
  std::set<std::string> seen;

 private:
  using HI::IRVisitor::visit;
  void visit(const HI::Call* op) override {
    HI::IRVisitor::visit(op);  // arguments first: they are evaluated first
    if (op->call_type == HI::Call::Halide && op->func.defined() && seen.insert(op->name).second)
      callees.push_back(HI::Function(op->func));
  }
};

std::vector<HI::Function> callees_in_order(const HI::Function& f) {
  CallOrder c;
  auto visit_def = [&](const HI::Definition& d) {
    for (const Halide::Expr& e : d.args()) e.accept(&c);
    for (const Halide::Expr& e : d.values()) e.accept(&c);
    if (d.predicate().defined()) d.predicate().accept(&c);
  };
  if (f.has_extern_definition()) {  // an extern stage calls the Funcs it is handed
    for (const Halide::ExternFuncArgument& a : f.extern_arguments()) {
      if (a.is_func() && c.seen.insert(HI::Function(a.func).name()).second) c.callees.push_back(HI::Function(a.func));
      if (a.is_expr()) a.expr.accept(&c);
    }
    return c.callees;
  }
  visit_def(f.definition());
  for (const HI::Definition& u : f.updates()) visit_def(u);
  return c.callees;
}

}  // namespace

PipelineNames pipeline_names(const std::vector<HI::Function>& outputs) {
  PipelineNames names;
  std::set<std::string> used;
  std::map<std::string, int> anon_count;
  std::function<void(const HI::Function&)> visit = [&](const HI::Function& f) {
    if (names.canonical.count(f.name())) return;
    std::string base = strip_uniquifier(f.name());
    base = drop_counter(base, "f[0-9]+", "f");
    base = drop_counter(base, "lambda_[0-9]+", "lambda");
    base = sanitize(base);
    std::string name = base;
    for (int k = 2; used.count(name); ++k) name = base + "_" + std::to_string(k);
    used.insert(name);
    names.canonical[f.name()] = name;
    names.by_canonical.emplace(name, f);
    names.order.push_back(name);
    for (const HI::Function& c : callees_in_order(f))
      if (!c.same_as(f)) visit(c);
  };
  for (const HI::Function& o : outputs) visit(o);
  return names;
}

std::vector<std::string> canonical_args(const HI::Function& f) {
  std::vector<std::string> r;
  std::set<std::string> used;
  for (size_t i = 0; i < f.args().size(); ++i) {
    std::string base = sanitize(drop_counter(f.args()[i], "v[0-9]+", "v"));
    if (base == "v") base += std::to_string(i);
    std::string name = base;
    for (int k = 2; used.count(name); ++k) name = base + "_" + std::to_string(k);
    used.insert(name);
    r.push_back(name);
  }
  return r;
}

std::string canonical_rvar(const std::string& halide_name) {
  auto dollar = halide_name.rfind('$');
  if (dollar == std::string::npos) return sanitize(halide_name);
  std::string rdom = strip_uniquifier(halide_name.substr(0, dollar));
  rdom = drop_counter(rdom, "r[0-9]+", "r");
  return sanitize(rdom + "_" + halide_name.substr(dollar + 1));
}

}  // namespace candor::halide_bridge
