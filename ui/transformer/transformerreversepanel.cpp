#include "ui/transformer/transformerreversepanel.h"

#include "engine/core/tokenizer.h"
#include "engine/transformer/headexplanation.h"
#include "engine/transformer/headscores.h"
#include "ui/core/attentionheatmap.h"
#include "ui/core/beamview.h"
#include "ui/core/heatmapexplainer.h"
#include "ui/core/attributionstripsplot.h"
#include "ui/core/stepscorestable.h"
#include "ui/transformer/headexplanationtext.h"
#include "ui/transformer/headgrid.h"
#include "ui/transformer/rolloutexplanationtext.h"
#include "ui/transformer/transformerbeambox.h"
#include "ui/transformer/transformercontrast.h"
#include "ui/transformer/transformermethodview.h"
#include "ui/transformer/transformerresults.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSplitter>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace {

QString share(double value)
{
    return std::isnan(value) ? QStringLiteral("–") : QLocale().toString(100.0 * value, 'f', 0) + QStringLiteral("%");
}

QStringList qtTokens(const std::vector<std::string> &tokens)
{
    QStringList list;
    for (const std::string &token : tokens)
        list << QString::fromStdString(token);
    return list;
}

}  // namespace

TransformerReversePanel::TransformerReversePanel(QWidget *parent)
    : QWidget(parent), m_input(new QLineEdit), m_beam(new TransformerBeamBox), m_outputView(new QLabel),
      m_modelInfo(new QLabel), m_kind(new QComboBox), m_rollout(new QCheckBox(tr("&Roll out across layers"))),
      m_grid(new HeadGrid), m_heatmap(new AttentionHeatmap), m_cellInfo(new QLabel),
      m_methods(new TransformerMethodView(this)), m_contrast(new TransformerContrast(m_methods, this))
{
    m_rollout->setObjectName(QStringLiteral("attentionRollout"));
    m_rollout->setToolTip(tr("Attention rollout (Abnar & Zuidema 2020): every layer's heads averaged, the residual "
                             "mixed in half and half, the layers multiplied: how much each position draws on each "
                             "input token through the whole network"));
    m_input->setObjectName(QStringLiteral("transformerSentence"));
    m_input->setPlaceholderText(tr("Type a sentence, e.g. the quick brown fox jumps"));
    m_input->setClearButtonEnabled(true);
    m_beam->setObjectName(QStringLiteral("transformerBeam"));
    m_outputView->setObjectName(QStringLiteral("transformerOutput"));
    m_outputView->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_outputView->setWordWrap(true);
    m_modelInfo->setObjectName(QStringLiteral("transformerModelInfo"));
    m_modelInfo->setWordWrap(true);
    m_kind->setObjectName(QStringLiteral("attentionKind"));
    m_kind->addItem(tr("Cross-attention: each output over the input"), int(Kind::Cross));
    m_kind->addItem(tr("Encoder self-attention: the input over itself"), int(Kind::EncoderSelf));
    m_kind->addItem(tr("Decoder self-attention: each output over the outputs before it"), int(Kind::DecoderSelf));
    // Its longest item no longer sets the page's least width: at 1280 pixels the labels beside it need the room.
    m_kind->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_kind->setMinimumContentsLength(40);
    m_grid->setObjectName(QStringLiteral("headGrid"));
    m_heatmap->setObjectName(QStringLiteral("transformerHeatmap"));
    m_heatmap->setMinimumSize(260, 220);

    auto *form = new QGridLayout;
    form->addWidget(new QLabel(tr("Sentence:")), 0, 0);
    form->addWidget(m_input, 0, 1);
    form->addWidget(m_beam, 0, 2);
    form->addWidget(new QLabel(tr("Output:")), 1, 0);
    form->addWidget(m_outputView, 1, 1);
    form->addWidget(new QLabel(tr("Attention:")), 2, 0);
    form->addWidget(m_kind, 2, 1);
    form->addWidget(m_rollout, 2, 2);
    form->addWidget(new QLabel(tr("Explain by:")), 3, 0);
    form->addWidget(m_methods->selector(), 3, 1);
    m_underGrid = new QTabWidget;
    m_underGrid->setObjectName(QStringLiteral("transformerUnderGrid"));
    m_underGrid->setDocumentMode(true);
    m_underGrid->setTabBarAutoHide(true);  // tabs only while the beam's hypotheses are listed
    m_underGrid->setFocusPolicy(Qt::NoFocus);
    // A tab from the start, so that the list's place in the tab chain is below the heads.
    m_underGrid->addTab(m_beam->view(), tr("Beam search"));
    m_underGrid->addTab(m_methods->methodsTab(), tr("Methods"));
    m_underGrid->addTab(m_contrast->box(), tr("Contrast"));
    auto *leftColumn = new QSplitter(Qt::Vertical);
    leftColumn->addWidget(m_grid);
    leftColumn->addWidget(m_underGrid);
    leftColumn->setStretchFactor(0, 2);
    leftColumn->setStretchFactor(1, 3);
    auto *views = new QSplitter(Qt::Horizontal);
    views->addWidget(leftColumn);
    views->addWidget(createHeadView());
    views->setStretchFactor(0, 1);
    views->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_modelInfo);
    layout->addWidget(views, 1);

    connect(m_input, &QLineEdit::textChanged, this, [this] {
        m_row = m_column = -1;  // another sentence: the cell no longer means the same
        decode();
    });
    connect(m_beam, &TransformerBeamBox::optionsChanged, this, [this] {
        updateBeamTab();
        decode();
    });
    connect(m_beam, &TransformerBeamBox::hypothesisSelected, this, &TransformerReversePanel::showHypothesis);
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] {
        m_row = m_column = -1;
        showAttention();
    });
    connect(m_rollout, &QCheckBox::toggled, this, [this] { showHead(m_grid->selectedLayer(), m_grid->selectedHead()); });
    connect(m_grid, &HeadGrid::headSelected, this, &TransformerReversePanel::showHead);
    connect(m_methods, &TransformerMethodView::mapChanged, this,
            [this] { showHead(m_grid->selectedLayer(), m_grid->selectedHead()); });
    connect(m_methods->stepScores(), &StepScoresTable::stepClicked, this,
            [this](int step) { m_heatmap->selectCell(step, std::max(0, m_column)); });
    connect(m_heatmap, &AttentionHeatmap::cellSelected, this, [this](int row, int column) { showCell(row, column); });
    updateBeamTab();
    setSnapshot(nullptr);
}

