#include "corpus.h"

#include <algorithm>

#include "generator_app.h"

// Each generator file's entry (corpus_generator.h); corpus_list.inc names them all.
#define CANDOR_CORPUS_ENTRY(NAME) \
  namespace candor::corpus::entries { const char* NAME(); }
#include "corpus_list.inc"
#undef CANDOR_CORPUS_ENTRY

namespace candor::corpus {

const std::vector<halide_bridge::App>& all_apps() {
  static const std::vector<halide_bridge::App> apps = [] {
    std::vector<halide_bridge::App> list;
#define CANDOR_CORPUS_ENTRY(NAME) list.push_back(generator_app(#NAME, entries::NAME()));
#include "corpus_list.inc"
#undef CANDOR_CORPUS_ENTRY
    std::sort(list.begin(), list.end(),
              [](const halide_bridge::App& a, const halide_bridge::App& b) { return a.name < b.name; });
    return list;
  }();
  return apps;
}

const halide_bridge::App* find_app(const std::string& name) {
  for (const halide_bridge::App& app : all_apps())
    if (app.name == name) return &app;
  return nullptr;
}

}  // namespace candor::corpus
