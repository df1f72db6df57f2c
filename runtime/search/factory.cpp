#include <sstream>
#include <stdexcept>

#include "engines.h"
#include "run.h"

namespace candor {

namespace {

using search_detail::EngineEntry;

const std::vector<EngineEntry>& registry() {
  static const std::vector<EngineEntry> entries = {
      search_detail::dfbb_entry(),   search_detail::bfbb_entry(),
      search_detail::greedy_entry(), search_detail::beam_entry(),
      search_detail::mb2fbs_entry(), search_detail::mcts_entry(),
      search_detail::random_entry(), search_detail::exhaustive_entry(),
  };
  return entries;
}

std::string names_list() {
  std::string out;
  for (const EngineEntry& e : registry()) out += (out.empty() ? "" : ", ") + e.name;
  return out;
}

const EngineEntry& find_entry(const std::string& name) {
  for (const EngineEntry& e : registry()) {
    if (e.name == name) return e;
  }
  throw std::invalid_argument("unknown search '" + name + "' (valid searches: " + names_list() +
                              ")");
}

}  // namespace

std::unique_ptr<Search> make_search(const std::string& spec) {
  size_t colon = spec.find(':');
  std::string name = spec.substr(0, colon);
  while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.pop_back();
  while (!name.empty() && (name.front() == ' ' || name.front() == '\t')) name.erase(0, 1);
  const EngineEntry& entry = find_entry(name);
  search_detail::Options options(entry.name, entry.options);
  if (colon != std::string::npos) options.parse(spec.substr(colon + 1));
  return entry.make(options);
}

std::vector<std::string> search_names() {
  std::vector<std::string> out;
  for (const EngineEntry& e : registry()) out.push_back(e.name);
  return out;
}

std::vector<SearchOptionInfo> search_options(const std::string& name) {
  return find_entry(name).options;
}

std::string search_help() {
  std::ostringstream out;
  out << "searches (--search NAME or NAME:key=value,...):\n";
  for (const EngineEntry& e : registry()) {
    out << "  " << e.name << ": " << e.summary << "\n";
    for (const SearchOptionInfo& o : e.options) {
      out << "      " << o.key << "=" << o.default_value << "  " << o.help << "\n";
    }
  }
  return out.str();
}

}  // namespace candor
