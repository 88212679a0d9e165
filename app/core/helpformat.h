#pragma once

#include "engine/core/configfield.h"

#include <map>
#include <string>
#include <vector>

// How every command's --help lays out its options: "  --name VALUE" and the text wrapped into the
// column after it, and the options made from a configuration's field table, each with its default,
// its range and what its minimum means when that is special.

// `option` and then `text`, wrapped into the column after it.
std::string optionLine(const std::string &option, const std::string &text);
// "--key N", "--key X", "--key, --no-key", "--key a|b|c" or "--key FILE".
std::string optionName(const FieldSpec &field);
// One field's line; `shownDefault` replaces the struct's default where the command line sets another.
std::string fieldLine(const FieldSpec &field, const FieldValue &defaultValue, const std::string &shownDefault = {});

// Every field of a table. `defaults` replaces the struct's default where the command line sets another.
template <typename Config>
std::string fieldLines(const std::vector<ConfigField<Config>> &fields,
                       const std::map<std::string, std::string> &defaults = {})
{
    std::string out;
    for (const ConfigField<Config> &field : fields) {
        const auto shown = defaults.find(field.key);
        out += fieldLine(field, field.defaultValue(), shown == defaults.end() ? std::string() : shown->second);
    }
    return out;
}

// What every command's --help ends with.
inline constexpr const char *kExitCodes = "\nExit codes: 0 success, 1 failure while running, 2 bad options.\n";
