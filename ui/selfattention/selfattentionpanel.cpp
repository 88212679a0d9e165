#include "ui/selfattention/selfattentionpanel.h"

#include "engine/core/tokenizer.h"
#include "engine/selfattention/selfattentioninputs.h"
#include "ui/core/attentionheatmap.h"
#include "ui/selfattention/attentionarrows.h"
#include "ui/selfattention/matrixtable.h"
#include "ui/selfattention/predictiontable.h"

#include <QBoxLayout>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>

#include <algorithm>
#include <cmath>
#include <exception>

namespace {

enum MatrixIndex { kX, kWq, kWk, kWv, kQ, kK, kV, kScores, kWeights, kOutput, kMatrixCount };
const QString kDefaultSentence = QStringLiteral("I love AI");
// Side by side above this width: prediction and tables on the left, heatmap and arrows right.
constexpr int kTwoColumnWidth = 900;
// Heatmap and arrows side by side when their column is at least this wide.
constexpr int kSideBySideViews = 640;
constexpr int kExportWidth = 1200;

QStringList numbered(int count)
{
    QStringList labels;
    for (int i = 1; i <= count; ++i)
        labels << QString::number(i);
    return labels;
}

std::vector<float> toFloats(const Matrix &m)
{
    return std::vector<float>(m.values.begin(), m.values.end());
}

} // namespace

