// CLI11 reads integers in hex, octal and binary ("0x10"), with spaces around, and doubles as
// "nan" or "inf". The tools take decimal numbers only: require_decimal_numbers adds that check
// to every numeric option of an app and its subcommands (call it after defining them).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "support/numbers.h"

namespace candor::cli {

inline void require_decimal_numbers(CLI::App& app) {
  const CLI::Validator decimal(
      [](std::string& value) -> std::string {
        if (support::parse_decimal(value, -1e300, 1e300)) return "";
        return "needs a decimal number, got '" + value + "'";
      },
      "", "decimal");
  for (CLI::Option* option : app.get_options()) {
    const std::string name = option->get_type_name();  // "INT", "INT:POSITIVE", ...
    const std::string type = name.substr(0, name.find(':'));
    if (type == "INT" || type == "UINT" || type == "FLOAT" || type == "NUMBER") option->check(decimal);
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) require_decimal_numbers(*sub);
}

}  // namespace candor::cli
