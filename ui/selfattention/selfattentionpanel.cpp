#include "ui/selfattention/selfattentionpanel.h"

#include "engine/core/tokenizer.h"
#include "engine/selfattention/positionalencoding.h"
#include "engine/selfattention/selfattentioninputs.h"
#include "ui/core/attentionheatmap.h"
#include "ui/core/exportdialog.h"
#include "ui/core/heatmapexplainer.h"
#include "ui/selfattention/attentionarrows.h"
#include "ui/selfattention/attentionsteps.h"
#include "ui/selfattention/predictiontable.h"
#include "ui/selfattention/reflectionbox.h"
#include "ui/selfattention/selfattentionexplanationtext.h"
#include "ui/selfattention/selfattentioncontrols.h"
#include "ui/selfattention/sourcedescription.h"

#include <QBoxLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QToolButton>

#include <algorithm>
#include <exception>

namespace {

using Source = SelfAttentionControls::Source;

// Side by side above this width: prediction and tables on the left, heatmap and arrows right.
constexpr int kTwoColumnWidth = 900;
// Heatmap and arrows side by side when their column is at least this wide.
constexpr int kSideBySideViews = 640;
// What the scroll bar, the margins and the spacing between the columns take of the panel's width.
constexpr int kColumnMargins = 50;
// The least height the heatmap and arrows are drawn at beside the tables.
constexpr int kSmallestPlotHeight = 320;

std::vector<float> toFloats(const Matrix &m)
{
    return std::vector<float>(m.values.begin(), m.values.end());
}

} // namespace

SelfAttentionPanel::SelfAttentionPanel(QWidget *parent) : QWidget(parent)
{
    m_controls = new SelfAttentionControls;

    m_inputMessage = new QLabel;
    m_inputMessage->setObjectName(QStringLiteral("selfAttentionMessage"));
    m_inputMessage->setWordWrap(true);
    m_inputMessage->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_inputMessage->hide();
    m_explanation = new QLabel;
    m_explanation->setObjectName(QStringLiteral("selfAttentionExplanation"));
    m_explanation->setWordWrap(true);
    m_explanation->setTextFormat(Qt::RichText);
    m_explanation->setStyleSheet(QStringLiteral("color: #505050;"));
    connect(m_explanation, &QLabel::linkActivated, this, [this] { m_controls->setSource(Source::Random); });

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
    m_steps = new AttentionSteps;

    // 3. Pictures.
    m_heatmap = new AttentionHeatmap;
    m_heatmap->setObjectName(QStringLiteral("selfAttentionHeatmap"));
    m_heatmap->setRoles(tr("query"), tr("query word (row)"), tr("key"), tr("key word (column)"));
    m_heatmap->setTitle(tr("Self-attention weights"));
    m_heatmap->setMinimumSize(300, 280);
    m_heatmap->setAccessibleName(tr("Self-attention heatmap"));
    m_explainer = new HeatmapExplainer(m_heatmap, this, [this](int row, int column) {
        return isRevealed() ? selfAttentionExplanationHtml(m_result, m_tokens, row, column) : QString();
    });
    auto *explainButton = new QToolButton;
    explainButton->setDefaultAction(m_explainer->action());
    m_arrows = new AttentionArrows;
    m_arrows->setObjectName(QStringLiteral("selfAttentionArrows"));
    m_arrows->setTitle(tr("Who attends to whom"));
    m_arrows->setMinimumSize(300, 320);
    m_arrows->setAccessibleName(tr("Self-attention arrows"));
    m_arrows->setAccessibleDescription(tr("Arrows from each query word to the key words, thicker for larger weights; "
                                          "select a cell of the heatmap to show one query's arrows."));
    m_exportHeatmapButton = new QPushButton(tr("Export &Heatmap…"));
    m_exportHeatmapButton->setToolTip(tr("Save the heatmap as a PNG, PDF, SVG or JPEG image"));
    m_exportArrowsButton = new QPushButton(tr("Export &Arrows…"));
    m_exportArrowsButton->setToolTip(tr("Save the arrows as a PNG, PDF, SVG or JPEG image"));
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("selfAttentionStatus"));
    m_status->setWordWrap(true);
    auto *exportButtons = new QHBoxLayout;
    exportButtons->addWidget(m_exportHeatmapButton);
    exportButtons->addWidget(m_exportArrowsButton);
    exportButtons->addWidget(explainButton);
    exportButtons->addStretch(1);

    m_left = new QWidget;
    auto *left = new QVBoxLayout(m_left);
    left->setContentsMargins(0, 0, 0, 0);
    left->addWidget(predictionBox);
    left->addWidget(m_steps);
    left->addStretch(1);
    m_views = new QBoxLayout(QBoxLayout::TopToBottom);
    m_views->addWidget(m_heatmap, 1);
    m_views->addWidget(m_arrows, 1);
    m_plots = new QVBoxLayout;
    m_plots->addLayout(m_views, 1);
    m_plots->addLayout(exportButtons);
    m_plots->addWidget(m_status);
    m_reflection = new ReflectionBox(
        [this](const QString &sentence, std::vector<std::string> *words, ScaledDotProductAttention *attention,
               QString *error) { return computeAttention(sentence, words, attention, error); });
    m_reflection->hide();
    m_plots->addWidget(m_reflection);
    m_plots->addStretch();
    m_columns = new QBoxLayout(QBoxLayout::TopToBottom);
    m_columns->addWidget(m_left, 0);
    m_columns->addLayout(m_plots, 1);

    auto *content = new QWidget;
    content->setLayout(m_columns);
    m_scroll = new QScrollArea;
    m_scroll->setWidget(content);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_controls);
    layout->addWidget(m_inputMessage);
    layout->addWidget(m_explanation);
    layout->addWidget(m_scroll, 1);

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
    connect(m_controls, &SelfAttentionControls::changed, this, &SelfAttentionPanel::onInputChanged);
    connect(m_prediction, &PredictionTable::guessesEdited, this, [this] { m_compared = false; });
    connect(m_heatmap, &AttentionHeatmap::cellSelected, m_arrows, [this](int row) { m_arrows->selectQuery(row); });

    arrangeForWidth(width());
    recompute();
}

