#include "app/core/jsonreport.h"

#include "engine/core/atomicfile.h"

#include <QJsonDocument>

#include <exception>
#include <iostream>

int writeJsonReport(const std::string &path, const QJsonObject &root)
{
    if (path.empty())
        return 0;
    try {
        writeFileAtomically(path, QJsonDocument(root).toJson().toStdString());
    } catch (const std::exception &error) {
        std::cerr << "error: " << error.what() << "\n";
        return 1;
    }
    return 0;
}