SelfAttentionPanel::SelfAttentionPanel(QWidget *parent) : QWidget(parent)
{
    m_sentence = new QLineEdit(kDefaultSentence);
    m_sentence->setObjectName(QStringLiteral("selfAttentionSentence"));
    m_sentence->setPlaceholderText(tr("A short sentence, e.g. I love AI"));
    m_sentence->setClearButtonEnabled(true);
    m_source = new QComboBox;
    m_source->setObjectName(QStringLiteral("selfAttentionSource"));
    m_source->addItem(tr("Random from the seed"), int(Source::Random));
    m_source->addItem(tr("Trained encoder embeddings"), int(Source::Trained));
    m_source->setToolTip(tr("Where the rows of X come from"));
    const auto spin = [](int minimum, int maximum, int value, const QString &tip) {
        auto *box = new QSpinBox;
        box->setRange(minimum, maximum);
        box->setValue(value);
        box->setToolTip(tip);
        return box;
    };
    m_dModel = spin(kMinDimension, kMaxDimension, 4, tr("d_model: numbers per word in X"));
    m_dModel->setObjectName(QStringLiteral("dModel"));
    m_dK = spin(kMinDimension, kMaxDimension, 3, tr("d_k: numbers per word in Q, K and V; scores are divided by √d_k"));
    m_dK->setObjectName(QStringLiteral("dK"));
    m_seed = spin(0, 99999, 1, tr("Seed for the random numbers in X (random embeddings) and W_Q, W_K, W_V"));
    m_seed->setObjectName(QStringLiteral("seed"));
    m_predictFirst = new QCheckBox(tr("&Predict before revealing"));
    m_predictFirst->setObjectName(QStringLiteral("predictFirst"));
    m_predictFirst->setChecked(true);
    m_predictFirst->setToolTip(tr("Keep the scores, weights and output hidden until you check your prediction; "
                                  "any change to the inputs hides them again."));

    auto *sentenceLabel = new QLabel(tr("&Sentence:"));
    sentenceLabel->setBuddy(m_sentence);
    auto *sourceLabel = new QLabel(tr("&Embeddings:"));
    sourceLabel->setBuddy(m_source);
    auto *dModelLabel = new QLabel(tr("d_&model:"));
    dModelLabel->setBuddy(m_dModel);
    auto *dKLabel = new QLabel(tr("d_&k:"));
    dKLabel->setBuddy(m_dK);
    auto *seedLabel = new QLabel(tr("S&eed:"));
    seedLabel->setBuddy(m_seed);
    auto *controls = new QGridLayout;
    controls->addWidget(sentenceLabel, 0, 0);
    controls->addWidget(m_sentence, 0, 1, 1, 8);
    controls->addWidget(sourceLabel, 1, 0);
    controls->addWidget(m_source, 1, 1);
    controls->addWidget(dModelLabel, 1, 2);
    controls->addWidget(m_dModel, 1, 3);
    controls->addWidget(dKLabel, 1, 4);
    controls->addWidget(m_dK, 1, 5);
    controls->addWidget(seedLabel, 1, 6);
    controls->addWidget(m_seed, 1, 7);
    controls->addWidget(m_predictFirst, 2, 1, 1, 8);
    controls->setColumnStretch(8, 1);

    m_inputMessage = new QLabel;
    m_inputMessage->setObjectName(QStringLiteral("selfAttentionMessage"));
    m_inputMessage->setWordWrap(true);
    m_inputMessage->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_inputMessage->hide();
    m_explanation = new QLabel;
    m_explanation->setObjectName(QStringLiteral("selfAttentionExplanation"));
    m_explanation->setWordWrap(true);
    m_explanation->setStyleSheet(QStringLiteral("color: #505050;"));

    // 1. Prediction.
    m_prediction = new PredictionTable;
    m_prediction->setObjectName(QStringLiteral("predictionTable"));
    m_revealButton = new QPushButton(tr("Check && &Reveal"));
    m_revealButton->setObjectName(QStringLiteral("revealButton"));
    m_revealButton->setToolTip(tr("Check that every row of your guess sums to 1, then show the computed weights "
                                  "and the difference (Ctrl+Return)"));
    m_revealButton->setDefault(true);
    m_showButton = new QPushButton(tr("Reveal &Without Predicting"));
    m_showButton->setObjectName(QStringLiteral("showButton"));
    m_showButton->setToolTip(tr("Show the computed weights without checking a guess (Ctrl+Shift+Return)"));
    auto *predictionButtons = new QHBoxLayout;
    predictionButtons->addWidget(m_revealButton);
    predictionButtons->addWidget(m_showButton);
    predictionButtons->addStretch(1);
    auto *predictionHint = new QLabel(tr("Rows are queries, columns are keys: how much does each word attend to each "
                                         "word? Type a weight per cell (0.5, 1/3; empty = 0). Each row must sum to 1."));
    predictionHint->setWordWrap(true);
    auto *predictionBox = new QGroupBox(tr("1. Predict the attention weights"));
    auto *predictionLayout = new QVBoxLayout(predictionBox);
    predictionLayout->addWidget(predictionHint);
    predictionLayout->addWidget(m_prediction);
    predictionLayout->addLayout(predictionButtons);

    // 2. Step by step.
    const QStringList titles = {tr("X (words × d_model)"), tr("W_Q"), tr("W_K"), tr("W_V"),
                                tr("Q = X·W_Q"), tr("K = X·W_K"), tr("V = X·W_V"),
                                tr("Scores = Q·Kᵀ / √d_k"), tr("Weights = softmax(scores)"), tr("Output = weights·V")};
    const QStringList names = {"matrixX", "matrixWQ", "matrixWK", "matrixWV", "matrixQ", "matrixK", "matrixV",
                               "matrixScores", "matrixWeights", "matrixOutput"};
    for (int i = 0; i < kMatrixCount; ++i) {
        auto *table = new MatrixTable;
        table->setObjectName(names[i]);
        auto *title = new QLabel(QStringLiteral("<b>%1</b>").arg(titles[i].toHtmlEscaped()));
        title->setObjectName(names[i] + QStringLiteral("Title"));
        if (i == kScores)
            m_scoresTitle = title;
        auto *cell = new QWidget;
        auto *cellLayout = new QVBoxLayout(cell);
        cellLayout->setContentsMargins(0, 0, 8, 6);
        cellLayout->setSpacing(2);
        cellLayout->addWidget(title);
        cellLayout->addWidget(table);
        cellLayout->addStretch(1);
        m_matrices.push_back(table);
        m_matrixCells.push_back(cell);
    }
    m_matrices[kWeights]->setToolTip(tr("Each row sums to 1: the query's attention shared out over the keys"));
    m_hiddenNote = new QLabel(tr("<i>Scores, weights and output stay hidden until you reveal them (Ctrl+Return).</i>"));
    m_hiddenNote->setWordWrap(true);
    m_matrixGrid = new QGridLayout;
    m_matrixGrid->setSpacing(4);
    auto *stepsBox = new QGroupBox(tr("2. Step by step"));
    auto *stepsLayout = new QVBoxLayout(stepsBox);
    stepsLayout->addLayout(m_matrixGrid);
    stepsLayout->addWidget(m_hiddenNote);

    // 3. Pictures.
    m_heatmap = new AttentionHeatmap;
    m_heatmap->setObjectName(QStringLiteral("selfAttentionHeatmap"));
    m_heatmap->setRoles(tr("query"), tr("query word (row)"), tr("key"), tr("key word (column)"));
    m_heatmap->setTitle(tr("Self-attention weights"));
    m_heatmap->setMinimumSize(300, 280);
    m_arrows = new AttentionArrows;
    m_arrows->setObjectName(QStringLiteral("selfAttentionArrows"));
    m_arrows->setTitle(tr("Who attends to whom"));
    m_arrows->setMinimumSize(300, 320);
    m_exportHeatmapButton = new QPushButton(tr("Export &Heatmap…"));
    m_exportHeatmapButton->setToolTip(tr("Save the heatmap as a PNG image"));
    m_exportArrowsButton = new QPushButton(tr("Export &Arrows…"));
    m_exportArrowsButton->setToolTip(tr("Save the arrows as a PNG image"));
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("selfAttentionStatus"));
    m_status->setWordWrap(true);
    auto *exportButtons = new QHBoxLayout;
    exportButtons->addWidget(m_exportHeatmapButton);
    exportButtons->addWidget(m_exportArrowsButton);
    exportButtons->addStretch(1);

    m_left = new QWidget;
    auto *left = new QVBoxLayout(m_left);
    left->setContentsMargins(0, 0, 0, 0);
    left->addWidget(predictionBox);
    left->addWidget(stepsBox);
    left->addStretch(1);
    m_views = new QBoxLayout(QBoxLayout::TopToBottom);
    m_views->addWidget(m_heatmap, 1);
    m_views->addWidget(m_arrows, 1);
    m_plots = new QVBoxLayout;
    m_plots->addLayout(m_views, 1);
    m_plots->addLayout(exportButtons);
    m_plots->addWidget(m_status);
    m_columns = new QBoxLayout(QBoxLayout::TopToBottom);
    m_columns->addWidget(m_left, 0);
    m_columns->addLayout(m_plots, 1);

    auto *content = new QWidget;
    content->setLayout(m_columns);
    auto *scroll = new QScrollArea;
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_inputMessage);
    layout->addWidget(m_explanation);
    layout->addWidget(scroll, 1);

    const auto addShortcuts = [this](Qt::KeyboardModifiers modifiers, auto action) {
        for (Qt::Key key : {Qt::Key_Return, Qt::Key_Enter}) {
            auto *shortcut = new QShortcut(QKeySequence(modifiers | key), this);
            // Only while the tab is in use: elsewhere the keys belong to other panels.
            shortcut->setContext(Qt::WidgetWithChildrenShortcut);
            connect(shortcut, &QShortcut::activated, this, action);
        }
    };
    addShortcuts(Qt::ControlModifier, [this] { checkAndReveal(); });
    addShortcuts(Qt::ControlModifier | Qt::ShiftModifier, [this] { revealWithoutPrediction(); });
    connect(m_revealButton, &QPushButton::clicked, this, [this] { checkAndReveal(); });
    connect(m_showButton, &QPushButton::clicked, this, &SelfAttentionPanel::revealWithoutPrediction);
    connect(m_exportHeatmapButton, &QPushButton::clicked, this, [this] { exportWithDialog(true); });
    connect(m_exportArrowsButton, &QPushButton::clicked, this, [this] { exportWithDialog(false); });
    connect(m_sentence, &QLineEdit::textChanged, this, &SelfAttentionPanel::onInputChanged);
    connect(m_source, &QComboBox::currentIndexChanged, this, &SelfAttentionPanel::onInputChanged);
    for (QSpinBox *box : {m_dModel, m_dK, m_seed})
        connect(box, &QSpinBox::valueChanged, this, &SelfAttentionPanel::onInputChanged);
    connect(m_predictFirst, &QCheckBox::toggled, this, &SelfAttentionPanel::onInputChanged);
    connect(m_prediction, &PredictionTable::guessesEdited, this, [this] { m_compared = false; });
    connect(m_heatmap, &AttentionHeatmap::cellSelected, m_arrows, [this](int row) { m_arrows->selectQuery(row); });

    arrangeForWidth(width());
    recompute();
}