QWidget *TransformerReversePanel::createHeadView()
{
    // The attention lab's presentation: what the selected cell is, and the buttons that act on it.
    m_explainer = new HeatmapExplainer(m_heatmap, this, [this](int row, int column) {
        if (!m_snapshot || !hasOutput() || (kind() == Kind::Cross && m_methods->showsMethod()))
            return QString();
        if (rolledOut())
            return rolloutExplanationHtml(rollout(), kind() == Kind::Cross, rowTokens().value(row),
                                          columnTokens().value(column), row, column);
        return headExplanationHtml(*m_snapshot, m_output, attentionKind(), m_grid->selectedLayer(),
                                   m_grid->selectedHead(), row, column);
    });
    m_openInExplorer = new QAction(tr("Open in Self-Attention E&xplorer"), this);
    m_openInExplorer->setObjectName(QStringLiteral("openHeadInExplorer"));
    connect(m_openInExplorer, &QAction::triggered, this, &TransformerReversePanel::offerHead);
    m_heatmap->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_heatmap->addAction(m_explainer->action());
    m_heatmap->addAction(m_openInExplorer);
    m_cellInfo->setObjectName(QStringLiteral("transformerCellInfo"));
    m_cellInfo->setWordWrap(true);
    m_cellInfo->setTextFormat(Qt::RichText);
    auto *explainButton = new QToolButton;
    explainButton->setDefaultAction(m_explainer->action());
    auto *openButton = new QToolButton;
    openButton->setObjectName(QStringLiteral("openHeadInExplorerButton"));
    openButton->setDefaultAction(m_openInExplorer);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(explainButton);
    buttons->addWidget(openButton);
    auto *view = new QWidget;
    auto *layout = new QVBoxLayout(view);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_heatmap, 1);
    layout->addWidget(m_methods->caption());
    layout->addWidget(m_methods->stepScores());
    layout->addWidget(m_cellInfo);
    layout->addLayout(buttons);
    return view;
}

