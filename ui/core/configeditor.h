#pragma once

#include "engine/core/configfield.h"

#include <QWidget>

#include <functional>
#include <vector>

class QFormLayout;

// The input widget of one number, flag or choice field, made from its description: a spin box
// with the field's range and step (and its special minimum, "Off", shown as text), a check box
// or a combo box, with the field's help as its tooltip and its key as its objectName.
namespace fieldwidget {
QWidget *create(const FieldSpec &field, QWidget *parent);
double value(const QWidget *widget);  // as FieldValue::number
void setValue(QWidget *widget, double value);
void onChanged(QWidget *widget, const QObject *context, const std::function<void()> &slot);
// A row for `widget`: the field's label before it, or a check box on its own.
void addRow(QFormLayout *form, const FieldSpec &field, QWidget *widget);
}

// The widgets of a configuration's number, flag and choice fields, one per field of its table.
// Path fields get none: the panel knows how it wants a file chosen.
template <typename Config>
class ConfigEditor
{
public:
    ConfigEditor(const std::vector<ConfigField<Config>> &fields, QWidget *parent) : m_fields(fields)
    {
        for (const ConfigField<Config> &field : fields)
            m_widgets.push_back(field.type == FieldType::Path ? nullptr : fieldwidget::create(field, parent));
    }

    // The widget of the field `key`: a QSpinBox, QDoubleSpinBox, QCheckBox or QComboBox.
    template <typename Widget = QWidget>
    Widget *widget(const std::string &key) const
    {
        return qobject_cast<Widget *>(m_widgets.at(index(key)));
    }

    const FieldSpec &field(const std::string &key) const { return m_fields.at(index(key)); }

    void addRow(QFormLayout *form, const std::string &key) const
    {
        fieldwidget::addRow(form, m_fields.at(index(key)), m_widgets.at(index(key)));
    }

    // Sets the fields that have widgets; the others keep their value in `config`.
    void read(Config &config) const
    {
        for (std::size_t i = 0; i < m_fields.size(); ++i)
            if (m_widgets[i]) {
                FieldValue value;
                value.number = fieldwidget::value(m_widgets[i]);
                m_fields[i].set(config, value);
            }
    }

    // A config with the widgets' values and the defaults for the fields without one.
    Config value() const
    {
        Config config;
        read(config);
        return config;
    }

    void write(const Config &config) const
    {
        for (std::size_t i = 0; i < m_fields.size(); ++i)
            if (m_widgets[i])
                fieldwidget::setValue(m_widgets[i], m_fields[i].get(config).number);
    }

    void onChanged(const QObject *context, const std::function<void()> &slot) const
    {
        for (QWidget *widget : m_widgets)
            if (widget)
                fieldwidget::onChanged(widget, context, slot);
    }

private:
    std::size_t index(const std::string &key) const
    {
        std::size_t i = 0;
        while (i < m_fields.size() && m_fields[i].key != key)
            ++i;
        return i;  // past the end when unknown: at() throws
    }

    const std::vector<ConfigField<Config>> &m_fields;
    std::vector<QWidget *> m_widgets;
};
