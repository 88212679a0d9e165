#include "app/workbench/otherlabfile.h"

#include "app/workbench/labmodule.h"

#include <QFile>

std::string otherLabsFile(const std::string &path, const std::string &labId, const std::string &expected)
{
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray head = file.read(FileType::kHeadBytes);
    for (const LabModule &module : labModules()) {
        if (module.info.id.toStdString() == labId)
            continue;
        for (const FileType &type : module.info.fileTypes) {
            if (!type.recognises(head))
                continue;
            std::string problem = "it is a file of the " + module.info.name.toStdString() + " lab (" +
                                  type.description.toStdString() + "), not " + expected;
            for (const Command &command : module.commands)
                if (!command.architecture.empty())
                    return problem + "; use --architecture " + command.architecture;
            return problem;
        }
    }
    return {};
}
