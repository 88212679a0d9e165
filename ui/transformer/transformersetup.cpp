#include "ui/transformer/transformersetup.h"

#include "ui/core/configmap.h"

#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace {

template <typename Config>
QGroupBox *editorBox(const QString &title, const ConfigEditor<Config> &editor,
                     const std::vector<ConfigField<Config>> &fields, QWidget *extraRow = nullptr,
                     const QString &extraLabel = {})
{
    auto *box = new QGroupBox(title);
    auto *form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    if (extraRow)
        form->addRow(extraLabel, extraRow);
    for (const ConfigField<Config> &field : fields)
        if (field.type != FieldType::Path)
            editor.addRow(form, field.key);
    return box;
}

template <typename Config>
void saveGroup(QSettings &settings, const QString &group, const Config &config,
               const std::vector<ConfigField<Config>> &fields)
{
    settings.beginGroup(group);
    writeSettingsMap(settings, toVariantMap(config, fields));
    settings.endGroup();
}

template <typename Config>
Config restoredGroup(QSettings &settings, const QString &group, const std::vector<ConfigField<Config>> &fields)
{
    settings.beginGroup(group);
    Config config;
    readVariantMap(settingsMap(settings), config, fields);
    settings.endGroup();
    return config;
}

}  // namespace

TransformerSetup::TransformerSetup(QWidget *parent)
    : QWidget(parent), m_data(datasetConfigFields(), this), m_model(transformerConfigFields(), this),
      m_training(transformerTrainingConfigFields(), this), m_corpus(new QLineEdit)
{
    m_corpus->setObjectName(QStringLiteral("corpus"));
    m_corpus->setPlaceholderText(tr("none: generated from the word list"));
    m_corpus->setClearButtonEnabled(true);
    m_corpus->setToolTip(tr("Sentences from this UTF-8 text file, one per line, instead of generated ones."));
    auto *browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, &TransformerSetup::chooseCorpus);
    auto *corpusRow = new QWidget;
    auto *corpusLayout = new QHBoxLayout(corpusRow);
    corpusLayout->setContentsMargins(0, 0, 0, 0);
    corpusLayout->addWidget(m_corpus, 1);
    corpusLayout->addWidget(browse);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(editorBox(tr("Sentences"), m_data, datasetConfigFields(), corpusRow, tr("Text file:")));
    layout->addWidget(editorBox(tr("Model"), m_model, transformerConfigFields()));
    layout->addWidget(editorBox(tr("Training"), m_training, transformerTrainingConfigFields()));
    layout->addStretch(1);
    setConfigs(DatasetConfig{}, TransformerConfig{}, TransformerTrainingConfig{});
    const auto changedNow = [this] { emit changed(); };
    m_data.onChanged(this, changedNow);
    m_model.onChanged(this, changedNow);
    m_training.onChanged(this, changedNow);
    connect(m_corpus, &QLineEdit::textChanged, this, changedNow);
}

DatasetConfig TransformerSetup::dataConfig() const
{
    DatasetConfig config = m_data.value();
    config.corpusPath = m_corpus->text().trimmed().toStdString();
    return config;
}

void TransformerSetup::setConfigs(const DatasetConfig &data, const TransformerConfig &model,
                                  const TransformerTrainingConfig &training)
{
    m_data.write(data);
    m_corpus->setText(QString::fromStdString(data.corpusPath));
    m_model.write(model);
    m_training.write(training);
}

QString TransformerSetup::problem() const
{
    std::string problem = validate(dataConfig());
    if (problem.empty())
        problem = validate(modelConfig());
    if (problem.empty())
        problem = validate(trainingConfig());
    return QString::fromStdString(problem);
}

void TransformerSetup::chooseCorpus()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Sentences from a Text File"), m_corpus->text(),
                                                      tr("Text files (*.txt);;All files (*)"));
    if (!path.isEmpty())
        m_corpus->setText(path);
}

void TransformerSetup::saveSettings(QSettings &settings) const
{
    saveGroup(settings, QStringLiteral("data"), dataConfig(), datasetConfigFields());
    saveGroup(settings, QStringLiteral("model"), modelConfig(), transformerConfigFields());
    saveGroup(settings, QStringLiteral("training"), trainingConfig(), transformerTrainingConfigFields());
}

void TransformerSetup::restoreSettings(QSettings &settings)
{
    setConfigs(restoredGroup(settings, QStringLiteral("data"), datasetConfigFields()),
               restoredGroup(settings, QStringLiteral("model"), transformerConfigFields()),
               restoredGroup(settings, QStringLiteral("training"), transformerTrainingConfigFields()));
}
