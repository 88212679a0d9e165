#include "app/commandline.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

CommandLine::CommandLine(const std::vector<std::string> &arguments, const std::set<std::string> &valueOptions,
                         const std::set<std::string> &flags)
{
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string &arg = arguments[i];
        if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) {
            m_positional.push_back(arg);
            continue;
        }
        std::string name = arg.substr(2), value;
        const auto equals = name.find('=');
        const bool inlineValue = equals != std::string::npos;
        if (inlineValue) {
            value = name.substr(equals + 1);
            name = name.substr(0, equals);
        }
        if (flags.count(name) && !inlineValue) {
            m_flags.insert(name);
        } else if (valueOptions.count(name)) {
            if (!inlineValue) {
                if (i + 1 >= arguments.size()) {
                    fail("--" + name + " needs a value");
                    return;
                }
                value = arguments[++i];
            }
            m_values[name] = value;
        } else {
            fail("unknown option --" + name);
            return;
        }
    }
}

void CommandLine::fail(const std::string &message)
{
    if (m_error.empty())
        m_error = message;
}

std::string CommandLine::text(const std::string &name, const std::string &fallback) const
{
    auto it = m_values.find(name);
    return it == m_values.end() ? fallback : it->second;
}

int CommandLine::integer(const std::string &name, int fallback, int min, int max)
{
    auto it = m_values.find(name);
    if (it == m_values.end())
        return fallback;
    char *end = nullptr;
    errno = 0;
    const long v = std::strtol(it->second.c_str(), &end, 10);
    if (it->second.empty() || *end != '\0' || errno != 0 || v < min || v > max) {
        fail("--" + name + " expects a whole number from " + std::to_string(min) + " to " + std::to_string(max)
             + ", got '" + it->second + "'");
        return fallback;
    }
    return int(v);
}

double CommandLine::number(const std::string &name, double fallback, double min, double max)
{
    auto it = m_values.find(name);
    if (it == m_values.end())
        return fallback;
    char *end = nullptr;
    const double v = std::strtod(it->second.c_str(), &end);
    if (it->second.empty() || *end != '\0' || !std::isfinite(v) || v < min || v > max) {
        char range[96];
        std::snprintf(range, sizeof range, "%g to %g", min, max);
        fail("--" + name + " expects a number from " + range + ", got '" + it->second + "'");
        return fallback;
    }
    return v;
}
