#include "ui/attention/trainingpanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace {

QSpinBox *spinBox(int minimum, int maximum, const QString &toolTip)
{
    auto *box = new QSpinBox;
    box->setRange(minimum, maximum);
    box->setGroupSeparatorShown(true);
    box->setToolTip(toolTip);
    return box;
}

QDoubleSpinBox *doubleBox(double minimum, double maximum, double step, int decimals, const QString &toolTip)
{
    auto *box = new QDoubleSpinBox;
    box->setRange(minimum, maximum);
    box->setSingleStep(step);
    box->setDecimals(decimals);
    box->setToolTip(toolTip);
    return box;
}

}

TrainingPanel::TrainingPanel(QWidget *parent) : QWidget(parent)
{
    m_embedSize = spinBox(1, 2048, tr("Length of the vector learned for each word. Larger vectors can "
                                      "tell more words apart but train more slowly."));
    m_hiddenSize = spinBox(2, 4096, tr("Width of the GRU state: how much the encoder can remember about "
                                       "the sentence. Must be even for a bidirectional encoder."));
    m_layers = spinBox(1, 8, tr("Stacked GRU layers in the encoder and the decoder."));
    m_dropout = doubleBox(0, 0.9, 0.05, 2, tr("Share of activations zeroed between GRU layers while "
                                              "training, against overfitting. Has no effect with one layer."));
    m_bidirectional = new QCheckBox(tr("Bidirectional encoder"));
    m_bidirectional->setToolTip(tr("Read the sentence in both directions, so every position knows the "
                                   "words on either side of it."));
    m_attention = new QComboBox;
    for (AttentionKind kind : {AttentionKind::Bahdanau, AttentionKind::LuongDot, AttentionKind::LuongGeneral,
                               AttentionKind::None})
        m_attention->addItem(QString::fromLatin1(attentionName(kind)), int(kind));
    m_attention->setToolTip(tr("How the decoder reads the encoder. bahdanau: additive scores from the state "
                               "before the decoder's step. luong-dot / luong-general: multiplicative scores "
                               "(s·h, s·Wh) from the state after it. none: the decoder gets only the encoder's "
                               "final state, with no heatmap; watch it fail on long sentences."));

    m_learningRate = doubleBox(0.00001, 1.0, 0.0001, 5, tr("Step size of the Adam optimizer. Too high "
                                                           "and the loss jumps or diverges; too low and "
                                                           "learning crawls."));
    m_learningRate->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    m_epochDecay = doubleBox(0.01, 1, 0.05, 2, tr("After every epoch the learning rate is multiplied by this: big "
                                                   "steps while the model is far off, small ones to settle. "
                                                   "1: constant."));
    m_batchSize = spinBox(1, 4096, tr("Sentences per gradient step."));
    m_epochs = spinBox(1, 10000, tr("Passes over the training sentences, at most (early stopping may end "
                                    "training sooner)."));
    m_teacherForcing = doubleBox(0, 1, 0.05, 2, tr("Probability that the decoder is fed the correct previous "
                                                   "word while training instead of its own guess."));
    m_clipNorm = doubleBox(0, 1000, 0.5, 2, tr("Gradients whose overall length exceeds this are scaled "
                                               "down to it, which keeps training stable. Off: no clipping."));
    m_clipNorm->setSpecialValueText(tr("Off"));
    m_patience = spinBox(0, 10000, tr("Stop after this many epochs without a better validation loss. "
                                      "Never: always run every epoch."));
    m_patience->setSpecialValueText(tr("Never"));
    m_seed = spinBox(0, INT_MAX, tr("Seeds the initial weights and the batch order: the same seed and "
                                    "settings train the same model."));
    m_threads = spinBox(0, std::max(1, QThread::idealThreadCount()),
                        tr("CPU threads for training. All cores is fastest but makes the rest of the "
                           "computer slower."));
    m_threads->setSpecialValueText(tr("All cores"));

    m_problem = new QLabel;
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("QLabel { color: #b00020; }"));
    m_problem->hide();

    auto *modelBox = new QGroupBox(tr("Model"));
    auto *modelForm = new QFormLayout(modelBox);
    modelForm->addRow(tr("Embedding size:"), m_embedSize);
    modelForm->addRow(tr("Hidden size:"), m_hiddenSize);
    modelForm->addRow(tr("Layers:"), m_layers);
    modelForm->addRow(tr("Dropout:"), m_dropout);
    modelForm->addRow(m_bidirectional);
    modelForm->addRow(tr("Attention:"), m_attention);

    auto *trainingBox = new QGroupBox(tr("Training"));
    auto *trainingForm = new QFormLayout(trainingBox);
    trainingForm->addRow(tr("Learning rate:"), m_learningRate);
    trainingForm->addRow(tr("Rate decay per epoch:"), m_epochDecay);
    trainingForm->addRow(tr("Batch size:"), m_batchSize);
    trainingForm->addRow(tr("Epochs:"), m_epochs);
    trainingForm->addRow(tr("Teacher forcing:"), m_teacherForcing);
    trainingForm->addRow(tr("Gradient clipping:"), m_clipNorm);
    trainingForm->addRow(tr("Early-stop patience:"), m_patience);
    trainingForm->addRow(tr("Seed:"), m_seed);
    trainingForm->addRow(tr("Threads:"), m_threads);

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

    for (QSpinBox *box : {m_embedSize, m_hiddenSize, m_layers, m_batchSize, m_epochs, m_patience, m_seed,
                          m_threads})
        connect(box, &QSpinBox::valueChanged, this, &TrainingPanel::changed);
    for (QDoubleSpinBox *box : {m_dropout, m_learningRate, m_epochDecay, m_teacherForcing, m_clipNorm})
        connect(box, &QDoubleSpinBox::valueChanged, this, &TrainingPanel::changed);
    connect(m_bidirectional, &QCheckBox::toggled, this, &TrainingPanel::changed);
    connect(m_attention, &QComboBox::currentIndexChanged, this, &TrainingPanel::changed);

    setModelConfig(ModelConfig{});
    setTrainingConfig(TrainingConfig{});
}

