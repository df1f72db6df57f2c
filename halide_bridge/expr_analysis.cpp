#include "expr_analysis.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <tuple>

namespace candor::halide_bridge {

namespace HI = Halide::Internal;

Rational::Rational(int64_t n, int64_t d) : num(n), den(d) {
  if (den < 0) {
    num = -num;
    den = -den;
  }
  int64_t g = std::gcd(num < 0 ? -num : num, den);
  if (g > 1) {
    num /= g;
    den /= g;
  }
}

int64_t Rational::floor() const {
  return num >= 0 ? num / den : -((-num + den - 1) / den);
}
int64_t Rational::ceil() const { return -Rational(-num, den).floor(); }
bool Rational::operator<(const Rational& o) const { return num * o.den < o.num * den; }
Rational Rational::operator+(const Rational& o) const {
  return Rational(num * o.den + o.num * den, den * o.den);
}
Rational Rational::operator-(const Rational& o) const {
  return Rational(num * o.den - o.num * den, den * o.den);
}
Rational Rational::operator*(const Rational& o) const { return Rational(num * o.num, den * o.den); }
Rational Rational::operator/(const Rational& o) const { return Rational(num * o.den, den * o.num); }
std::string Rational::str() const {
  return den == 1 ? std::to_string(num) : std::to_string(num) + "/" + std::to_string(den);
}

namespace {

bool has_no_vars(const AffineForm& a) {
  for (const Rational& c : a.coeffs)
    if (c.num != 0) return false;
  return true;
}

std::optional<AffineForm> constant(const std::vector<std::string>& vars, Rational c) {
  AffineForm a;
  a.coeffs.assign(vars.size(), Rational(0));
  a.const_min = a.const_max = c;
  return a;
}

AffineForm scale(AffineForm a, Rational k) {
  for (Rational& c : a.coeffs) c = c * k;
  Rational lo = a.const_min * k, hi = a.const_max * k;
  if (hi < lo) std::swap(lo, hi);
  a.const_min = lo;
  a.const_max = hi;
  return a;
}

AffineForm add(AffineForm a, const AffineForm& b, int sign) {
  for (size_t i = 0; i < a.coeffs.size(); ++i)
    a.coeffs[i] = a.coeffs[i] + b.coeffs[i] * Rational(sign);
  if (sign > 0) {
    a.const_min = a.const_min + b.const_min;
    a.const_max = a.const_max + b.const_max;
  } else {
    a.const_min = a.const_min - b.const_max;
    a.const_max = a.const_max - b.const_min;
  }
  return a;
}

// The exact constant, if `a` is one (a single value with no variables).
std::optional<Rational> exact_constant(const AffineForm& a) {
  if (!has_no_vars(a) || a.const_min != a.const_max) return std::nullopt;
  return a.const_min;
}

// The product of `a` and the constant range `k` as a constant range, when every variable
// of `a` is bounded.
std::optional<AffineForm> bounded_product(const AffineForm& a, const AffineForm& k, const VarBounds& bounds) {
  Rational lo = a.const_min, hi = a.const_max;
  for (size_t i = 0; i < a.coeffs.size(); ++i) {
    if (a.coeffs[i].num == 0) continue;
    if (i >= bounds.size() || !bounds[i]) return std::nullopt;
    Rational x = a.coeffs[i] * Rational(bounds[i]->first), y = a.coeffs[i] * Rational(bounds[i]->second);
    if (y < x) std::swap(x, y);
    lo = lo + x;
    hi = hi + y;
  }
  AffineForm r;
  r.coeffs.assign(a.coeffs.size(), Rational(0));
  std::tie(r.const_min, r.const_max) =
      std::minmax({lo * k.const_min, lo * k.const_max, hi * k.const_min, hi * k.const_max});
  return r;
}

}  // namespace

std::optional<AffineForm> affine_form(const Halide::Expr& e, const std::vector<std::string>& vars,
                                      const VarBounds& bounds) {
  auto recurse = [&](const Halide::Expr& x) { return affine_form(x, vars, bounds); };
  if (!e.defined() || !(e.type().is_int() || e.type().is_uint())) return std::nullopt;
  if (const auto* i = e.as<HI::IntImm>()) return constant(vars, Rational(i->value));
  if (const auto* u = e.as<HI::UIntImm>()) return constant(vars, Rational(int64_t(u->value)));
  if (const auto* v = e.as<HI::Variable>()) {
    for (size_t k = 0; k < vars.size(); ++k) {
      if (vars[k] == v->name) {
        auto a = constant(vars, Rational(0));
        a->coeffs[k] = Rational(1);
        return a;
      }
    }
    return std::nullopt;
  }
  if (const auto* c = e.as<HI::Cast>()) return recurse(c->value);
  if (const auto* op = e.as<HI::Add>()) {
    auto a = recurse(op->a), b = recurse(op->b);
    if (!a || !b) return std::nullopt;
    return add(*a, *b, +1);
  }
  if (const auto* op = e.as<HI::Sub>()) {
    auto a = recurse(op->a), b = recurse(op->b);
    if (!a || !b) return std::nullopt;
    return add(*a, *b, -1);
  }
  if (const auto* op = e.as<HI::Mul>()) {
    auto a = recurse(op->a), b = recurse(op->b);
    if (!a || !b) return std::nullopt;
    if (auto k = exact_constant(*b)) return scale(*a, *k);
    if (auto k = exact_constant(*a)) return scale(*b, *k);
    if (has_no_vars(*b)) return bounded_product(*a, *b, bounds);
    if (has_no_vars(*a)) return bounded_product(*b, *a, bounds);
    return std::nullopt;
  }
  if (const auto* op = e.as<HI::Div>()) {
    // Halide's integer division rounds towards -infinity: a/k is in [a/k - (k-1)/k, a/k].
    auto a = recurse(op->a), b = recurse(op->b);
    if (!a || !b) return std::nullopt;
    auto k = exact_constant(*b);
    if (!k || k->den != 1 || k->num <= 0) return std::nullopt;
    AffineForm r = scale(*a, Rational(1) / *k);
    r.const_min = r.const_min - Rational(k->num - 1, k->num);
    return r;
  }
  if (const auto* op = e.as<HI::Mod>()) {
    // Bounded but not affine in the variables: a mod k is somewhere in [0, k-1]. Still
    // require `a` to be affine so that data-dependent indices stay non-affine.
    if (!recurse(op->a)) return std::nullopt;
    auto k = recurse(op->b);
    auto kc = k ? exact_constant(*k) : std::nullopt;
    if (!kc || kc->den != 1 || kc->num <= 0) return std::nullopt;
    auto r = constant(vars, Rational(0));
    r->const_max = Rational(kc->num - 1);
    return r;
  }
  auto clamp_side = [&](const Halide::Expr& a, const Halide::Expr& b) -> std::optional<AffineForm> {
    auto fa = recurse(a), fb = recurse(b);
    if (fa && fb && has_no_vars(*fb)) return fa;
    if (fa && fb && has_no_vars(*fa)) return fb;
    return std::nullopt;
  };
  if (const auto* op = e.as<HI::Call>()) {
    // Hints that do not change the value (boundary conditions wrap their clamps in these).
    if (op->is_intrinsic(HI::Call::likely) || op->is_intrinsic(HI::Call::likely_if_innermost) ||
        op->is_intrinsic(HI::Call::promise_clamped) || op->is_intrinsic(HI::Call::unsafe_promise_clamped))
      return recurse(op->args[0]);
    return std::nullopt;
  }
  if (const auto* op = e.as<HI::Min>()) return clamp_side(op->a, op->b);
  if (const auto* op = e.as<HI::Max>()) return clamp_side(op->a, op->b);
  return std::nullopt;
}

std::string type_name(const Halide::Type& t) {
  if (t.is_bool()) return "bool";
  std::string base = t.is_float() ? "float" : t.is_uint() ? "uint" : t.is_int() ? "int" : "handle";
  std::string s = base + std::to_string(t.bits());
  if (t.lanes() > 1) s += "x" + std::to_string(t.lanes());
  return s;
}

OpCounts& OpCounts::operator+=(const OpCounts& o) {
  add += o.add;
  mul += o.mul;
  div += o.div;
  variable_div += o.variable_div;
  for (const auto& [k, v] : o.constant_div_by_type) constant_div_by_type[k] += v;
  minmax += o.minmax;
  compare += o.compare;
  logic += o.logic;
  select += o.select;
  cast += o.cast;
  load_func += o.load_func;
  load_input += o.load_input;
  transcendental += o.transcendental;
  intrinsic += o.intrinsic;
  for (const auto& [k, v] : o.by_type) by_type[k] += v;
  return *this;
}

namespace {

// Names of the variables an expression reads.
class VariableNames : public HI::IRVisitor {
 public:
  std::set<std::string> names;

