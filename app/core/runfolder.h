#pragma once

#include <QJsonObject>
#include <QString>

#include <string>

// The output folder of a command that trains (--out DIR): made once everything that can be refused
// has been read, taken back when the run ends before writing anything in it, and its metrics.json
// written with the process's peak memory, as every such command reports it.
class RunFolder
{
public:
    explicit RunFolder(std::string path) : m_path(std::move(path)) {}

    // Makes the folder and its parents; false with `error` ("cannot create output folder 'DIR'").
    bool create(std::string *error);
    const std::string &path() const { return m_path; }
    QString file(const std::string &name) const;
    // Removes the folder if create() made it and it is still empty.
    void abandon() const;
    // metrics.json: `metrics` with "peak_rss_mib" added.
    bool writeMetrics(QJsonObject metrics, QString *error) const;

private:
    std::string m_path;
    bool m_created = false;
};