void TransformerReversePanel::setSnapshot(std::shared_ptr<const TransformerSnapshot> snapshot)
{
    m_snapshot = std::move(snapshot);
    m_input->setEnabled(m_snapshot != nullptr);
    if (!m_snapshot) {
        m_modelInfo->setText(tr("Press Train (F5) to train a Transformer with the settings on the left; its heads "
                                "appear here after the first epoch."));
        m_output = {};
        m_beam->clear();
        m_outputView->clear();
        m_grid->setAttention({});
        m_heatmap->showMessage(tr("No model yet"));
        m_methods->setSentence(nullptr, {});
        showCell(-1, -1);
        return;
    }
    m_modelInfo->setText(tr("Epoch %1 · %2 + %2 layers · %3 heads · width %4 · %5 parameters · %6 words")
                             .arg(m_snapshot->epoch)
                             .arg(m_snapshot->config.layers)
                             .arg(m_snapshot->config.heads)
                             .arg(m_snapshot->config.modelSize)
                             .arg(QLocale().toString(qlonglong(m_snapshot->parameters)))
                             .arg(m_snapshot->vocabulary.size() - 4));
    decode();
}

void TransformerReversePanel::addUnderGrid(QWidget *widget, const QString &title)
{
    m_underGrid->insertTab(0, widget, title);
    m_underGrid->setCurrentIndex(0);
}

void TransformerReversePanel::updateBeamTab()
{
    // Shown once when the beam widens: the list is what the user asked to see.
    BeamView *view = m_beam->view();
    const int index = m_underGrid->indexOf(view);
    if (m_beam->options().width > 1 && index < 0) {
        m_underGrid->setCurrentIndex(m_underGrid->addTab(view, tr("Beam search")));
    } else if (m_beam->options().width == 1 && index >= 0) {
        m_underGrid->removeTab(index);
        view->hide();
    }
    // Tab would otherwise stop at the tab bar while it is hidden, and go no further.
    m_underGrid->setFocusPolicy(m_underGrid->count() > 1 ? Qt::TabFocus : Qt::NoFocus);
}

void TransformerReversePanel::setText(const QString &text)
{
    m_input->setText(text);
}

QString TransformerReversePanel::text() const
{
    return m_input->text();
}

void TransformerReversePanel::setKind(Kind kind)
{
    m_kind->setCurrentIndex(m_kind->findData(int(kind)));
}

TransformerReversePanel::Kind TransformerReversePanel::kind() const
{
    return Kind(m_kind->currentData().toInt());
}

TransformerAttentionKind TransformerReversePanel::attentionKind() const
{
    switch (kind()) {
    case Kind::EncoderSelf: return TransformerAttentionKind::EncoderSelf;
    case Kind::DecoderSelf: return TransformerAttentionKind::DecoderSelf;
    case Kind::Cross: break;
    }
    return TransformerAttentionKind::Cross;
}

void TransformerReversePanel::decode()
{
    m_output = {};
    const std::vector<std::string> words = tokenize(m_input->text().toStdString());
    m_methods->setSentence(m_snapshot, words);
    if (!m_snapshot || words.empty()) {
        m_beam->clear();
        showFailure(QString(), m_snapshot ? tr("Type a sentence") : tr("No model yet"));
        return;
    }
    try {
        m_output = m_beam->decode(*m_snapshot, words);
    } catch (const std::out_of_range &error) {
        showFailure(QString::fromUtf8(error.what()), tr("Too long for this model"));
        return;
    } catch (const std::exception &error) {
        showFailure(QString::fromUtf8(error.what()), tr("No output"));
        return;
    }
    showOutput(0);
    showAttention();
    emit decoded();
}

void TransformerReversePanel::showFailure(const QString &message, const QString &shortMessage)
{
    m_output = {};
    m_outputView->setText(message);
    m_grid->setAttention({});
    m_heatmap->showMessage(shortMessage);
    showCell(-1, -1);
    emit decoded();
}

void TransformerReversePanel::showHypothesis(int index)
{
    const std::vector<ScoredTransformerOutput> &found = m_beam->hypotheses();
    if (index < 0 || index >= int(found.size()))
        return;
    m_output = found[std::size_t(index)].output;
    showOutput(index);
    showAttention();
    emit decoded();
}

