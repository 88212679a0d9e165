#pragma once

#include "engine/core/configfield.h"

#include <QJsonObject>
#include <QVariantMap>

class QSettings;

// A configuration as key-value pairs, the form the settings and the JSON files hold it in: numbers
// as numbers, flags as booleans, choices by name, each under its field's key with '_' for '-'
// ("min_len").
QString mapKey(const FieldSpec &field);
QVariant toVariant(const FieldSpec &field, const FieldValue &value);
// False when `variant` is not a value of the field or is out of its range.
bool fromVariant(const FieldSpec &field, const QVariant &variant, FieldValue *value);

// The pairs in the current group of `settings`, and writing pairs into it.
QVariantMap settingsMap(const QSettings &settings);
void writeSettingsMap(QSettings &settings, const QVariantMap &map);

template <typename Config>
QVariantMap toVariantMap(const Config &config, const std::vector<ConfigField<Config>> &fields)
{
    QVariantMap map;
    for (const ConfigField<Config> &field : fields)
        map.insert(mapKey(field), toVariant(field, field.get(config)));
    return map;
}

// Fields that `map` lacks or holds an unreadable value for keep their value in `config`.
template <typename Config>
void readVariantMap(const QVariantMap &map, Config &config, const std::vector<ConfigField<Config>> &fields)
{
    for (const ConfigField<Config> &field : fields) {
        const auto found = map.find(mapKey(field));
        FieldValue value;
        if (found != map.end() && fromVariant(field, *found, &value))
            field.set(config, value);
    }
}

template <typename Config>
QJsonObject toJson(const Config &config, const std::vector<ConfigField<Config>> &fields)
{
    return QJsonObject::fromVariantMap(toVariantMap(config, fields));
}
