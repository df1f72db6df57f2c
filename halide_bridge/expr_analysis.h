// Analyses of single Halide expressions that the kernel description is built from:
// operation counts, and affine decomposition of access indices w.r.t. loop variables.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <Halide.h>
#include <nlohmann/json.hpp>

namespace candor::halide_bridge {

// An exact rational number (access Jacobians of downsampling/upsampling are 2 or 1/2).
struct Rational {
  int64_t num = 0;
  int64_t den = 1;

  Rational() = default;
  Rational(int64_t n, int64_t d = 1);  // normalised: den > 0, gcd 1
  double value() const { return double(num) / double(den); }
  int64_t floor() const;
  int64_t ceil() const;
  bool operator==(const Rational& o) const { return num == o.num && den == o.den; }
  bool operator!=(const Rational& o) const { return !(*this == o); }
  bool operator<(const Rational& o) const;
  Rational operator+(const Rational& o) const;
  Rational operator-(const Rational& o) const;
  Rational operator*(const Rational& o) const;
  Rational operator/(const Rational& o) const;
  std::string str() const;
};

// e = sum_i coeffs[i] * vars[i] + c, with c somewhere in [const_min, const_max].
// The constant is a range because floor division and modulo lose precision.
struct AffineForm {
  std::vector<Rational> coeffs;
  Rational const_min, const_max;
};

// The values a variable takes when they are fixed (an RDom's), by index in `vars`.
using VarBounds = std::vector<std::optional<std::pair<int64_t, int64_t>>>;

// Decomposes an integer index expression into an affine form over `vars`. Clamps
// (min/max with a side free of `vars`) are looked through: they only shrink the access.
// A product of bounded variables and a bounded constant (an upsampling tap's r * (2 * (x % 2)
// - 1) over r in [0, 1]) becomes a constant range. Returns nullopt for anything else
// non-affine (data-dependent loads, other products of variables, float arithmetic...). Free
// variables other than `vars` make it non-affine too, so substitute parameters first.
std::optional<AffineForm> affine_form(const Halide::Expr& e, const std::vector<std::string>& vars,
                                      const VarBounds& bounds = {});

// How an index is clamped around a likely() hint (a Min or Max), as Halide's boundary
// conditions clamp their coordinates. Loop partitioning runs the consumer's interior without
// the clamp and its edge iterations with it (AtEdges), but only where it can solve the clamp's
// bound for the loop: a bound that depends on the clamped coordinate itself (camera_pipe's
// Bayer-preserving clamp(likely(x), x % 2, w - 2 + x % 2)) stays in every iteration
// (Everywhere).
enum class BoundaryClamp { None, AtEdges, Everywhere };
BoundaryClamp boundary_clamp(const Halide::Expr& e);

// Operations per evaluation of a definition, by kind. Named fields, not an array in an
// agreed order.
struct OpCounts {
  int add = 0;             // Add, Sub
  int mul = 0;             // Mul
  int div = 0;             // Div, Mod
  // Of those, integer ones by a divisor that is not a constant (a parameter, a pixel
  // count): Halide cannot turn them into multiplies, and x86 has no SIMD integer division,
  // so each lane divides on its own.
  int variable_div = 0;
  // Integer ones by a constant that is not a power of two, by type: Halide multiplies by a
  // magic number and keeps the high half, which for 32-bit lanes on AVX2 means widening to
  // 64 bits (box_blur's `sum / 3` of uint32 took 4x the time of the sum alone).
  std::map<std::string, int> constant_div_by_type;
  int minmax = 0;          // Min, Max
  int compare = 0;         // EQ NE LT LE GT GE
  int logic = 0;           // And Or Not
  int select = 0;          // Select
  int cast = 0;            // Cast
  int load_func = 0;       // calls to other Funcs (or the Func itself in an update)
  int load_input = 0;      // loads from input images / constant buffers
  int transcendental = 0;  // extern math calls: sin, exp, sqrt, pow...
  int intrinsic = 0;       // other intrinsics: shifts, bitwise ops, abs, absd...
  // Arithmetic ops (all of the above except loads) by the element type they produce,
  // e.g. {"float32": 5, "uint16": 2}.
  std::map<std::string, int> by_type;

  int arithmetic() const {
    return add + mul + div + minmax + compare + logic + select + cast + transcendental + intrinsic;
  }
  OpCounts& operator+=(const OpCounts& o);
};

OpCounts count_ops(const Halide::Expr& e);
// Of count_ops(e), the operations of subexpressions whose value does not vary with variable
// `var`: in a loop vectorized along `var`, Halide computes those once per vector, not once per
// lane (a boundary condition's tests on x and y, with channels in the vector).
OpCounts count_ops_uniform_along(const Halide::Expr& e, const std::string& var);
std::string type_name(const Halide::Type& t);  // "float32", "uint8", "bool"

void to_json(nlohmann::json& j, const Rational& r);
void to_json(nlohmann::json& j, const OpCounts& c);

}  // namespace candor::halide_bridge