 private:
  using HI::IRVisitor::visit;
  void visit(const HI::Variable* op) override { names.insert(op->name); }
};

std::set<std::string> variable_names(const Halide::Expr& e) {
  VariableNames v;
  e.accept(&v);
  return v.names;
}

// Finds a likely() hint under a Min or Max, and whether the bound beside it reads a variable
// of the hinted coordinate.
class BoundaryClampFinder : public HI::IRVisitor {
 public:
  BoundaryClamp found = BoundaryClamp::None;

 private:
  using HI::IRVisitor::visit;
  std::vector<std::set<std::string>> bounds_;  // variables of the bounds of enclosing clamps

  template <typename T>
  void inside_clamp(const T* op) {
    // Each operand is visited with the other as its bound.
    bounds_.push_back(variable_names(op->b));
    op->a.accept(this);
    bounds_.back() = variable_names(op->a);
    op->b.accept(this);
    bounds_.pop_back();
  }
  void visit(const HI::Min* op) override { inside_clamp(op); }
  void visit(const HI::Max* op) override { inside_clamp(op); }
  void visit(const HI::Call* op) override {
    if (!bounds_.empty() && op->is_intrinsic(HI::Call::likely)) {
      bool solvable = true;
      for (const std::string& v : variable_names(op->args[0]))
        for (const auto& bound : bounds_) solvable &= !bound.count(v);
      if (!solvable)
        found = BoundaryClamp::Everywhere;
      else if (found == BoundaryClamp::None)
        found = BoundaryClamp::AtEdges;
    }
    HI::IRVisitor::visit(op);
  }
};

class OpCounter : public HI::IRVisitor {
 public:
  OpCounts counts;

