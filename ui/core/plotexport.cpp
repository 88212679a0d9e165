#include "ui/core/plotexport.h"

#include "engine/core/atomicfile.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
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

enum class ImageKind { Png, Jpeg, Pdf, Svg };

// The kind the suffix names, checked along with the size and the target; false says why.
bool checkExport(const QString &path, int width, int height, ImageKind *kind, QString *error)
{
    if (width <= 0 || height <= 0 || width > kMaxExportSide || height > kMaxExportSide)
        return fail(error, QStringLiteral("Image size %1 x %2 is out of range (1..%3 pixels a side).")
                               .arg(width).arg(height).arg(kMaxExportSide));
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        *kind = ImageKind::Png;
    else if (suffix == QLatin1String("jpg") || suffix == QLatin1String("jpeg"))
        *kind = ImageKind::Jpeg;
    else if (suffix == QLatin1String("pdf"))
        *kind = ImageKind::Pdf;
    else if (suffix == QLatin1String("svg"))
        *kind = ImageKind::Svg;
    else
        return fail(error, QStringLiteral("Unsupported image type \"%1\": use .png, .jpg, .pdf or .svg.")
                               .arg(suffix.isEmpty() ? path : QLatin1Char('.') + suffix));
    return checkTarget(path, error);
}

bool saveRaster(const QImage &image, ImageKind kind, const QString &path, QString *error)
{
    const char *format = kind == ImageKind::Png ? "PNG" : "JPG";
    QByteArray encoded;
    QBuffer buffer(&encoded);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, format))
        return fail(error, QStringLiteral("Cannot encode %1 as %2").arg(path, QString::fromLatin1(format)));
    return writeFileAtomically(path, encoded, error);
}

// SVG keeps text as text and lines as paths, for editors and documents that scale it. `paint`
// draws a width x height picture with the painter it is given.
bool saveSvg(const QString &path, int width, int height, const std::function<bool(QCPPainter &)> &paint,
             QString *error)
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
    if (!painter.begin(&generator) || !paint(painter))
        return fail(error, QStringLiteral("Cannot write SVG %1").arg(path));
    painter.end();
    return writeFileAtomically(path, encoded, error);
}

// The PDF writers only write to a file name: render into a private folder, then move the bytes over.
bool savePdf(const QString &path, const std::function<bool(const QString &rendered)> &render, QString *error)
{
    const QTemporaryDir folder;
    const QString rendered = folder.filePath(QStringLiteral("image.pdf"));
    if (!folder.isValid() || !render(rendered))
        return fail(error, QStringLiteral("Cannot write PDF %1").arg(path));
    QFile file(rendered);
    if (!file.open(QIODevice::ReadOnly))
        return fail(error, QStringLiteral("Cannot write PDF %1: %2").arg(path, file.errorString()));
    return writeFileAtomically(path, file.readAll(), error);
}

} // namespace

bool exportPlotImage(QCustomPlot &plot, const QString &path, int width, int height, QString *error)
{
    ImageKind kind;
    if (!checkExport(path, width, height, &kind, error))
        return false;
    if (kind == ImageKind::Svg)
        return saveSvg(path, width, height, [&](QCPPainter &painter) {
            plot.toPainter(&painter, width, height);
            return true;
        }, error);
    if (kind == ImageKind::Pdf)
        return savePdf(path, [&](const QString &rendered) { return plot.savePdf(rendered, width, height); }, error);

    const QSize layout = exportLayoutSize(width, height);
    QImage image = plot.toPixmap(layout.width(), layout.height(), double(width) / layout.width()).toImage();
    if (image.isNull())
        return fail(error, QStringLiteral("Could not render the plot at %1 x %2.").arg(width).arg(height));
    if (image.size() != QSize(width, height))  // a pixel lost to rounding the scale
        image = image.scaled(width, height, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    return saveRaster(image, kind, path, error);
}

bool exportPaintedImage(const QString &path, QSize size, const std::function<void(QPainter &, const QRectF &)> &paint,
                        QString *error, double rasterScale)
{
    ImageKind kind;
    if (!checkExport(path, size.width(), size.height(), &kind, error))
        return false;
    const QSize pixels = size * rasterScale;
    if ((kind == ImageKind::Png || kind == ImageKind::Jpeg) && !checkExport(path, pixels.width(), pixels.height(), &kind, error))
        return false;
    const QRectF area(QPointF(0, 0), QSizeF(size));
    const auto onWhite = [&](QPainter &painter) {
        painter.fillRect(area, Qt::white);
        paint(painter, area);
        return true;
    };
    if (kind == ImageKind::Svg)
        return saveSvg(path, size.width(), size.height(), onWhite, error);
    if (kind == ImageKind::Pdf)
        return savePdf(path, [&](const QString &rendered) {
            QPdfWriter writer(rendered);
            writer.setPageSize(QPageSize(QSizeF(size), QPageSize::Point));
            writer.setPageMargins(QMarginsF());
            writer.setResolution(72);  // one painter unit a point
            QPainter painter;
            return painter.begin(&writer) && onWhite(painter) && painter.end();
        }, error);
    QImage image(pixels, QImage::Format_RGB32);
    image.setDevicePixelRatio(rasterScale);
    QPainter painter(&image);
    onWhite(painter);
    painter.end();
    return saveRaster(image, kind, path, error);
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
