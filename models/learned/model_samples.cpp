#include "model_samples.h"

#include <fstream>
#include <set>
#include <stdexcept>
#include <unordered_set>

namespace candor::models::learned {

std::string default_samples_path() { return std::string(CANDOR_DATA_DIR) + "/samples.jsonl"; }
std::string default_apps_samples_path() { return std::string(CANDOR_DATA_DIR) + "/apps/samples.jsonl"; }

namespace {

Sample parse_sample(const nlohmann::json& j, std::vector<bool>& seen_feature) {
  Sample s;
  s.key = j.at("key").get<std::string>();
  s.pipeline = j.at("pipeline").get<std::string>();
  if (j.contains("seed") && !j["seed"].is_null()) s.seed = j["seed"].get<uint64_t>();
  s.source = j.value("source", "");
  s.batch = j.value("batch", "");
  s.ok = j.at("ok").get<bool>();
  if (j.contains("runtime_ms") && j["runtime_ms"].is_number()) s.runtime_ms = j["runtime_ms"].get<double>();
  if (j.contains("predicted_s") && j["predicted_s"].is_number()) s.predicted_s = j["predicted_s"].get<double>();
  if (!j.contains("stages")) return s;
  const auto& features = mh::feature_names();
  const auto& terms = cost_term_names();
  for (const nlohmann::json& st : j["stages"]) {
    StageRow r;
    const nlohmann::json& f = st.at("features");
    for (size_t i = 0; i < features.size(); ++i) {
      const auto it = f.find(features[i]);
      if (it == f.end()) continue;
      r.features[i] = it->get<double>();
      seen_feature[i] = true;
    }
    const nlohmann::json& t = st.at("terms");
    for (size_t i = 0; i < terms.size(); ++i) r.terms[i] = t.at(terms[i]).get<double>();
    s.rows.push_back(r);
  }
  return s;
}

}  // namespace

SampleFile read_samples(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read samples " + path);
  SampleFile out;
  std::vector<bool> seen_feature(mh::feature_names().size(), false);
  std::unordered_set<std::string> keys;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const bool last = in.peek() == std::char_traits<char>::eof();
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded()) {
      if (last) {
        out.torn_last_line = true;
        break;
      }
      throw std::runtime_error(path + ":" + std::to_string(number) + ": not JSON");
    }
    Sample s;
    try {
      s = parse_sample(j, seen_feature);
    } catch (const nlohmann::json::exception& e) {
      throw std::runtime_error(path + ":" + std::to_string(number) + ": not a sample: " + e.what());
    }
    if (!keys.insert(s.key).second) {
      ++out.duplicates;
      continue;
    }
    out.samples.push_back(std::move(s));
  }
  bool any_stage = false;
  for (const Sample& s : out.samples) any_stage = any_stage || !s.rows.empty();
  for (size_t i = 0; any_stage && i < seen_feature.size(); ++i)
    if (!seen_feature[i]) out.missing_features.push_back(mh::feature_names()[i]);
  return out;
}

void merge_samples(SampleFile& into, const SampleFile& more) {
  std::unordered_set<std::string> keys;
  for (const Sample& s : into.samples) keys.insert(s.key);
  for (const Sample& s : more.samples) {
    if (keys.insert(s.key).second) {
      into.samples.push_back(s);
    } else {
      ++into.duplicates;
    }
  }
  into.duplicates += more.duplicates;
  into.torn_last_line = into.torn_last_line || more.torn_last_line;
  std::set<std::string> missing(into.missing_features.begin(), into.missing_features.end());
  missing.insert(more.missing_features.begin(), more.missing_features.end());
  into.missing_features.assign(missing.begin(), missing.end());
}

}  // namespace candor::models::learned
