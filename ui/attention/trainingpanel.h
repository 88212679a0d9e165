#pragma once

#include "engine/attention/modelconfig.h"
#include "engine/attention/trainingconfig.h"
#include "ui/core/configeditor.h"

#include <QWidget>

class QLabel;
class QSettings;

// The network's shape and how it is trained: a widget per field of ModelConfig and
// TrainingConfig, with the field's range and its help as the tooltip (objectName: the field's key).
class TrainingPanel : public QWidget
{
    Q_OBJECT
public:
    explicit TrainingPanel(QWidget *parent = nullptr);

    ModelConfig modelConfig() const;
    TrainingConfig trainingConfig() const;
    void setModelConfig(const ModelConfig &config);
    void setTrainingConfig(const TrainingConfig &config);
    QString problem() const;  // empty when the engine accepts both configs

    void saveSettings(QSettings &settings) const;
    void restoreSettings(QSettings &settings);

signals:
    void configChanged();

private:
    void changed();

    ConfigEditor<ModelConfig> m_model;
    ConfigEditor<TrainingConfig> m_training;
    QLabel *m_problem;
    bool m_updating = false;
};