void SelfAttentionPanel::setModel(const ModelSnapshot &model, const QString &description)
{
    m_model = model;
    m_modelDescription = description;
    if (source() != Source::Trained)
        return;
    // A new epoch arrives every few seconds while training: project only when someone looks.
    if (isVisible())
        recompute();
    else
        m_stale = true;
}

QString SelfAttentionPanel::sentence() const
{
    return m_sentence->text();
}

void SelfAttentionPanel::setSentence(const QString &sentence)
{
    m_sentence->setText(sentence);
}

SelfAttentionPanel::Source SelfAttentionPanel::source() const
{
    return Source(m_source->currentData().toInt());
}

void SelfAttentionPanel::setSource(Source source)
{
    m_source->setCurrentIndex(std::max(0, m_source->findData(int(source))));
}

int SelfAttentionPanel::dModel() const
{
    return m_dModel->value();
}

void SelfAttentionPanel::setDModel(int dModel)
{
    m_dModel->setValue(dModel);
}

int SelfAttentionPanel::dK() const
{
    return m_dK->value();
}

void SelfAttentionPanel::setDK(int dK)
{
    m_dK->setValue(dK);
}

int SelfAttentionPanel::seed() const
{
    return m_seed->value();
}

void SelfAttentionPanel::setSeed(int seed)
{
    m_seed->setValue(seed);
}

