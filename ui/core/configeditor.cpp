#include "ui/core/configeditor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSpinBox>

#include <cmath>

namespace {

QString capitalised(const std::string &text)
{
    QString s = QString::fromStdString(text);
    if (!s.isEmpty())
        s[0] = s[0].toUpper();
    return s;
}

// Enough decimals to show the range's ends and the step exactly.
int decimalsFor(const FieldSpec &field)
{
    constexpr int kMaxDecimals = 10;
    int decimals = 0;
    for (double v : {field.minimum, field.maximum, field.step}) {
        int d = 0;
        for (double scaled = std::abs(v); d < kMaxDecimals && std::abs(scaled - std::round(scaled)) > 1e-9 * scaled;
             scaled *= 10)
            ++d;
        decimals = std::max(decimals, d);
    }
    return decimals;
}

// Shows only the decimals a value needs ("0.002", not "0.002000"), so that a field whose range
// reaches 1e-6 still reads plainly.
class RealSpinBox : public QDoubleSpinBox
{
public:
    using QDoubleSpinBox::QDoubleSpinBox;

    QString textFromValue(double value) const override
    {
        QString text = locale().toString(value, 'f', decimals());
        if (!isGroupSeparatorShown())
            text.remove(locale().groupSeparator());
        const QString point = locale().decimalPoint();
        if (text.contains(point)) {
            while (text.endsWith(QLatin1Char('0')))
                text.chop(1);
            if (text.endsWith(point))
                text.chop(point.size());
        }
        return text;
    }
};

}

namespace fieldwidget {

QWidget *create(const FieldSpec &field, QWidget *parent)
{
    QWidget *widget = nullptr;
    switch (field.type) {
    case FieldType::Integer: {
        auto *box = new QSpinBox(parent);
        box->setRange(int(field.minimum), int(field.maximum));
        box->setGroupSeparatorShown(true);
        box->setSpecialValueText(capitalised(field.minimumMeans));
        widget = box;
        break;
    }
    case FieldType::Real: {
        auto *box = new RealSpinBox(parent);
        box->setDecimals(decimalsFor(field));
        box->setRange(field.minimum, field.maximum);
        box->setSingleStep(field.step);
        box->setSpecialValueText(capitalised(field.minimumMeans));
        widget = box;
        break;
    }
    case FieldType::Flag:
        widget = new QCheckBox(capitalised(field.label), parent);
        break;
    case FieldType::Choice: {
        auto *box = new QComboBox(parent);
        for (const std::string &choice : field.choices)
            box->addItem(QString::fromStdString(choice));
        widget = box;
        break;
    }
    case FieldType::Path:
        return nullptr;
    }
    widget->setObjectName(QString::fromStdString(field.key));
    widget->setToolTip(QString::fromStdString(field.help));
    return widget;
}

double value(const QWidget *widget)
{
    if (const auto *box = qobject_cast<const QSpinBox *>(widget))
        return box->value();
    if (const auto *box = qobject_cast<const QDoubleSpinBox *>(widget))
        return box->value();
    if (const auto *box = qobject_cast<const QCheckBox *>(widget))
        return box->isChecked() ? 1 : 0;
    return qobject_cast<const QComboBox *>(widget)->currentIndex();
}

void setValue(QWidget *widget, double value)
{
    if (auto *box = qobject_cast<QSpinBox *>(widget))
        box->setValue(int(std::min<double>(value, box->maximum())));
    else if (auto *box = qobject_cast<QDoubleSpinBox *>(widget))
        box->setValue(value);
    else if (auto *box = qobject_cast<QCheckBox *>(widget))
        box->setChecked(value != 0);
    else
        qobject_cast<QComboBox *>(widget)->setCurrentIndex(int(value));
}

void onChanged(QWidget *widget, const QObject *context, const std::function<void()> &slot)
{
    if (auto *box = qobject_cast<QSpinBox *>(widget))
        QObject::connect(box, &QSpinBox::valueChanged, context, slot);
    else if (auto *box = qobject_cast<QDoubleSpinBox *>(widget))
        QObject::connect(box, &QDoubleSpinBox::valueChanged, context, slot);
    else if (auto *box = qobject_cast<QCheckBox *>(widget))
        QObject::connect(box, &QCheckBox::toggled, context, slot);
    else
        QObject::connect(qobject_cast<QComboBox *>(widget), &QComboBox::currentIndexChanged, context, slot);
}

void addRow(QFormLayout *form, const FieldSpec &field, QWidget *widget)
{
    if (field.type == FieldType::Flag)
        form->addRow(widget);
    else
        form->addRow(capitalised(field.label) + QLatin1Char(':'), widget);
}

}