void SelfAttentionPanel::setEmbeddings(const SharedEmbeddings &embeddings)
{
    m_embeddings = embeddings;
    if (m_controls->source() != Source::Trained)
        return;
    // A new epoch arrives every few seconds while training: project only when someone looks.
    if (isVisible())
        recompute();
    else
        m_stale = true;
}

void SelfAttentionPanel::setAttentionHead(const SharedAttentionHead &head)
{
    m_head = head;
    QStringList words;
    for (const std::string &token : head.head.tokens)
        words << QString::fromStdString(token);
    m_controls->offerHead(head.description, words.join(QLatin1Char(' ')));
    if (m_controls->source() == Source::Head)
        onInputChanged();  // a new head: choosing the source again would not announce it
    else
        m_controls->setSource(Source::Head);
}

void SelfAttentionPanel::saveSettings(QSettings &settings) const
{
    m_controls->saveSettings(settings);
}

void SelfAttentionPanel::restoreSettings(QSettings &settings)
{
    m_controls->restoreSettings(settings);
}

bool SelfAttentionPanel::isRevealed() const
{
    return m_hasResult && (m_revealed || !m_controls->predictFirst());
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
    m_status->setText(tr("Revealed: compare your guess with the computed weights."));
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
        m_words = inputs.tokens;
        m_tokens.clear();
        for (std::size_t i = 0; i < inputs.tokens.size(); ++i)
            m_tokens << QString::fromStdString(inputs.tokens[i]) + (m_known[i] ? QString() : QStringLiteral("*"));
    } else {
        m_result = ScaledDotProductAttention();
        m_tokens.clear();
        m_words.clear();
        m_known.clear();
    }
    m_prediction->setTokens(m_tokens);
    showResults();
}

bool SelfAttentionPanel::buildInputs(SelfAttentionInputs *inputs)
{
    QString error;
    std::vector<std::string> words;
    bool built = false;
    if (m_controls->source() == Source::Head) {
        try {
            *inputs = SelfAttentionInputs::fromHead(m_head.head);
            built = true;
        } catch (const std::exception &e) {
            error = tr("Cannot use the shared head: %1").arg(QString::fromStdString(e.what()));
        }
    } else {
        built = wordsOf(m_controls->sentence(), &words, &error) && inputsFor(words, inputs, &error);
    }
    setInputMessage(built ? QString() : error);
    return built;
}

bool SelfAttentionPanel::wordsOf(const QString &sentence, std::vector<std::string> *words, QString *error) const
{
    if (m_controls->source() == Source::Head) {
        *error = tr("The trained head's X belongs to its own sentence: choose random or trained embeddings to "
                    "compute another.");
        return false;
    }
    const bool trained = m_controls->source() == Source::Trained;
    if (trained && !m_embeddings.table) {
        *error = tr("There are no trained embeddings yet: train or open a model in the Attention lab, "
                    "or choose random embeddings.");
        return false;
    }
    *words = tokenize(sentence.toStdString(), trained && m_embeddings.lowercase);
    if (words->empty()) {
        *error = tr("Type a sentence of 1 to %1 words, e.g. “I love AI”.").arg(kMaxWords);
        return false;
    }
    if (int(words->size()) > kMaxWords) {
        *error = tr("Use at most %1 words: this sentence has %2, too many to predict by hand or to read in "
                    "the tables.").arg(kMaxWords).arg(words->size());
        return false;
    }
    return true;
}

