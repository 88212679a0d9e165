#pragma once

#include <string>
#include <type_traits>
#include <vector>

// The kinds of value a configuration field holds.
enum class FieldType { Integer, Real, Flag, Choice, Path };

// A field's value in one form for every type: `number` for integers, reals, flags (0 or 1) and
// choices (the index into `choices`), `text` for paths.
struct FieldValue {
    double number = 0;
    std::string text;
};

// What a configuration field is, apart from the struct that holds it. Validation, the command line
// and its --help, the settings, the JSON files and the UI's widgets are all derived from this.
struct FieldSpec {
    std::string key;                   // --key on the command line; with '_' for '-', the settings and JSON key
    FieldType type = FieldType::Integer;
    std::string label;                 // names the field in messages and in the UI: "embedding size"
    std::string help;                  // one sentence: what it does
    double minimum = 0;                // Integer and Real: the accepted range, both ends included
    double maximum = 0;
    double step = 1;                   // Real: the UI's step
    std::string minimumMeans;          // what the minimum stands for when it is special: "off"
    std::vector<std::string> choices;  // Choice: the names, in the order of the enum's values
};

// Empty when `value` is in the field's range, otherwise "<label> must be ... (got ...)".
std::string checkValue(const FieldSpec &field, const FieldValue &value);
// Reads `text` as the command line gives it. Empty on success, otherwise why not, starting with a
// verb so that the caller can put the option's name before it: "expects a whole number from 1 to 8".
std::string parseValue(const FieldSpec &field, const std::string &text, FieldValue *value);
// `value` as parseValue() reads it back: numbers exactly, flags as "true" or "false", choices by name.
std::string formatValue(const FieldSpec &field, const FieldValue &value);

// A field of `Config`: its description and typed access to the member that holds it.
template <typename Config>
struct ConfigField : FieldSpec {
    FieldValue (*get)(const Config &) = nullptr;
    void (*set)(Config &, const FieldValue &) = nullptr;

    FieldValue defaultValue() const { return get(Config{}); }  // the struct's member initialiser
};

// Empty when every field is in range, otherwise the first field's problem.
template <typename Config>
std::string checkFields(const Config &config, const std::vector<ConfigField<Config>> &fields)
{
    for (const ConfigField<Config> &field : fields) {
        std::string problem = checkValue(field, field.get(config));
        if (!problem.empty())
            return problem;
    }
    return {};
}

namespace configfield_detail {

template <typename>
struct MemberOf;
template <typename C, typename T>
struct MemberOf<T C::*> {
    using Config = C;
    using Value = T;
};

// Builds the field of the member `Member` points to; `Inverted` flags hold the member's negation.
template <auto Member, bool Inverted = false>
ConfigField<typename MemberOf<decltype(Member)>::Config> makeField(FieldSpec spec)
{
    using Config = typename MemberOf<decltype(Member)>::Config;
    using T = typename MemberOf<decltype(Member)>::Value;
    ConfigField<Config> field;
    static_cast<FieldSpec &>(field) = std::move(spec);
    field.get = [](const Config &c) {
        FieldValue v;
        if constexpr (std::is_same_v<T, std::string>)
            v.text = c.*Member;
        else if constexpr (std::is_same_v<T, bool>)
            v.number = (c.*Member) != Inverted ? 1 : 0;
        else if constexpr (std::is_enum_v<T>)
            v.number = double(static_cast<int>(c.*Member));
        else
            v.number = double(c.*Member);
        return v;
    };
    field.set = [](Config &c, const FieldValue &v) {
        if constexpr (std::is_same_v<T, std::string>)
            c.*Member = v.text;
        else if constexpr (std::is_same_v<T, bool>)
            c.*Member = (v.number != 0) != Inverted;
        else if constexpr (std::is_enum_v<T>)
            c.*Member = static_cast<T>(int(v.number));
        else
            c.*Member = static_cast<T>(v.number);
    };
    return field;
}

}

// The table entries, one per member: `integerField<&ModelConfig::layers>("layers", ...)`.
template <auto Member>
auto integerField(const char *key, const char *label, double minimum, double maximum, const char *help,
                  const char *minimumMeans = "")
{
    return configfield_detail::makeField<Member>(
        {key, FieldType::Integer, label, help, minimum, maximum, 1, minimumMeans, {}});
}

template <auto Member>
auto realField(const char *key, const char *label, double minimum, double maximum, double step, const char *help,
               const char *minimumMeans = "")
{
    return configfield_detail::makeField<Member>(
        {key, FieldType::Real, label, help, minimum, maximum, step, minimumMeans, {}});
}

// An on/off field: --key and --no-key on the command line. An inverted flag is on when the member
// is false (--keep-case for `lowercase`).
template <auto Member, bool Inverted = false>
auto flagField(const char *key, const char *label, const char *help)
{
    return configfield_detail::makeField<Member, Inverted>({key, FieldType::Flag, label, help, 0, 1, 1, "", {}});
}

template <auto Member>
auto choiceField(const char *key, const char *label, std::vector<std::string> choices, const char *help)
{
    const double last = double(choices.size()) - 1;
    return configfield_detail::makeField<Member>(
        {key, FieldType::Choice, label, help, 0, last, 1, "", std::move(choices)});
}

template <auto Member>
auto pathField(const char *key, const char *label, const char *help)
{
    return configfield_detail::makeField<Member>({key, FieldType::Path, label, help, 0, 0, 1, "", {}});
}

// A configuration as text, one "key=value" line per field in formatValue()'s form, for files that
// keep settings (project files): the table is the one description of what is written.
template <typename Config>
std::string fieldsText(const Config &config, const std::vector<ConfigField<Config>> &fields)
{
    std::string text;
    for (const ConfigField<Config> &field : fields)
        text += field.key + "=" + formatValue(field, field.get(config)) + "\n";
    return text;
}

// Reads fieldsText() back into `config`; fields the text lacks keep their value. Empty on success,
// otherwise what is wrong (an unknown key, a line without '=', a value out of range).
template <typename Config>
std::string readFieldsText(const std::string &text, Config &config, const std::vector<ConfigField<Config>> &fields)
{
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        const std::string line = text.substr(start, end - start);
        start = end + 1;
        const std::size_t equals = line.find('=');
        if (equals == std::string::npos)
            return "setting line without '=': '" + line + "'";
        const std::string key = line.substr(0, equals);
        const ConfigField<Config> *field = nullptr;
        for (const ConfigField<Config> &candidate : fields)
            if (candidate.key == key)
                field = &candidate;
        if (!field)
            return "unknown setting '" + key + "'";
        FieldValue value;
        const std::string problem = parseValue(*field, line.substr(equals + 1), &value);
        if (!problem.empty())
            return key + " " + problem;
        field->set(config, value);
    }
    return {};
}
