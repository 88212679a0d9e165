#include "ui/attention/trainingpanel.h"

#include "ui/core/configmap.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

TrainingPanel::TrainingPanel(QWidget *parent)
    : QWidget(parent), m_model(modelConfigFields(), this), m_training(trainingConfigFields(), this)
{
    // The rate spans six decades: each step changes it by a tenth of its own size.
    m_training.widget<QDoubleSpinBox>("lr")->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);

    m_problem = new QLabel;
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("QLabel { color: #b00020; }"));
    m_problem->hide();

    auto *modelBox = new QGroupBox(tr("Model"));
    auto *modelForm = new QFormLayout(modelBox);
    for (const ConfigField<ModelConfig> &field : modelConfigFields())
        m_model.addRow(modelForm, field.key);

    auto *trainingBox = new QGroupBox(tr("Training"));
    auto *trainingForm = new QFormLayout(trainingBox);
    for (const ConfigField<TrainingConfig> &field : trainingConfigFields())
        m_training.addRow(trainingForm, field.key);

    auto *defaults = new QPushButton(tr("Restore Defaults"));
    defaults->setToolTip(tr("Put every model and training setting back to its default."));
    connect(defaults, &QPushButton::clicked, this, [this] {
        setModelConfig(ModelConfig{});
        setTrainingConfig(TrainingConfig{});
    });
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(defaults);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(modelBox);
    layout->addWidget(trainingBox);
    layout->addWidget(m_problem);
    layout->addLayout(buttons);
    layout->addStretch(1);

    m_model.onChanged(this, [this] { changed(); });
    m_training.onChanged(this, [this] { changed(); });

    setModelConfig(ModelConfig{});
    setTrainingConfig(TrainingConfig{});
}

ModelConfig TrainingPanel::modelConfig() const
{
    return m_model.value();
}

TrainingConfig TrainingPanel::trainingConfig() const
{
    return m_training.value();
}

void TrainingPanel::setModelConfig(const ModelConfig &c)
{
    m_updating = true;
    m_model.write(c);
    m_updating = false;
    changed();
}

void TrainingPanel::setTrainingConfig(const TrainingConfig &c)
{
    m_updating = true;
    m_training.write(c);
    m_updating = false;
    changed();
}

QString TrainingPanel::problem() const
{
    std::string problem = validate(modelConfig());
    if (problem.empty())
        problem = validate(trainingConfig());
    if (problem.empty())
        return {};
    QString text = QString::fromStdString(problem);
    text[0] = text[0].toUpper();
    return text + QLatin1Char('.');
}

void TrainingPanel::saveSettings(QSettings &settings) const
{
    settings.beginGroup(QStringLiteral("model"));
    writeSettingsMap(settings, toVariantMap(modelConfig(), modelConfigFields()));
    settings.endGroup();
    settings.beginGroup(QStringLiteral("training"));
    writeSettingsMap(settings, toVariantMap(trainingConfig(), trainingConfigFields()));
    settings.endGroup();
}

void TrainingPanel::restoreSettings(QSettings &settings)
{
    ModelConfig m;
    settings.beginGroup(QStringLiteral("model"));
    readVariantMap(settingsMap(settings), m, modelConfigFields());
    settings.endGroup();
    TrainingConfig t;
    settings.beginGroup(QStringLiteral("training"));
    readVariantMap(settingsMap(settings), t, trainingConfigFields());
    settings.endGroup();
    setModelConfig(m);
    setTrainingConfig(t);
}

void TrainingPanel::changed()
{
    if (m_updating)
        return;
    const QString message = problem();
    m_problem->setText(message);
    m_problem->setVisible(!message.isEmpty());
    emit configChanged();
}