bool SelfAttentionPanel::predictFirst() const
{
    return m_predictFirst->isChecked();
}

void SelfAttentionPanel::setPredictFirst(bool predictFirst)
{
    m_predictFirst->setChecked(predictFirst);
}

void SelfAttentionPanel::saveSettings(QSettings &settings) const
{
    settings.beginGroup(QStringLiteral("selfAttention"));
    settings.setValue(QStringLiteral("sentence"), sentence());
    settings.setValue(QStringLiteral("source"), source() == Source::Trained ? QStringLiteral("trained")
                                                                            : QStringLiteral("random"));
    settings.setValue(QStringLiteral("dModel"), dModel());
    settings.setValue(QStringLiteral("dK"), dK());
    settings.setValue(QStringLiteral("seed"), seed());
    settings.setValue(QStringLiteral("predictFirst"), predictFirst());
    settings.endGroup();
}

void SelfAttentionPanel::restoreSettings(QSettings &settings)
{
    settings.beginGroup(QStringLiteral("selfAttention"));
    setSentence(settings.value(QStringLiteral("sentence"), kDefaultSentence).toString());
    setSource(settings.value(QStringLiteral("source")).toString() == QLatin1String("trained") ? Source::Trained
                                                                                            : Source::Random);
    setDModel(settings.value(QStringLiteral("dModel"), dModel()).toInt());
    setDK(settings.value(QStringLiteral("dK"), dK()).toInt());
    setSeed(settings.value(QStringLiteral("seed"), seed()).toInt());
    setPredictFirst(settings.value(QStringLiteral("predictFirst"), true).toBool());
    settings.endGroup();
}

