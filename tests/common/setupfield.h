#pragma once

#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QTest>

// Sets the number box named `key` (a config field's key) inside `panel`, as a person typing it would.
inline void setNumberField(QWidget *panel, const char *key, double value)
{
    QWidget *field = panel->findChild<QWidget *>(QString::fromLatin1(key));
    QVERIFY2(field, key);
    if (auto *box = qobject_cast<QSpinBox *>(field))
        box->setValue(int(value));
    else if (auto *real = qobject_cast<QDoubleSpinBox *>(field))
        real->setValue(value);
    else
        QFAIL(key);
}
