// The held-out corpus: stock Halide generators written in the style of other people's code,
// each with a hand-written schedule (README.md). Nothing is trained or tuned on it: model
// and space changes are judged on it after the fact.
#pragma once

#include <string>
#include <vector>

#include "halide_bridge/app.h"

namespace candor::corpus {

// Every corpus generator as an App (generator_app.h), sorted by name.
const std::vector<halide_bridge::App>& all_apps();

// The corpus app called `name`, or nullptr.
const halide_bridge::App* find_app(const std::string& name);

}  // namespace candor::corpus