bool SelfAttentionPanel::isRevealed() const
{
    return m_hasResult && (m_revealed || !predictFirst());
}

QString SelfAttentionPanel::inputMessage() const
{
    return m_inputMessage->isHidden() ? QString() : m_inputMessage->text();
}

bool SelfAttentionPanel::checkAndReveal()
{
    if (!m_hasResult)
        return false;
    if (!m_prediction->check())
        return false;
    m_revealed = true;
    m_compared = true;
    showResults();
    reportStatus(tr("Revealed: compare your guess with the computed weights."), false);
    return true;
}

void SelfAttentionPanel::revealWithoutPrediction()
{
    if (!m_hasResult)
        return;
    m_revealed = true;
    m_compared = false;
    showResults();
}

bool SelfAttentionPanel::exportHeatmap(const QString &path, int width, int height, QString *error)
{
    if (!isRevealed()) {
        if (error)
            *error = tr("Reveal the weights before exporting them.");
        return false;
    }
    return m_heatmap->exportImage(path, width, height, error);
}

bool SelfAttentionPanel::exportArrows(const QString &path, int width, int height, QString *error) const
{
    if (!isRevealed()) {
        if (error)
            *error = tr("Reveal the weights before exporting them.");
        return false;
    }
    return m_arrows->exportImage(path, width, height, error);
}

void SelfAttentionPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale)
        recompute();
}

void SelfAttentionPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    arrangeForWidth(width());
}

void SelfAttentionPanel::onInputChanged()
{
    // New numbers deserve a new prediction; the old reveal would give them away.
    m_revealed = false;
    m_compared = false;
    m_status->clear();
    recompute();
}

void SelfAttentionPanel::recompute()
{
    m_stale = false;
    updateSourceControls();
    SelfAttentionInputs inputs;
    m_hasResult = buildInputs(&inputs);
    if (m_hasResult) {
        m_result = ScaledDotProductAttention::compute(inputs.x, inputs.wq, inputs.wk, inputs.wv);
        m_known = inputs.known;
        m_tokens.clear();
        for (std::size_t i = 0; i < inputs.tokens.size(); ++i)
            m_tokens << QString::fromStdString(inputs.tokens[i]) + (m_known[i] ? QString() : QStringLiteral("*"));
    } else {
        m_result = ScaledDotProductAttention();
        m_tokens.clear();
        m_known.clear();
    }
    m_prediction->setTokens(m_tokens);
    showResults();
}

bool SelfAttentionPanel::buildInputs(SelfAttentionInputs *inputs)
{
    const bool trained = source() == Source::Trained;
    if (trained && !m_model) {
        setInputMessage(tr("There is no trained model yet: train one (F5) or open one (Ctrl+O), "
                           "or choose random embeddings."));
        return false;
    }
    const std::vector<std::string> words = tokenize(m_sentence->text().toStdString(), trained && m_model->lowercase());
    if (words.empty()) {
        setInputMessage(tr("Type a sentence of 1 to %1 words, e.g. “I love AI”.").arg(kMaxWords));
        return false;
    }
    if (int(words.size()) > kMaxWords) {
        setInputMessage(tr("Use at most %1 words: this sentence has %2, too many to predict by hand or to read in "
                           "the tables.").arg(kMaxWords).arg(words.size()));
        return false;
    }
    try {
        if (trained) {
            if (m_projectedFrom != m_model.get() || m_projectedDimensions != dModel()) {
                m_projected = SelfAttentionInputs::projectEmbeddings(m_model->encoderEmbeddings(), dModel());
                m_projectedFrom = m_model.get();
                m_projectedDimensions = dModel();
            }
            *inputs = SelfAttentionInputs::fromEmbeddings(words, m_projected, dK(), std::uint64_t(seed()));
        } else {
            *inputs = SelfAttentionInputs::random(words, dModel(), dK(), std::uint64_t(seed()));
        }
    } catch (const std::exception &e) {
        setInputMessage(tr("Cannot compute attention: %1").arg(QString::fromStdString(e.what())));
        return false;
    }
    setInputMessage(QString());
    return true;
}

