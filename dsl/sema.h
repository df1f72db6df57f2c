// The semantic pass: resolves names, checks arity, types, symmetry and the shape of every
// constraint, and normalises formulas into the clauses and counters of the checked model.
#pragma once

#include <optional>

#include "dsl/ast.h"
#include "dsl/diagnostics.h"
#include "dsl/model.h"

namespace candor::dsl {

// Checks a whole space (includes already expanded, see parse_space). Returns the checked
// model, or nullopt after reporting every error found to `sink`.
std::optional<CheckedSpace> check_space(const ast::Space& space, DiagnosticSink& sink);

// Whether `name` may name a generated C++ entity (not a C++ keyword, not reserved).
bool is_usable_cpp_identifier(const std::string& name);

// What the generated code uses `name` for (a namespace, a type, a member every enum has),
// so that a spec may not declare it; nullptr when the name is free.
const char* generated_code_use(const std::string& name);

}  // namespace candor::dsl
