#pragma once

#include <QJsonObject>

#include <string>

// A command's figures as JSON: writes `root` to `path` (whole or not at all) unless `path` is
// empty. Returns the command's exit code: 0, or 1 with the reason on stderr.
int writeJsonReport(const std::string &path, const QJsonObject &root);