void SelfAttentionPanel::showResults()
{
    const bool revealed = isRevealed();
    const int n = int(m_tokens.size());
    if (!m_hasResult) {
        for (MatrixTable *table : m_matrices)
            table->clearMatrix();
        const QString message = inputMessage().isEmpty() ? tr("Type a sentence") : tr("Nothing to show: see the message above");
        m_heatmap->showMessage(message);
        m_arrows->showMessage(message);
    } else {
        const ScaledDotProductAttention &a = m_result;
        // Random X and W are tenths and Q, K, V sums of their products: shown exactly.
        const bool exact = source() == Source::Random;
        m_matrices[kX]->setMatrix(a.x, m_tokens, numbered(a.dModel()), exact ? 1 : 2);
        for (int i : {kWq, kWk, kWv})
            m_matrices[std::size_t(i)]->setMatrix(i == kWq ? a.wq : i == kWk ? a.wk : a.wv, numbered(a.dModel()),
                                                  numbered(a.dK()), 1);
        m_matrices[kQ]->setMatrix(a.q, m_tokens, numbered(a.dK()), 2);
        m_matrices[kK]->setMatrix(a.k, m_tokens, numbered(a.dK()), 2);
        m_matrices[kV]->setMatrix(a.v, m_tokens, numbered(a.dK()), 2);
        if (revealed) {
            m_matrices[kScores]->setMatrix(a.scores, m_tokens, m_tokens, 3);
            m_matrices[kWeights]->setMatrix(a.weights, m_tokens, m_tokens, 3);
            m_matrices[kOutput]->setMatrix(a.output, m_tokens, numbered(a.dK()), 3);
            m_heatmap->setMatrix(m_tokens, m_tokens, toFloats(a.weights));
            m_arrows->setWeights(m_tokens, toFloats(a.weights));
        } else {
            for (int i : {kScores, kWeights, kOutput})
                m_matrices[std::size_t(i)]->clearMatrix();
            const QString hidden = tr("Hidden until you reveal (Ctrl+Return)");
            m_heatmap->showMessage(hidden);
            m_arrows->showMessage(hidden);
        }
    }
    m_scoresTitle->setText(tr("<b>Scores = Q·Kᵀ / √%1</b>").arg(m_hasResult ? m_result.dK() : dK()));
    for (int i : {kScores, kWeights, kOutput})
        m_matrixCells[std::size_t(i)]->setVisible(revealed);
    m_hiddenNote->setVisible(m_hasResult && !revealed);

    if (revealed && m_compared)
        m_prediction->showDifferences(m_result.weights.values);
    else
        m_prediction->clearDifferences();
    m_revealButton->setEnabled(m_hasResult);
    m_showButton->setEnabled(m_hasResult && !revealed);
    m_exportHeatmapButton->setEnabled(revealed);
    m_exportArrowsButton->setEnabled(revealed);
    if (n > 0 && m_arrows->selectedQuery() >= n)
        m_arrows->selectQuery(-1);
    arrangeForWidth(width());
}

