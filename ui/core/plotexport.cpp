#include "ui/core/plotexport.h"

#include "engine/core/atomicfile.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QSvgGenerator>
#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <stdexcept>
#include <string_view>

namespace {

// Larger exports would need gigabytes of memory for no reader's benefit.
constexpr int kMaxExportSide = 20000;
// Widest layout of an exported raster image, in pixels before scaling: about a docked plot's width.
constexpr double kMaxLayoutWidth = 900;

bool fail(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return false;
}

bool checkTarget(const QString &path, QString *error)
{
    if (path.isEmpty())
        return fail(error, QStringLiteral("No file name given."));
    const QFileInfo info(path);
    if (!info.absoluteDir().exists())
        return fail(error, QStringLiteral("Folder does not exist: %1").arg(info.absolutePath()));
    if (info.isDir())
        return fail(error, QStringLiteral("%1 is a folder, not a file.").arg(path));
    return true;
}

bool savePdf(QCustomPlot &plot, const QString &path, int width, int height, QString *error)
{
    // savePdf only writes to a file name: render into a private folder, then move the bytes over.
    const QTemporaryDir folder;
    const QString rendered = folder.filePath(QStringLiteral("plot.pdf"));
    if (!folder.isValid() || !plot.savePdf(rendered, width, height))
        return fail(error, QStringLiteral("Cannot write PDF %1").arg(path));
    QFile file(rendered);
    if (!file.open(QIODevice::ReadOnly))
        return fail(error, QStringLiteral("Cannot write PDF %1: %2").arg(path, file.errorString()));
    return writeFileAtomically(path, file.readAll(), error);
}

// SVG keeps text as text and lines as paths, for editors and documents that scale it.
bool saveSvg(QCustomPlot &plot, const QString &path, int width, int height, QString *error)
{
    QByteArray encoded;
    QBuffer buffer(&encoded);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(QSize(width, height));
    generator.setViewBox(QRect(0, 0, width, height));
    generator.setTitle(QFileInfo(path).completeBaseName());
    QCPPainter painter;
    if (!painter.begin(&generator))
        return fail(error, QStringLiteral("Cannot write SVG %1").arg(path));
    plot.toPainter(&painter, width, height);
    painter.end();
    return writeFileAtomically(path, encoded, error);
}

} // namespace

bool exportPlotImage(QCustomPlot &plot, const QString &path, int width, int height, QString *error)
{
    if (width <= 0 || height <= 0 || width > kMaxExportSide || height > kMaxExportSide)
        return fail(error, QStringLiteral("Image size %1 x %2 is out of range (1..%3 pixels a side).")
                               .arg(width).arg(height).arg(kMaxExportSide));
    const QString suffix = QFileInfo(path).suffix().toLower();
    const char *format = nullptr;
    if (suffix == QLatin1String("png"))
        format = "PNG";
    else if (suffix == QLatin1String("jpg") || suffix == QLatin1String("jpeg"))
        format = "JPG";
    else if (suffix != QLatin1String("pdf") && suffix != QLatin1String("svg"))
        return fail(error, QStringLiteral("Unsupported image type \"%1\": use .png, .jpg, .pdf or .svg.")
                               .arg(suffix.isEmpty() ? path : QLatin1Char('.') + suffix));
    if (!checkTarget(path, error))
        return false;
    if (suffix == QLatin1String("svg"))
        return saveSvg(plot, path, width, height, error);
    if (!format)
        return savePdf(plot, path, width, height, error);

    const QSize layout = exportLayoutSize(width, height);
    QImage image = plot.toPixmap(layout.width(), layout.height(), double(width) / layout.width()).toImage();
    if (image.isNull())
        return fail(error, QStringLiteral("Could not render the plot at %1 x %2.").arg(width).arg(height));
    if (image.size() != QSize(width, height))  // a pixel lost to rounding the scale
        image = image.scaled(width, height, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    QByteArray encoded;
    QBuffer buffer(&encoded);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, format))
        return fail(error, QStringLiteral("Cannot encode %1 as %2").arg(path, QString::fromLatin1(format)));
    return writeFileAtomically(path, encoded, error);
}

QSize exportLayoutSize(int width, int height)
{
    const double scale = std::max(1.0, width / kMaxLayoutWidth);
    return QSize(std::max(1, qRound(width / scale)), std::max(1, qRound(height / scale)));
}

bool writeFileAtomically(const QString &path, const QByteArray &contents, QString *error)
{
    if (!checkTarget(path, error))
        return false;
    try {
        writeFileAtomically(QFile::encodeName(path).toStdString(),
                            std::string_view(contents.constData(), std::size_t(contents.size())));
    } catch (const std::runtime_error &failure) {
        return fail(error, QString::fromLocal8Bit(failure.what()));
    }
    return true;
}

QString csvField(const QString &text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"'))
        && !text.contains(QLatin1Char('\n')) && !text.contains(QLatin1Char('\r')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}