void TransformerReversePanel::showOutput(int hypothesis)
{
    QString text = QStringLiteral("<b>%1</b>").arg(outputText().toHtmlEscaped());
    const int found = int(m_beam->hypotheses().size());
    if (found > 0 && hypothesis == 0)
        text += tr(" <small>(the best of %1 hypotheses)</small>").arg(found);
    else if (found > 0)
        text += tr(" <small>(hypothesis %1 of %2)</small>").arg(hypothesis + 1).arg(found);
    m_outputView->setText(text);
    m_methods->setShownOutput(m_output.outputTokens);
}

QString TransformerReversePanel::outputText() const
{
    return qtTokens(m_output.outputTokens).join(QLatin1Char(' '));
}

const LayeredAttention &TransformerReversePanel::shownAttention() const
{
    switch (kind()) {
    case Kind::EncoderSelf: return m_output.encoderSelf;
    case Kind::DecoderSelf: return m_output.decoderSelf;
    case Kind::Cross: break;
    }
    return m_output.cross;
}

void TransformerReversePanel::showAttention()
{
    if (!hasOutput())
        return;
    m_grid->setAttention(shownAttention());
    const Kind shown = kind();
    const std::vector<std::vector<HeadScore>> scores = shown == Kind::Cross
                                                           ? crossHeadScores(m_snapshot->task, m_output)
                                                           : selfHeadScores(shownAttention());
    // The epoch a run keeps also has each head's mean over the test split, under this sentence's.
    const SplitHeadScores *split = m_snapshot->testHeads.get();
    const std::vector<std::vector<HeadScore>> *overTest =
        !split ? nullptr
               : shown == Kind::Cross ? &split->cross
                                      : shown == Kind::EncoderSelf ? &split->encoderSelf : &split->decoderSelf;
    std::vector<std::vector<QString>> captions;
    for (std::size_t l = 0; l < scores.size(); ++l) {
        std::vector<QString> heads;
        for (std::size_t h = 0; h < scores[l].size(); ++h) {
            const HeadScore &head = scores[l][h];
            QString caption = shown == Kind::Cross
                                  ? tr("answer %1").arg(share(head.answer))
                                  : tr("same %1\nprev %2").arg(share(head.same), share(head.previous));
            if (overTest && l < overTest->size() && h < (*overTest)[l].size()) {
                const HeadScore &test = (*overTest)[l][h];
                caption += shown == Kind::Cross ? tr("\ntest %1").arg(share(test.answer))
                                                : tr("\ntest %1, %2").arg(share(test.same), share(test.previous));
            }
            heads.push_back(caption);
        }
        captions.push_back(std::move(heads));
    }
    m_grid->setCaptions(captions);
    m_grid->setTokens(rowTokens(), columnTokens());
    if (shown == Kind::Cross)
        m_heatmap->setRoles(tr("output"), tr("decoder steps (output)"), tr("input"), tr("encoder tokens (input)"));
    else if (shown == Kind::EncoderSelf)
        m_heatmap->setRoles(tr("query"), tr("input token (query)"), tr("key"), tr("input token (key)"));
    else
        m_heatmap->setRoles(tr("output"), tr("decoder steps (output)"), tr("input"), tr("decoder input (key)"));
    showHead(m_grid->selectedLayer(), m_grid->selectedHead());
}

QStringList TransformerReversePanel::rowTokens() const
{
    return qtTokens(kind() == Kind::EncoderSelf ? m_output.sourceTokens : m_output.outputTokens);
}

QStringList TransformerReversePanel::columnTokens() const
{
    if (kind() != Kind::DecoderSelf)
        return qtTokens(m_output.sourceTokens);
    // A decoder step reads the token before it: <SOS>, then each output but the last.
    const QStringList output = qtTokens(m_output.outputTokens);
    return QStringList{QStringLiteral("<SOS>")} + output.mid(0, output.size() - 1);
}

