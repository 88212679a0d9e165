#include "ui/charlm/samplehistory.h"

#include "ui/charlm/ucs4text.h"

#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QTextCursor>
#include <QTextEdit>
#include <QVBoxLayout>

#include <cmath>

SampleHistory::SampleHistory(QWidget *parent)
    : QWidget(parent), m_every(new QSpinBox), m_length(new QSpinBox), m_temperature(new QDoubleSpinBox),
      m_view(new QTextEdit)
{
    const CharProbeSettings defaults;
    m_every->setObjectName(QStringLiteral("sampleEvery"));
    m_every->setRange(1, 100000);
    m_every->setValue(defaults.every);
    m_every->setToolTip(tr("A sample is drawn after every this many iterations (windows trained), and once before "
                           "training and once at the end. Applies from the next run."));
    m_length->setObjectName(QStringLiteral("sampleLength"));
    m_length->setRange(10, 2000);
    m_length->setValue(defaults.length);
    m_length->setToolTip(tr("Characters in each sample, after the text's first character."));
    m_temperature->setObjectName(QStringLiteral("sampleTemperature"));
    m_temperature->setRange(0, 2);
    m_temperature->setSingleStep(0.1);
    m_temperature->setDecimals(2);
    m_temperature->setSpecialValueText(tr("greedy"));
    m_temperature->setValue(defaults.temperature);
    m_temperature->setToolTip(tr("Divides the logits before the softmax: below 1 the likely characters get likelier, "
                                 "above 1 the distribution flattens; 0 always takes the likeliest."));

    m_view->setObjectName(QStringLiteral("sampleHistory"));
    m_view->setReadOnly(true);
    m_view->setLineWrapMode(QTextEdit::WidgetWidth);
    m_view->setPlaceholderText(tr("Samples drawn while the model trains appear here, each under the iteration it "
                                  "was drawn at and the loss then."));

    auto *title = new QLabel(tr("<b>Samples over training</b>"));
    // Two short rows rather than one long one: the page must fit beside the setup on a laptop.
    auto *when = new QHBoxLayout;
    when->addWidget(new QLabel(tr("Every")));
    when->addWidget(m_every);
    when->addWidget(new QLabel(tr("iterations:")));
    when->addStretch(1);
    auto *what = new QHBoxLayout;
    what->addWidget(m_length);
    what->addWidget(new QLabel(tr("characters at temperature")));
    what->addWidget(m_temperature);
    what->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(title);
    layout->addLayout(when);
    layout->addLayout(what);
    layout->addWidget(m_view, 1);
}

CharProbeSettings SampleHistory::settings() const
{
    CharProbeSettings settings;
    settings.every = m_every->value();
    settings.length = m_length->value();
    settings.temperature = m_temperature->value();
    return settings;
}

void SampleHistory::clear()
{
    m_samples.clear();
    m_dropped = false;
    m_view->clear();
}

void SampleHistory::addSample(const CharProbe &probe)
{
    QString heading = probe.iteration == 0 ? tr("Before training")
                                           : tr("Iteration %1 (epoch %2)").arg(probe.iteration).arg(probe.epochPosition, 0, 'f', 1);
    if (std::isfinite(probe.bitsPerChar))
        heading += tr(" · %1 bits/char").arg(probe.bitsPerChar, 0, 'f', 3);
    heading += probe.memorised == 1 ? tr(" · recites 1 character") : tr(" · recites %1 characters").arg(probe.memorised);
    const Entry entry{heading, fromUcs4(probe.prime), fromUcs4(probe.sample)};
    m_samples.push_back(entry);
    if (int(m_samples.size()) > kMaxSamples) {
        // Keep the first (the untrained model's) and drop the oldest tenth after it in one go.
        m_samples.erase(m_samples.begin() + 1, m_samples.begin() + 1 + kMaxSamples / 10);
        m_dropped = true;
        render();
        return;
    }
    append(entry);
}

void SampleHistory::append(const Entry &entry)
{
    QScrollBar *scroll = m_view->verticalScrollBar();
    const bool atEnd = scroll->value() >= scroll->maximum() - 4;
    QTextCursor cursor(m_view->document());
    cursor.movePosition(QTextCursor::End);
    if (!m_view->document()->isEmpty())
        cursor.insertBlock();
    QTextCharFormat heading;
    heading.setFontWeight(QFont::Bold);
    heading.setForeground(QColor(20, 45, 120));
    cursor.insertText(entry.heading, heading);
    cursor.insertBlock();
    QTextCharFormat prime;
    prime.setFontFamilies({QFontDatabase::systemFont(QFontDatabase::FixedFont).family()});
    prime.setForeground(QColor(140, 140, 140));
    QTextCharFormat sample = prime;
    sample.setForeground(palette().color(QPalette::Text));
    cursor.insertText(entry.prime, prime);
    cursor.insertText(entry.sample, sample);
    cursor.insertBlock();
    if (atEnd)
        scroll->setValue(scroll->maximum());
}

void SampleHistory::render()
{
    m_view->clear();
    for (size_t i = 0; i < m_samples.size(); ++i) {
        append(m_samples[i]);
        if (i == 0 && m_dropped) {
            QTextCursor cursor(m_view->document());
            cursor.movePosition(QTextCursor::End);
            QTextCharFormat note;
            note.setFontItalic(true);
            cursor.insertText(tr("(earlier samples dropped)"), note);
        }
    }
}

QString SampleHistory::plainText() const
{
    QString text;
    for (const Entry &entry : m_samples)
        text += QStringLiteral("== %1 ==\n%2%3\n\n").arg(entry.heading, entry.prime, entry.sample);
    return text;
}

void SampleHistory::saveSettings(QSettings &settings) const
{
    settings.setValue(QStringLiteral("sampleEvery"), m_every->value());
    settings.setValue(QStringLiteral("sampleLength"), m_length->value());
    settings.setValue(QStringLiteral("sampleTemperature"), m_temperature->value());
}

void SampleHistory::restoreSettings(QSettings &settings)
{
    m_every->setValue(settings.value(QStringLiteral("sampleEvery"), m_every->value()).toInt());
    m_length->setValue(settings.value(QStringLiteral("sampleLength"), m_length->value()).toInt());
    m_temperature->setValue(settings.value(QStringLiteral("sampleTemperature"), m_temperature->value()).toDouble());
}
