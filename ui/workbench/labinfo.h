#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

// A kind of file a lab opens and saves. Files are told apart by their first bytes, not their names:
// two labs both write .ckpt files.
struct FileType {
    QString description;   // "AttnScope project"
    QStringList suffixes;  // the first is the one Save As adds: {"attnscope"}
    QString mimeType;      // registered by the package (resources/…mime.xml); empty for other programs' formats
    std::function<bool(const QByteArray &head)> recognises;  // the file's first kHeadBytes bytes (or fewer)

    static constexpr int kHeadBytes = 64 * 1024;
    QString filter() const;  // "AttnScope project (*.attnscope)"
};

// What the window knows of a lab besides its Lab object: the registry's entry for it. The lab's icon,
// start-page picture and guide are the resources :/labs/<id>/icon.svg, picture.png and guide.md.
struct LabInfo {
    QString id;          // "attention": also the lab's settings group
    QString name;        // "Attention"
    QString switcherName;  // the name under its icon in the lab switcher, broken into lines
    QString summary;     // one sentence of what you learn there, for the start page
    QList<FileType> fileTypes;

    QString resource(const QString &file) const { return QStringLiteral(":/labs/%1/%2").arg(id, file); }
};