void TransformerReversePanel::showHead(int layer, int head)
{
    const LayeredAttention &attention = shownAttention();
    if (layer >= int(attention.weights.size()) || head >= int(attention.weights[std::size_t(layer)].size()))
        return;
    const int row = m_row;
    const int column = m_column;
    const bool methodShown = m_methods->paint(*m_heatmap, kind() == Kind::Cross);  // in place of the head
    m_rollout->setEnabled(!methodShown);
    m_explainer->action()->setEnabled(!methodShown);  // a method's score is no head's weight
    if (!methodShown && rolledOut()) {
        m_heatmap->setMatrix(columnTokens(), rowTokens(), rollout().values);
        m_heatmap->setTitle(tr("Rollout of all %1 layers").arg(attention.weights.size()));
    } else if (!methodShown) {
        m_heatmap->setMatrix(columnTokens(), rowTokens(), attention.weights[std::size_t(layer)][std::size_t(head)]);
        m_heatmap->setTitle(tr("Layer %1, head %2").arg(layer + 1).arg(head + 1));
    }
    // The same cell in another head: the explanation window follows it there.
    if (row >= 0 && row < m_heatmap->rows() && column >= 0 && column < m_heatmap->columns())
        m_heatmap->selectCell(row, column);
    else if (m_heatmap->rows() > 0)  // a method's message keeps the cell for its map
        showCell(-1, -1);
    else
        m_cellInfo->clear();
    m_explainer->refresh();
}

void TransformerReversePanel::showCell(int row, int column)
{
    m_row = row;
    m_column = column;
    if (kind() == Kind::Cross)
        m_methods->selectRow(row);
    const bool encoderSelf = kind() == Kind::EncoderSelf && !rolledOut();
    m_openInExplorer->setEnabled(hasOutput() && encoderSelf);
    m_openInExplorer->setToolTip(
        encoderSelf ? tr("Take this head's X, W_Q, W_K and W_V on this sentence to the self-attention explorer, "
                         "its biases folded in")
                    : tr("Only a head of the encoder's self-attention fits the explorer: it has one X for queries "
                         "and keys, and no causal mask"));
    if (!hasOutput()) {
        m_cellInfo->clear();
        return;
    }
    if (row < 0 || column < 0 || row >= m_heatmap->rows() || column >= m_heatmap->columns()) {
        if (kind() == Kind::Cross && m_methods->showsMethod()) {
            m_cellInfo->setText(tr("<small>Click an output word (a row) to compare every method on it in the Methods "
                                   "tab.</small>"));
            return;
        }
        m_cellInfo->setText(tr("<small>Click a cell to follow one weight; double-click it (or %1) to see how it is "
                               "computed.</small>")
                                .arg(m_explainer->action()->shortcut().toString(QKeySequence::NativeText)));
        return;
    }
    const QString rowWord = rowTokens().value(row).toHtmlEscaped();
    const QString columnWord = columnTokens().value(column).toHtmlEscaped();
    const QString weight = QLocale().toString(double(m_heatmap->weight(row, column)), 'f', 3);
    if (kind() == Kind::Cross && m_methods->showsMethod())
        m_cellInfo->setText(m_methods->cellText(row, column));
    else
        m_cellInfo->setText(headCellHtml(attentionKind(), rolledOut(), row, column, rowWord, columnWord, weight));
}

QString TransformerReversePanel::cellText() const
{
    return m_cellInfo->text();
}

void TransformerReversePanel::offerHead()
{
    if (!m_snapshot || !hasOutput() || kind() != Kind::EncoderSelf)
        return;
    const int layer = m_grid->selectedLayer();
    const int head = m_grid->selectedHead();
    SharedAttentionHead shared;
    try {
        shared.head = encoderSelfAttentionHead(*m_snapshot->inference, m_snapshot->vocabulary, m_output, layer, head);
    } catch (const std::exception &error) {
        m_cellInfo->setText(tr("Cannot open this head: %1").arg(QString::fromStdString(error.what()).toHtmlEscaped()));
        return;
    }
    shared.description = tr("Transformer encoder layer %1, head %2, epoch %3")
                             .arg(layer + 1)
                             .arg(head + 1)
                             .arg(m_snapshot->epoch);
    emit headOffered(shared);
}

void TransformerReversePanel::setRolledOut(bool on)
{
    m_rollout->setChecked(on);
}

bool TransformerReversePanel::rolledOut() const
{
    return m_rollout->isChecked();
}

RolloutMatrix TransformerReversePanel::rollout() const
{
    switch (kind()) {
    case Kind::EncoderSelf: return selfAttentionRollout(m_output.encoderSelf);
    case Kind::DecoderSelf: return selfAttentionRollout(m_output.decoderSelf);
    case Kind::Cross: break;
    }
    return crossAttentionRollout(m_output.encoderSelf, m_output.decoderSelf, m_output.cross);
}
