#include "ui/core/configmap.h"

#include <QSettings>

QString mapKey(const FieldSpec &field)
{
    return QString::fromStdString(field.key).replace(QLatin1Char('-'), QLatin1Char('_'));
}

QVariant toVariant(const FieldSpec &field, const FieldValue &value)
{
    switch (field.type) {
    case FieldType::Integer:
        return qlonglong(value.number);
    case FieldType::Real:
        return value.number;
    case FieldType::Flag:
        return value.number != 0;
    case FieldType::Choice:
    case FieldType::Path:
        return QString::fromStdString(formatValue(field, value));
    }
    return {};
}

bool fromVariant(const FieldSpec &field, const QVariant &variant, FieldValue *value)
{
    const int type = variant.typeId();
    const bool number = type == QMetaType::Int || type == QMetaType::LongLong || type == QMetaType::UInt
                        || type == QMetaType::ULongLong || type == QMetaType::Double;
    FieldValue read;
    // JSON and a fresh QSettings give typed values; a settings file read back gives strings.
    if ((field.type == FieldType::Integer || field.type == FieldType::Real) && number)
        read.number = variant.toDouble();
    else if (field.type == FieldType::Flag && type == QMetaType::Bool)
        read.number = variant.toBool() ? 1 : 0;
    else if (type != QMetaType::QString || !parseValue(field, variant.toString().toStdString(), &read).empty())
        return false;
    if (!checkValue(field, read).empty())
        return false;
    *value = read;
    return true;
}

QVariantMap settingsMap(const QSettings &settings)
{
    QVariantMap map;
    for (const QString &key : settings.childKeys())
        map.insert(key, settings.value(key));
    return map;
}

void writeSettingsMap(QSettings &settings, const QVariantMap &map)
{
    for (auto it = map.begin(); it != map.end(); ++it)
        settings.setValue(it.key(), it.value());
}
