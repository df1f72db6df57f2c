// The example app suite: classic Halide pipelines, each with a hand-written expert schedule.
#pragma once

#include <string>
#include <vector>

#include "halide_bridge/app.h"

namespace candor::apps {

// Every app, sorted by name (stable order for tools and tests).
const std::vector<halide_bridge::App>& all_apps();

// The app called `name`, or nullptr.
const halide_bridge::App* find_app(const std::string& name);

}  // namespace candor::apps
