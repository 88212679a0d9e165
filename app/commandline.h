#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

// The options of one subcommand: `--name value`, `--name=value` and `--flag`, plus positional
// arguments. Typed getters check ranges; the first problem is kept so the command can print it
// and exit with code 2.
class CommandLine
{
public:
    CommandLine(const std::vector<std::string> &arguments, const std::set<std::string> &valueOptions,
                const std::set<std::string> &flags);

    bool ok() const { return m_error.empty(); }
    const std::string &error() const { return m_error; }
    void fail(const std::string &message);

    bool has(const std::string &name) const { return m_values.count(name) != 0; }
    bool flag(const std::string &name) const { return m_flags.count(name) != 0; }
    std::string text(const std::string &name, const std::string &fallback = {}) const;
    int integer(const std::string &name, int fallback, int min, int max);
    double number(const std::string &name, double fallback, double min, double max);
    const std::vector<std::string> &positional() const { return m_positional; }

private:
    std::map<std::string, std::string> m_values;
    std::set<std::string> m_flags;
    std::vector<std::string> m_positional;
    std::string m_error;
};
