#pragma once

#include "engine/core/configrecord.h"
#include "engine/core/trainingfields.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <set>

// Checks every lab's suites run on its configuration tables: the table itself, the text and binary
// records derived from it, and the fields all labs share.

// `base` with every field moved off its value and still in range: one step up (down at the
// maximum), the other state of a flag, the next choice, a file name. From the defaults, or from a
// small base where the sizes decide a model's weight.
template <typename Config>
Config changedConfig(const std::vector<ConfigField<Config>> &fields, Config base = Config{})
{
    for (const ConfigField<Config> &field : fields) {
        FieldValue v = field.get(base);
        switch (field.type) {
        case FieldType::Integer:
            v.number += v.number + 2 <= field.maximum ? 2 : -2;
            break;
        case FieldType::Real:
            v.number += v.number + field.step <= field.maximum ? field.step : -field.step;
            break;
        case FieldType::Flag:
            v.number = 1 - v.number;
            break;
        case FieldType::Choice:
            v.number = double((int(v.number) + 1) % int(field.choices.size()));
            break;
        case FieldType::Path:
            v.text = "corpus file.txt";
            break;
        }
        field.set(base, v);
    }
    return base;
}

// Every field of `actual` equals `expected`'s; reals to within the UI's rounding when `fuzzy`.
template <typename Config>
void compareFields(const Config &actual, const Config &expected, const std::vector<ConfigField<Config>> &fields,
                   bool fuzzy = false)
{
    for (const ConfigField<Config> &field : fields) {
        const FieldValue a = field.get(actual), e = field.get(expected);
        const bool same = fuzzy ? std::abs(a.number - e.number) <= 1e-12 * std::max(1.0, std::abs(e.number))
                                : a.number == e.number;
        QVERIFY2(same && a.text == e.text,
                 qPrintable(QStringLiteral("%1: %2, expected %3")
                                .arg(QString::fromStdString(field.key), QString::fromStdString(formatValue(field, a)),
                                     QString::fromStdString(formatValue(field, e)))));
    }
}

// Every field of `config` differs from its default, so that a field lost on the way shows.
template <typename Config>
void checkDiffersFromDefaults(const Config &config, const std::vector<ConfigField<Config>> &fields)
{
    for (const ConfigField<Config> &field : fields) {
        const FieldValue v = field.get(config), d = field.defaultValue();
        QVERIFY2(v.number != d.number || v.text != d.text, field.key.c_str());
    }
}

// The table is sound: keys unique, every field named and explained, every default in its range,
// and a config with every field changed reads back from fieldsText() field for field.
template <typename Config>
void checkTable(const std::vector<ConfigField<Config>> &fields)
{
    std::set<std::string> keys;
    for (const ConfigField<Config> &field : fields) {
        QVERIFY2(keys.insert(field.key).second, qPrintable("repeated key " + QString::fromStdString(field.key)));
        QVERIFY2(!field.label.empty() && !field.help.empty(), field.key.c_str());
        QVERIFY2(field.minimum <= field.maximum, field.key.c_str());
        QVERIFY2(field.type != FieldType::Choice || field.choices.size() >= 2, field.key.c_str());
        QCOMPARE(QString::fromStdString(checkValue(field, field.defaultValue())), QString());
    }
    const Config changed = changedConfig(fields);
    checkDiffersFromDefaults(changed, fields);
    QCOMPARE(QString::fromStdString(checkFields(changed, fields)), QString());
    Config back;
    QCOMPARE(QString::fromStdString(readFieldsText(fieldsText(changed, fields), back, fields)), QString());
    compareFields(back, changed, fields);
}

// Stands in for a config's member in the shared fields' reference specs below.
struct SharedFieldProbe {
    int value = 0;
};

// The threads, epochs and seed fields among `fields` are engine/core/trainingfields.h's: one key,
// label, range and meaning of the minimum in every lab. The table has `expected` of them.
template <typename Config>
void checkSharedFields(const std::vector<ConfigField<Config>> &fields, int expected)
{
    const FieldSpec shared[] = {threadsField<&SharedFieldProbe::value>(""),
                                epochsField<&SharedFieldProbe::value>(""), seedField<&SharedFieldProbe::value>("")};
    int found = 0;
    for (const ConfigField<Config> &field : fields)
        for (const FieldSpec &spec : shared) {
            if (field.key != spec.key)
                continue;
            ++found;
            QVERIFY2(field.type == spec.type && field.label == spec.label && field.minimum == spec.minimum
                         && field.maximum == spec.maximum && field.minimumMeans == spec.minimumMeans,
                     qPrintable(QStringLiteral("%1: %2 to %3").arg(QString::fromStdString(field.key)).arg(field.minimum)
                                    .arg(field.maximum)));
        }
    QCOMPARE(found, expected);
}

namespace configtablechecks_detail {
// The value of the field checkAddedFieldIsStored() adds; it lives beside the config because some
// configs have no member outside their table.
template <typename Config>
double addedValue = 0;
}

// A field added to the table is stored by writeConfig() and read back by readConfig() with no other
// edit, whatever the fields' order; a record written before the field existed still reads.
template <typename Config>
void checkAddedFieldIsStored(const std::vector<ConfigField<Config>> &fields)
{
    using configtablechecks_detail::addedValue;
    ConfigField<Config> added;
    static_cast<FieldSpec &>(added) = {"added-field", FieldType::Integer, "added field", "A field added by a test.",
                                       0, 1000, 1, "", {}};
    added.get = [](const Config &) {
        FieldValue v;
        v.number = addedValue<Config>;
        return v;
    };
    added.set = [](Config &, const FieldValue &v) { addedValue<Config> = v.number; };
    std::vector<ConfigField<Config>> extended = fields;
    extended.insert(extended.begin() + std::ptrdiff_t(extended.size() / 2), added);

    const Config config = changedConfig(fields);
    addedValue<Config> = 7;
    BinaryWriter w;
    writeConfig(w, config, extended);
    addedValue<Config> = 0;
    std::vector<ConfigField<Config>> reversed(extended.rbegin(), extended.rend());
    BinaryReader r(w.bytes().data(), w.bytes().size());
    compareFields(readConfig(r, reversed, "test"), config, fields);
    QCOMPARE(addedValue<Config>, 7.0);
    QVERIFY(r.atEnd());

    BinaryWriter before;
    writeConfig(before, config, fields);
    addedValue<Config> = 3;
    BinaryReader older(before.bytes().data(), before.bytes().size());
    compareFields(readConfig(older, extended, "test"), config, fields);
    QCOMPARE(addedValue<Config>, 3.0);
}

// The whole check of one table: sound, with `sharedFields` of the shared fields (threads, epochs,
// seed) as every lab has them, and a field added to it stored with no other edit.
template <typename Config>
void checkConfigTable(const std::vector<ConfigField<Config>> &fields, int sharedFields)
{
    checkTable(fields);
    checkSharedFields(fields, sharedFields);
    checkAddedFieldIsStored(fields);
}

// The text of the writeConfig() record a payload starts with, and the payload with another text
// in its place: how the tests damage a file's settings.
inline std::string leadingConfigText(const std::string &payload)
{
    BinaryReader r(payload.data(), payload.size());
    return r.string();
}

inline std::string withLeadingConfigText(const std::string &payload, const std::string &text)
{
    BinaryWriter w;
    w.string(text);
    return w.bytes() + payload.substr(4 + leadingConfigText(payload).size());
}