bool SelfAttentionPanel::inputsFor(const std::vector<std::string> &words, SelfAttentionInputs *inputs, QString *error)
{
    const int dModel = m_controls->dModel();
    const auto seed = std::uint64_t(m_controls->seed());
    try {
        if (m_controls->source() == Source::Trained) {
            if (m_projectedFrom != m_embeddings.source || m_projectedDimensions != dModel) {
                m_projected = SelfAttentionInputs::projectEmbeddings(m_embeddings.table(), dModel);
                m_projectedFrom = m_embeddings.source;
                m_projectedDimensions = dModel;
            }
            *inputs = SelfAttentionInputs::fromEmbeddings(words, m_projected, m_controls->dK(), seed);
        } else {
            *inputs = SelfAttentionInputs::random(words, dModel, m_controls->dK(), seed);
        }
    } catch (const std::exception &e) {
        *error = tr("Cannot compute attention: %1").arg(QString::fromStdString(e.what()));
        return false;
    }
    if (m_controls->positions())
        inputs->x = withPositions(inputs->x);
    return true;
}

bool SelfAttentionPanel::computeAttention(const QString &sentence, std::vector<std::string> *words,
                                          ScaledDotProductAttention *attention, QString *error)
{
    SelfAttentionInputs inputs;
    if (!wordsOf(sentence, words, error) || !inputsFor(*words, &inputs, error))
        return false;
    *attention = ScaledDotProductAttention::compute(inputs.x, inputs.wq, inputs.wk, inputs.wv);
    return true;
}

void SelfAttentionPanel::showResults()
{
    const bool revealed = isRevealed();
    const int n = int(m_tokens.size());
    if (!m_hasResult) {
        m_steps->showNothing(m_controls->dK());
        const QString message = inputMessage().isEmpty() ? tr("Type a sentence") : tr("Nothing to show: see the message above");
        m_heatmap->showMessage(message);
        m_arrows->showMessage(message);
    } else {
        m_steps->showResult(m_result, m_tokens, revealed);
        if (revealed) {
            m_heatmap->setMatrix(m_tokens, m_tokens, toFloats(m_result.weights));
            m_arrows->setWeights(m_tokens, toFloats(m_result.weights));
            m_reflection->setAttention(m_tokens, m_words, m_result, m_controls->positions(),
                                       m_controls->source() == Source::Random);
        } else {
            const QString hidden = tr("Hidden until you reveal (Ctrl+Return)");
            m_heatmap->showMessage(hidden);
            m_arrows->showMessage(hidden);
        }
    }
    if (revealed && m_compared)
        m_prediction->showDifferences(m_result.weights.values);
    else
        m_prediction->clearDifferences();
    m_reflection->setVisible(m_hasResult && revealed);
    m_revealButton->setEnabled(m_hasResult);
    m_showButton->setEnabled(m_hasResult && !revealed);
    m_exportHeatmapButton->setEnabled(revealed);
    m_exportArrowsButton->setEnabled(revealed);
    if (n > 0 && m_arrows->selectedQuery() >= n)
        m_arrows->selectQuery(-1);
    m_explainer->refresh();
    arrangeForWidth(width());
}

void SelfAttentionPanel::updateSourceControls()
{
    m_explanation->setText(
        sourceDescription(m_controls->source(), m_controls->positions(), m_embeddings.description, m_head));
}

void SelfAttentionPanel::arrangeForWidth(int width)
{
    const bool twoColumns = width >= kTwoColumnWidth;
    m_columns->setDirection(twoColumns ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
    // Long wrapped texts would widen the left column without end; the pictures need the room.
    const int leftWidth = twoColumns ? width * 45 / 100 : width;
    m_left->setMaximumWidth(twoColumns ? leftWidth : QWIDGETSIZE_MAX);
    const int viewsWidth =
        (twoColumns ? width - std::min(leftWidth, m_left->sizeHint().width()) : width) - kColumnMargins;
    const bool sideBySide = viewsWidth >= kSideBySideViews;
    m_views->setDirection(sideBySide ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
    // Beside the tall tables the pictures would stretch to their height; they stay as tall as the view.
    const int tallest =
        twoColumns ? std::max(kSmallestPlotHeight, m_scroll->viewport()->height() - 60) : QWIDGETSIZE_MAX;
    m_heatmap->setMaximumHeight(tallest);
    m_arrows->setMaximumHeight(tallest);
    // As many matrices per row as fit in the space the left column gets.
    m_steps->arrangeForWidth(leftWidth - 40);
}

void SelfAttentionPanel::setInputMessage(const QString &message)
{
    m_inputMessage->setText(message);
    m_inputMessage->setVisible(!message.isEmpty());
}

void SelfAttentionPanel::exportWithDialog(bool heatmap)
{
    exportImageWithDialog(this, heatmap ? tr("Export Heatmap") : tr("Export Arrows"),
                          heatmap ? QStringLiteral("self_attention_heatmap.png")
                                  : QStringLiteral("self_attention_arrows.png"),
                          heatmap ? static_cast<QWidget *>(m_heatmap) : static_cast<QWidget *>(m_arrows),
                          [this, heatmap](const QString &path, int width, int height, QString *error) {
                              return heatmap ? exportHeatmap(path, width, height, error)
                                             : exportArrows(path, width, height, error);
                          });
}
