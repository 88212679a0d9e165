#pragma once

#include "engine/attention/modelconfig.h"
#include "engine/attention/trainingconfig.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSettings;
class QSpinBox;

// The network's shape and how it is trained, each field with a tooltip saying what it does.
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

    QSpinBox *m_embedSize;
    QSpinBox *m_hiddenSize;
    QSpinBox *m_layers;
    QDoubleSpinBox *m_dropout;
    QCheckBox *m_bidirectional;
    QComboBox *m_attention;
    QDoubleSpinBox *m_learningRate;
    QSpinBox *m_batchSize;
    QSpinBox *m_epochs;
    QDoubleSpinBox *m_teacherForcing;
    QDoubleSpinBox *m_clipNorm;
    QDoubleSpinBox *m_epochDecay;
    QSpinBox *m_patience;
    QSpinBox *m_seed;
    QSpinBox *m_threads;
    QLabel *m_problem;
    bool m_updating = false;
};