ModelConfig TrainingPanel::modelConfig() const
{
    ModelConfig c;
    c.embedSize = m_embedSize->value();
    c.hiddenSize = m_hiddenSize->value();
    c.layers = m_layers->value();
    c.dropout = m_dropout->value();
    c.bidirectional = m_bidirectional->isChecked();
    c.attention = AttentionKind(m_attention->currentData().toInt());
    return c;
}

TrainingConfig TrainingPanel::trainingConfig() const
{
    TrainingConfig c;
    c.learningRate = m_learningRate->value();
    c.learningRateEpochDecay = m_epochDecay->value();
    c.batchSize = m_batchSize->value();
    c.epochs = m_epochs->value();
    c.teacherForcing = m_teacherForcing->value();
    c.clipNorm = m_clipNorm->value();
    c.patience = m_patience->value();
    c.seed = std::uint64_t(m_seed->value());
    c.threads = m_threads->value();
    return c;
}

void TrainingPanel::setModelConfig(const ModelConfig &c)
{
    m_updating = true;
    m_embedSize->setValue(c.embedSize);
    m_hiddenSize->setValue(c.hiddenSize);
    m_layers->setValue(c.layers);
    m_dropout->setValue(c.dropout);
    m_bidirectional->setChecked(c.bidirectional);
    m_attention->setCurrentIndex(m_attention->findData(int(c.attention)));
    m_updating = false;
    changed();
}

void TrainingPanel::setTrainingConfig(const TrainingConfig &c)
{
    m_updating = true;
    m_learningRate->setValue(c.learningRate);
    m_epochDecay->setValue(c.learningRateEpochDecay);
    m_batchSize->setValue(c.batchSize);
    m_epochs->setValue(c.epochs);
    m_teacherForcing->setValue(c.teacherForcing);
    m_clipNorm->setValue(c.clipNorm);
    m_patience->setValue(c.patience);
    m_seed->setValue(int(std::min<std::uint64_t>(c.seed, INT_MAX)));
    m_threads->setValue(c.threads);
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
    const ModelConfig m = modelConfig();
    const TrainingConfig t = trainingConfig();
    settings.beginGroup(QStringLiteral("model"));
    settings.setValue(QStringLiteral("embedSize"), m.embedSize);
    settings.setValue(QStringLiteral("hiddenSize"), m.hiddenSize);
    settings.setValue(QStringLiteral("layers"), m.layers);
    settings.setValue(QStringLiteral("dropout"), m.dropout);
    settings.setValue(QStringLiteral("bidirectional"), m.bidirectional);
    settings.setValue(QStringLiteral("attention"), QString::fromLatin1(attentionName(m.attention)));
    settings.endGroup();
    settings.beginGroup(QStringLiteral("training"));
    settings.setValue(QStringLiteral("learningRate"), t.learningRate);
    settings.setValue(QStringLiteral("learningRateEpochDecay"), t.learningRateEpochDecay);
    settings.setValue(QStringLiteral("batchSize"), t.batchSize);
    settings.setValue(QStringLiteral("epochs"), t.epochs);
    settings.setValue(QStringLiteral("teacherForcing"), t.teacherForcing);
    settings.setValue(QStringLiteral("clipNorm"), t.clipNorm);
    settings.setValue(QStringLiteral("patience"), t.patience);
    settings.setValue(QStringLiteral("seed"), quint64(t.seed));
    settings.setValue(QStringLiteral("threads"), t.threads);
    settings.endGroup();
}

void TrainingPanel::restoreSettings(QSettings &settings)
{
    const ModelConfig dm;
    ModelConfig m;
    settings.beginGroup(QStringLiteral("model"));
    m.embedSize = settings.value(QStringLiteral("embedSize"), dm.embedSize).toInt();
    m.hiddenSize = settings.value(QStringLiteral("hiddenSize"), dm.hiddenSize).toInt();
    m.layers = settings.value(QStringLiteral("layers"), dm.layers).toInt();
    m.dropout = settings.value(QStringLiteral("dropout"), dm.dropout).toDouble();
    m.bidirectional = settings.value(QStringLiteral("bidirectional"), dm.bidirectional).toBool();
    parseAttention(settings.value(QStringLiteral("attention")).toString().toStdString(), &m.attention);
    settings.endGroup();

    const TrainingConfig dt;
    TrainingConfig t;
    settings.beginGroup(QStringLiteral("training"));
    t.learningRate = settings.value(QStringLiteral("learningRate"), dt.learningRate).toDouble();
    t.learningRateEpochDecay = settings.value(QStringLiteral("learningRateEpochDecay"), dt.learningRateEpochDecay).toDouble();
    t.batchSize = settings.value(QStringLiteral("batchSize"), dt.batchSize).toInt();
    t.epochs = settings.value(QStringLiteral("epochs"), dt.epochs).toInt();
    t.teacherForcing = settings.value(QStringLiteral("teacherForcing"), dt.teacherForcing).toDouble();
    t.clipNorm = settings.value(QStringLiteral("clipNorm"), dt.clipNorm).toDouble();
    t.patience = settings.value(QStringLiteral("patience"), dt.patience).toInt();
    t.seed = settings.value(QStringLiteral("seed"), quint64(dt.seed)).toULongLong();
    t.threads = settings.value(QStringLiteral("threads"), dt.threads).toInt();
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
