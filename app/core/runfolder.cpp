#include "app/core/runfolder.h"

#include "app/core/commandline.h"
#include "ui/core/plotexport.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>

bool RunFolder::create(std::string *error)
{
    const QString path = QString::fromStdString(m_path);
    m_created = !QFileInfo::exists(path);
    if (!QDir().mkpath(path) || !QFileInfo(path).isDir()) {
        *error = "cannot create output folder '" + m_path + "'";
        return false;
    }
    return true;
}

QString RunFolder::file(const std::string &name) const
{
    return QDir(QString::fromStdString(m_path)).filePath(QString::fromStdString(name));
}

void RunFolder::abandon() const
{
    if (m_created)
        QDir().rmdir(QString::fromStdString(m_path));  // only when empty
}

bool RunFolder::writeMetrics(QJsonObject metrics, QString *error) const
{
    metrics.insert(QStringLiteral("peak_rss_mib"), peakRssMiB());
    return writeFileAtomically(file("metrics.json"), QJsonDocument(metrics).toJson(QJsonDocument::Indented), error);
}