 private:
  using HI::IRVisitor::visit;

  template <typename T>
  void arith(const T* op, int OpCounts::*field) {
    counts.*field += 1;
    counts.by_type[type_name(op->type)] += 1;
    HI::IRVisitor::visit(op);
  }

  void visit(const HI::Add* op) override { arith(op, &OpCounts::add); }
  void visit(const HI::Sub* op) override { arith(op, &OpCounts::add); }
  void visit(const HI::Mul* op) override { arith(op, &OpCounts::mul); }
  template <typename T>
  void division(const T* op) {
    if (!op->type.is_float()) {
      int log2_divisor = 0;
      if (!HI::is_const(op->b))
        counts.variable_div += 1;
      else if (!HI::is_const_power_of_two_integer(op->b, &log2_divisor))
        counts.constant_div_by_type[type_name(op->type)] += 1;
    }
    arith(op, &OpCounts::div);
  }
  void visit(const HI::Div* op) override { division(op); }
  void visit(const HI::Mod* op) override { division(op); }
  void visit(const HI::Min* op) override { arith(op, &OpCounts::minmax); }
  void visit(const HI::Max* op) override { arith(op, &OpCounts::minmax); }
  void visit(const HI::EQ* op) override { arith(op, &OpCounts::compare); }
  void visit(const HI::NE* op) override { arith(op, &OpCounts::compare); }
  void visit(const HI::LT* op) override { arith(op, &OpCounts::compare); }
  void visit(const HI::LE* op) override { arith(op, &OpCounts::compare); }
  void visit(const HI::GT* op) override { arith(op, &OpCounts::compare); }
  void visit(const HI::GE* op) override { arith(op, &OpCounts::compare); }
  void visit(const HI::And* op) override { arith(op, &OpCounts::logic); }
  void visit(const HI::Or* op) override { arith(op, &OpCounts::logic); }
  void visit(const HI::Not* op) override { arith(op, &OpCounts::logic); }
  void visit(const HI::Select* op) override { arith(op, &OpCounts::select); }
  void visit(const HI::Cast* op) override { arith(op, &OpCounts::cast); }
  void visit(const HI::Call* op) override {
    switch (op->call_type) {
      case HI::Call::Halide:
        counts.load_func += 1;
        break;
      case HI::Call::Image:
        counts.load_input += 1;
        break;
      case HI::Call::Extern:
      case HI::Call::ExternCPlusPlus:
      case HI::Call::PureExtern:
        counts.transcendental += 1;
        counts.by_type[type_name(op->type)] += 1;
        break;
      default:
        counts.intrinsic += 1;
        counts.by_type[type_name(op->type)] += 1;
        break;
    }
    HI::IRVisitor::visit(op);
  }
};

// Counts whole the subexpressions that do not use `var_`; descends into those that do.
class UniformOpCounter : public HI::IRVisitor {
 public:
  explicit UniformOpCounter(std::string var) : var_(std::move(var)) {}
  OpCounts counts;

