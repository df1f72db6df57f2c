// The text forms of a search's limits and pinned decisions, shared by the commands that
// search and the plugin's knobs:
//   --budget time=10s,nodes=100000,kept=5000,memory=4G,seed=7
// Each key is optional but at least one is given, each once; numbers are decimal. time is
// positive, at most 24 h, with an s, ms or min suffix (seconds by default); nodes and kept
// are at least 1; memory (the resident size at which a search stops with its best so far;
// default half the machine) takes K, M, G or T.
//   --pin 'tile(dot.x)=8'    (CANDOR_PINS: several, separated by ';')
#pragma once

#include <string>
#include <utility>

#include "search.h"

namespace candor {

// Throws std::invalid_argument with a message naming the bad part.
Budget parse_budget(const std::string& text);

// A pinned decision, CHOICE=VALUE, as (choice, value). Throws std::invalid_argument
// "<where>'TEXT': expected CHOICE=VALUE, ..." (`where` names the option or variable).
std::pair<std::string, std::string> parse_pin(const std::string& text, const std::string& where);

}  // namespace candor
