#pragma once

#include "engine/core/datasetconfig.h"
#include "engine/transformer/transformerconfig.h"
#include "engine/transformer/transformertrainingconfig.h"
#include "ui/core/configeditor.h"

#include <QWidget>

class QLineEdit;
class QSettings;

// The Transformer lab's setup: the sentences (the attention lab's tasks, generated from its word
// list or read from a text file), the model's shape and its training, one widget per field of
// their tables.
class TransformerSetup : public QWidget
{
    Q_OBJECT
public:
    explicit TransformerSetup(QWidget *parent = nullptr);

    DatasetConfig dataConfig() const;
    TransformerConfig modelConfig() const { return m_model.value(); }
    TransformerTrainingConfig trainingConfig() const { return m_training.value(); }
    void setConfigs(const DatasetConfig &data, const TransformerConfig &model, const TransformerTrainingConfig &training);
    // Empty when the three can train, otherwise the first problem, in the engine's words.
    QString problem() const;

    void saveSettings(QSettings &settings) const;
    void restoreSettings(QSettings &settings);

signals:
    void changed();

private:
    void chooseCorpus();

    ConfigEditor<DatasetConfig> m_data;
    ConfigEditor<TransformerConfig> m_model;
    ConfigEditor<TransformerTrainingConfig> m_training;
    QLineEdit *m_corpus;
};
