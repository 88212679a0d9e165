#pragma once

#include "engine/core/binaryio.h"
#include "engine/core/configfield.h"

#include <string>
#include <vector>

// A configuration inside a binary file: its fieldsText() as one length-prefixed string. Every
// field of the table is written and read by its key, so a field added to a table is saved with
// no other edit, and a file written before the field existed reads back with its default.
template <typename Config>
void writeConfig(BinaryWriter &w, const Config &config, const std::vector<ConfigField<Config>> &fields)
{
    w.string(fieldsText(config, fields));
}

// Reads writeConfig()'s record. Throws BinaryFormatError when the record runs past the data, or
// when its text does not read: "the <what> settings are invalid: unknown setting 'x'".
template <typename Config>
Config readConfig(BinaryReader &r, const std::vector<ConfigField<Config>> &fields, const std::string &what)
{
    Config config;
    const std::string problem = readFieldsText(r.string(), config, fields);
    if (!problem.empty())
        throw BinaryFormatError("the " + what + " settings are invalid: " + problem);
    return config;
}
