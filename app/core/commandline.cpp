#include "app/core/commandline.h"

#include <fstream>
#include <iostream>

CommandLine::CommandLine(const std::set<std::string> &valueOptions, const std::set<std::string> &flags)
{
    for (const std::string &name : valueOptions)
        addValueOption(name);
    for (const std::string &name : flags)
        addFlag(name);
}

CommandLine::CommandLine(const std::vector<std::string> &arguments, const std::set<std::string> &valueOptions,
                         const std::set<std::string> &flags)
    : CommandLine(valueOptions, flags)
{
    parse(arguments);
}

void CommandLine::addValueOption(const std::string &name)
{
    m_parser.addOption(QCommandLineOption(QString::fromStdString(name), QString(), QStringLiteral("value")));
}

void CommandLine::addFlag(const std::string &name)
{
    m_parser.addOption(QCommandLineOption(QString::fromStdString(name)));
}

void CommandLine::addField(const FieldSpec &field)
{
    if (field.type == FieldType::Flag) {
        addFlag(field.key);
        addFlag("no-" + field.key);
    } else {
        addValueOption(field.key);
    }
}

void CommandLine::parse(const std::vector<std::string> &arguments)
{
    QStringList list{QStringLiteral("attnscope")};  // the parser skips the program's name
    for (const std::string &argument : arguments)
        list << QString::fromStdString(argument);
    if (!m_parser.parse(list)) {
        const QStringList unknown = m_parser.unknownOptionNames();
        if (unknown.isEmpty())
            fail(m_parser.errorText().toStdString());
        else
            fail("unknown option " + std::string(unknown.front().size() == 1 ? "-" : "--") + unknown.front().toStdString());
        return;
    }
    for (const QString &argument : m_parser.positionalArguments())
        m_positional.push_back(argument.toStdString());
}

void CommandLine::fail(const std::string &message)
{
    if (m_error.empty())
        m_error = message;
}

bool CommandLine::has(const std::string &name) const
{
    return m_parser.isSet(QString::fromStdString(name));
}

std::string CommandLine::text(const std::string &name, const std::string &fallback) const
{
    return has(name) ? m_parser.value(QString::fromStdString(name)).toStdString() : fallback;
}

int CommandLine::integer(const std::string &name, int fallback, int min, int max)
{
    return int(ranged(name, FieldType::Integer, fallback, min, max));
}

double CommandLine::number(const std::string &name, double fallback, double min, double max)
{
    return ranged(name, FieldType::Real, fallback, min, max);
}

double CommandLine::ranged(const std::string &name, FieldType type, double fallback, double min, double max)
{
    FieldSpec field;
    field.key = name;
    field.type = type;
    field.minimum = min;
    field.maximum = max;
    FieldValue value;
    return readField(field, &value) ? value.number : fallback;
}

bool CommandLine::readField(const FieldSpec &field, FieldValue *value)
{
    if (field.type == FieldType::Flag) {
        // --key and --no-key: the last one given counts.
        bool given = false;
        for (const QString &name : m_parser.optionNames())
            if (name.toStdString() == field.key || name.toStdString() == "no-" + field.key) {
                given = true;
                value->number = name.toStdString() == field.key ? 1 : 0;
            }
        return given;
    }
    if (!has(field.key))
        return false;
    const std::string problem = parseValue(field, text(field.key), value);
    if (problem.empty())
        return true;
    fail("--" + field.key + " " + problem);
    return false;
}

int usageError(const std::string &command, const std::string &message)
{
    std::cerr << "attnscope " << command << ": " << message << "\n"
              << "Run 'attnscope " << command << " --help' for its options.\n";
    return 2;
}

int failure(const std::string &message)
{
    std::cerr << "error: " << message << "\n";
    return 1;
}

double peakRssMiB()
{
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key) {
        if (key == "VmHWM:") {
            double kb = 0;
            status >> kb;
            return kb / 1024.0;
        }
        status.ignore(4096, '\n');
    }
    return 0;
}
