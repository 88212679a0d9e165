#include "engine/core/configfield.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace {

// The shortest text that reads back as the same double; whole numbers in full ("1000000", not "1e+06").
std::string numberText(double v)
{
    char buffer[32];
    if (v == std::floor(v) && std::fabs(v) < 1e15) {
        std::snprintf(buffer, sizeof buffer, "%.0f", v);
        return buffer;
    }
    for (int precision = 6; precision <= 17; ++precision) {
        std::snprintf(buffer, sizeof buffer, "%.*g", precision, v);
        if (std::strtod(buffer, nullptr) == v)
            break;
    }
    return buffer;
}

std::string rangeText(const FieldSpec &f)
{
    return numberText(f.minimum) + " to " + numberText(f.maximum);
}

// 'a', 'b' or 'c'
std::string choicesText(const std::vector<std::string> &choices)
{
    std::string text;
    for (std::size_t i = 0; i < choices.size(); ++i)
        text += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + ("'" + choices[i] + "'");
    return text;
}

bool inRange(const FieldSpec &f, double v)
{
    return v >= f.minimum && v <= f.maximum;  // false for NaN
}

}

std::string checkValue(const FieldSpec &f, const FieldValue &value)
{
    const double v = value.number;
    switch (f.type) {
    case FieldType::Integer:
        if (!inRange(f, v) || v != std::floor(v))
            return f.label + " must be a whole number from " + rangeText(f) + " (got " + numberText(v) + ")";
        break;
    case FieldType::Real:
        if (!inRange(f, v))
            return f.label + " must be a number from " + rangeText(f) + " (got " + numberText(v) + ")";
        break;
    case FieldType::Choice:
        if (!inRange(f, v) || v != std::floor(v))
            return f.label + " must be " + choicesText(f.choices);
        break;
    case FieldType::Flag:
    case FieldType::Path:
        break;
    }
    return {};
}

std::string parseValue(const FieldSpec &f, const std::string &text, FieldValue *value)
{
    switch (f.type) {
    case FieldType::Integer: {
        char *end = nullptr;
        errno = 0;
        const long long v = std::strtoll(text.c_str(), &end, 10);
        if (text.empty() || *end != '\0' || errno != 0 || !inRange(f, double(v)))
            return "expects a whole number from " + rangeText(f) + ", got '" + text + "'";
        value->number = double(v);
        return {};
    }
    case FieldType::Real: {
        char *end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !inRange(f, v))
            return "expects a number from " + rangeText(f) + ", got '" + text + "'";
        value->number = v;
        return {};
    }
    case FieldType::Flag:
        if (text != "true" && text != "false")
            return "expects true or false, got '" + text + "'";
        value->number = text == "true" ? 1 : 0;
        return {};
    case FieldType::Choice:
        for (std::size_t i = 0; i < f.choices.size(); ++i)
            if (text == f.choices[i]) {
                value->number = double(i);
                return {};
            }
        return "must be " + choicesText(f.choices) + ", got '" + text + "'";
    case FieldType::Path:
        value->text = text;
        return {};
    }
    return {};
}

std::string formatValue(const FieldSpec &f, const FieldValue &value)
{
    switch (f.type) {
    case FieldType::Integer:
    case FieldType::Real:
        return numberText(value.number);
    case FieldType::Flag:
        return value.number != 0 ? "true" : "false";
    case FieldType::Choice: {
        const bool known = value.number >= 0 && value.number < double(f.choices.size());
        return known ? f.choices[std::size_t(value.number)] : std::string();
    }
    case FieldType::Path:
        return value.text;
    }
    return {};
}