 private:
  using HI::IRVisitor::visit;
  std::string var_;

  template <typename T>
  void split(const T* op) {
    const Halide::Expr e(op);
    if (HI::expr_uses_var(e, var_))
      HI::IRVisitor::visit(op);
    else
      counts += count_ops(e);
  }
  void visit(const HI::Add* op) override { split(op); }
  void visit(const HI::Sub* op) override { split(op); }
  void visit(const HI::Mul* op) override { split(op); }
  void visit(const HI::Div* op) override { split(op); }
  void visit(const HI::Mod* op) override { split(op); }
  void visit(const HI::Min* op) override { split(op); }
  void visit(const HI::Max* op) override { split(op); }
  void visit(const HI::EQ* op) override { split(op); }
  void visit(const HI::NE* op) override { split(op); }
  void visit(const HI::LT* op) override { split(op); }
  void visit(const HI::LE* op) override { split(op); }
  void visit(const HI::GT* op) override { split(op); }
  void visit(const HI::GE* op) override { split(op); }
  void visit(const HI::And* op) override { split(op); }
  void visit(const HI::Or* op) override { split(op); }
  void visit(const HI::Not* op) override { split(op); }
  void visit(const HI::Select* op) override { split(op); }
  void visit(const HI::Cast* op) override { split(op); }
  void visit(const HI::Call* op) override { split(op); }
};

}  // namespace

BoundaryClamp boundary_clamp(const Halide::Expr& e) {
  BoundaryClampFinder finder;
  e.accept(&finder);
  return finder.found;
}

OpCounts count_ops(const Halide::Expr& e) {
  OpCounter c;
  if (e.defined()) e.accept(&c);
  return c.counts;
}

OpCounts count_ops_uniform_along(const Halide::Expr& e, const std::string& var) {
  UniformOpCounter c(var);
  if (e.defined()) e.accept(&c);
  return c.counts;
}

void to_json(nlohmann::json& j, const Rational& r) {
  if (r.den == 1)
    j = r.num;
  else
    j = r.value();
}

void to_json(nlohmann::json& j, const OpCounts& c) {
  j = nlohmann::json{{"add", c.add},
                     {"mul", c.mul},
                     {"div", c.div},
                     {"variable_div", c.variable_div},
                     {"constant_div_by_type", c.constant_div_by_type},
                     {"minmax", c.minmax},
                     {"compare", c.compare},
                     {"logic", c.logic},
                     {"select", c.select},
                     {"cast", c.cast},
                     {"load_func", c.load_func},
                     {"load_input", c.load_input},
                     {"transcendental", c.transcendental},
                     {"intrinsic", c.intrinsic},
                     {"by_type", c.by_type}};
}

}  // namespace candor::halide_bridge
