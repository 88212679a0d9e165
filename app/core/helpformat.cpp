#include "app/core/helpformat.h"

#include <sstream>

namespace {

constexpr std::size_t kOptionColumn = 27;
constexpr std::size_t kLineWidth = 100;

}

std::string optionLine(const std::string &option, const std::string &text)
{
    std::string out = "  " + option;
    std::size_t column = out.size();
    if (column + 1 >= kOptionColumn) {
        out += "\n";
        column = 0;
    }
    std::istringstream words(text);
    bool first = true;
    for (std::string word; words >> word; first = false) {
        if (!first && column + 1 + word.size() > kLineWidth) {
            out += "\n";
            column = 0;
        }
        if (column < kOptionColumn) {
            out += std::string(kOptionColumn - column, ' ');
            column = kOptionColumn;
        } else {
            out += " ";
            ++column;
        }
        out += word;
        column += word.size();
    }
    return out + "\n";
}

std::string optionName(const FieldSpec &field)
{
    switch (field.type) {
    case FieldType::Integer:
        return "--" + field.key + " N";
    case FieldType::Real:
        return "--" + field.key + " X";
    case FieldType::Flag:
        return "--" + field.key + ", --no-" + field.key;
    case FieldType::Choice: {
        std::string names;
        for (const std::string &choice : field.choices)
            names += (names.empty() ? "" : "|") + choice;
        return "--" + field.key + " " + names;
    }
    case FieldType::Path:
        return "--" + field.key + " FILE";
    }
    return {};
}

std::string fieldLine(const FieldSpec &field, const FieldValue &value, const std::string &shownDefault)
{
    std::string shown = field.type == FieldType::Flag ? (value.number != 0 ? "on" : "off") : formatValue(field, value);
    if (!shownDefault.empty())
        shown = shownDefault;
    std::string text = field.help;
    if (!text.empty() && text.back() == '.')
        text.pop_back();
    if (!shown.empty()) {
        // "(default 32; 0 = one-hot to 1024)", "(default 0 = none; 0 to 0.5)"
        FieldValue minimum, maximum;
        minimum.number = field.minimum;
        maximum.number = field.maximum;
        const bool atMinimum = value.number == field.minimum;
        const std::string means = field.minimumMeans.empty() ? "" : " = " + field.minimumMeans;
        text += " (default " + shown + (atMinimum ? means : "");
        if (field.type == FieldType::Integer || field.type == FieldType::Real)
            text += "; " + formatValue(field, minimum) + (atMinimum ? "" : means) + " to " + formatValue(field, maximum);
        text += ")";
    }
    return optionLine(optionName(field), text + ".");
}
