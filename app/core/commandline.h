#pragma once

#include "engine/core/configfield.h"

#include <QCommandLineParser>

#include <set>
#include <utility>
#include <string>
#include <vector>

// What every subcommand does with a problem: prints it and returns the exit code, 2 for bad usage
// ("attnscope <command>: <message>" and where to find the options), 1 for a failure while running.
int usageError(const std::string &command, const std::string &message);
int failure(const std::string &message);
// The process's peak resident memory so far (VmHWM), in MiB; 0 where /proc does not tell.
double peakRssMiB();

// One subcommand's command line, read by QCommandLineParser: `--name value`, `--name=value`,
// `--flag` and positional arguments. Options are named by hand or made from a configuration's
// field table (--key, and --key / --no-key for a flag), and values are checked against their range.
// The first problem is kept, so that the command can print it and exit with code 2.
class CommandLine
{
public:
    CommandLine(const std::set<std::string> &valueOptions, const std::set<std::string> &flags);
    // Names the options and parses at once, for a command without configuration fields.
    CommandLine(const std::vector<std::string> &arguments, const std::set<std::string> &valueOptions,
                const std::set<std::string> &flags);

    void addValueOption(const std::string &name);
    void addFlag(const std::string &name);
    template <typename Config>
    void addFields(const std::vector<ConfigField<Config>> &fields)
    {
        for (const FieldSpec &field : fields)
            addField(field);
    }
    void parse(const std::vector<std::string> &arguments);

    bool ok() const { return m_error.empty(); }
    const std::string &error() const { return m_error; }
    void fail(const std::string &message);

    bool has(const std::string &name) const;
    bool flag(const std::string &name) const { return has(name); }
    std::string text(const std::string &name, const std::string &fallback = {}) const;
    int integer(const std::string &name, int fallback, int min, int max);
    double number(const std::string &name, double fallback, double min, double max);
    const std::vector<std::string> &positional() const { return m_positional; }

    // Sets every field given on the command line, except those whose key is in `skip`.
    template <typename Config>
    void readFields(Config &config, const std::vector<ConfigField<Config>> &fields,
                    const std::set<std::string> &skip = {})
    {
        for (const ConfigField<Config> &field : fields) {
            FieldValue value;
            if (skip.count(field.key) == 0 && readField(field, &value))
                field.set(config, value);
        }
    }

private:
    void addField(const FieldSpec &field);
    // False when the option is absent or its value is bad (then fail() has the reason).
    bool readField(const FieldSpec &field, FieldValue *value);
    double ranged(const std::string &name, FieldType type, double fallback, double min, double max);

    QCommandLineParser m_parser;
    std::vector<std::string> m_positional;
    std::string m_error;
};

// What `flags` set through two field tables (a lab's, as its command reads them): an exercise's
// settings, written once as flags, for the app's panels. The flags are the exercise's own, so valid.
template <typename A, typename B>
std::pair<A, B> configsFromFlags(const std::vector<std::string> &flags, const std::vector<ConfigField<A>> &aFields,
                                 const std::vector<ConfigField<B>> &bFields)
{
    CommandLine cl({}, {});
    cl.addFields(aFields);
    cl.addFields(bFields);
    cl.parse(flags);
    std::pair<A, B> configs;
    cl.readFields(configs.first, aFields);
    cl.readFields(configs.second, bFields);
    return configs;
}