void SelfAttentionPanel::updateSourceControls()
{
    if (source() == Source::Random) {
        m_explanation->setText(tr("X: each word gets d_model numbers drawn from the seed and the word itself "
                                  "(multiples of 0.1 between −1 and 1), so a repeated word has the same row. "
                                  "W_Q, W_K and W_V are drawn from the seed the same way."));
        return;
    }
    const QString model = m_modelDescription.isEmpty() ? tr("the current model") : m_modelDescription;
    m_explanation->setText(tr("X: the encoder embeddings of %1, projected onto their first d_model principal "
                              "components (PCA over the whole vocabulary) and scaled to the spread of the random "
                              "numbers, so the tables stay small and similar words keep similar rows; words the "
                              "model does not know (marked *) use the <UNK> row. W_Q, W_K and W_V stay random from "
                              "the seed: this model uses additive (Bahdanau) attention and has no query/key/value "
                              "projections to borrow.").arg(model.toHtmlEscaped()));
}

void SelfAttentionPanel::arrangeForWidth(int width)
{
    const bool twoColumns = width >= kTwoColumnWidth;
    m_columns->setDirection(twoColumns ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
    // Long wrapped texts would widen the left column without end; the pictures need the room.
    const int leftWidth = twoColumns ? width * 45 / 100 : width;
    m_left->setMaximumWidth(twoColumns ? leftWidth : QWIDGETSIZE_MAX);
    // As many matrices per row as fit in the space the left column gets.
    const int available = leftWidth - 40;
    int widest = 1;
    for (QWidget *cell : m_matrixCells)
        widest = std::max(widest, cell->sizeHint().width());
    const int perRow = std::clamp(available / widest, 1, 4);
    const int viewsWidth = twoColumns ? width - std::min(leftWidth, m_left->sizeHint().width()) : width;
    m_views->setDirection(viewsWidth >= kSideBySideViews ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
    if (perRow == m_matrixColumns)
        return;
    m_matrixColumns = perRow;
    for (QWidget *cell : m_matrixCells)
        m_matrixGrid->removeWidget(cell);
    // X and the three projections, then Q, K, V, then the results: each group starts a new row.
    int row = 0;
    int column = 0;
    for (int i = 0; i < kMatrixCount; ++i) {
        if (i == kQ || i == kScores) {
            row += column > 0 ? 1 : 0;
            column = 0;
        }
        m_matrixGrid->addWidget(m_matrixCells[std::size_t(i)], row, column, Qt::AlignLeft | Qt::AlignTop);
        if (++column == perRow) {
            column = 0;
            ++row;
        }
    }
    m_matrixGrid->setColumnStretch(perRow, 1);
}

void SelfAttentionPanel::setInputMessage(const QString &message)
{
    m_inputMessage->setText(message);
    m_inputMessage->setVisible(!message.isEmpty());
}

void SelfAttentionPanel::exportWithDialog(bool heatmap)
{
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("exportDirectory"),
                                       QStandardPaths::writableLocation(QStandardPaths::PicturesLocation)).toString();
    const QString name = heatmap ? QStringLiteral("self_attention_heatmap.png") : QStringLiteral("self_attention_arrows.png");
    QString path = QFileDialog::getSaveFileName(this, heatmap ? tr("Export Heatmap") : tr("Export Arrows"),
                                                QDir(dir).filePath(name), tr("PNG image (*.png)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".png");
    settings.setValue(QStringLiteral("exportDirectory"), QFileInfo(path).absolutePath());
    // Wide enough to print; the shape of the widget on screen.
    const QWidget *view = heatmap ? static_cast<QWidget *>(m_heatmap) : static_cast<QWidget *>(m_arrows);
    const int height = std::clamp(kExportWidth * std::max(1, view->height()) / std::max(1, view->width()), 600, 2400);
    QString error;
    const bool ok = heatmap ? exportHeatmap(path, kExportWidth, height, &error)
                            : exportArrows(path, kExportWidth, height, &error);
    if (ok)
        reportStatus(tr("Exported %1.").arg(QDir::toNativeSeparators(path)), false);
    else
        reportStatus(tr("Export failed: %1").arg(error), true);
}

void SelfAttentionPanel::reportStatus(const QString &text, bool error)
{
    m_status->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
    m_status->setText(text);
}
