#include "ui/attention/inferencepanel.h"
#include "ui/attention/decodedheatmap.h"

#include "engine/attention/alignmentscore.h"
#include "ui/attention/attentionexplanationtext.h"
#include "ui/attention/beamdecodedlisting.h"
#include "ui/core/attentionheatmap.h"
#include "ui/core/beamcontrols.h"
#include "ui/core/beamview.h"
#include "ui/core/elidedlabel.h"
#include "ui/core/heatmapexplainer.h"

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSpinBox>
#include <QSplitter>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <exception>

namespace {

// Long enough to skip decoding on every keystroke of a fast typist, short enough to feel live.
constexpr int kDebounceMs = 50;

const char *const kUnknownStyle = "color:#c25e00; text-decoration:underline;";
const char *const kCopiedStyle = "color:#7b1fa2; font-style:italic;";
const char *const kSpecialStyle = "color:#8a8a8a;";
const char *const kHighlightStyle = "background-color:#ffd54f; color:#000000; font-weight:bold;";

QString tokenSpan(const std::string &token, const QString &style)
{
    const QString text = QString::fromStdString(token).toHtmlEscaped();
    return style.isEmpty() ? text : QStringLiteral("<span style=\"%1\">&nbsp;%2&nbsp;</span>").arg(style, text);
}

bool isSpecial(const std::string &token)
{
    return token.size() > 2 && token.front() == '<' && token.back() == '>';
}

}

InferencePanel::InferencePanel(QWidget *parent) : QWidget(parent)
{
    m_input = new QLineEdit;
    m_input->setObjectName(QStringLiteral("inferenceInput"));
    m_input->setPlaceholderText(tr("Type a sentence, e.g. the cat sat on the mat"));
    m_input->setClearButtonEnabled(true);
    m_input->setToolTip(tr("The model's output updates as you type."));
    QFont inputFont = m_input->font();
    inputFont.setPointSizeF(inputFont.pointSizeF() * 1.15);
    m_input->setFont(inputFont);

    m_choice = new QComboBox;
    m_choice->addItem(tr("Best so far"), int(Choice::Best));
    m_choice->addItem(tr("Latest epoch"), int(Choice::Latest));
    m_choice->setToolTip(tr("Decode with the model of the epoch with the lowest validation loss, or "
                            "with the one from the most recent epoch."));
    m_modelInfo = new ElidedLabel;
    m_modelInfo->setObjectName(QStringLiteral("modelInfo"));
    m_modelInfo->setStyleSheet(QStringLiteral("QLabel { color: palette(dark); }"));

    auto tokenLabel = [] {
        auto *label = new QLabel;
        label->setTextFormat(Qt::RichText);
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        return label;
    };
    m_sourceView = tokenLabel();
    m_sourceView->setObjectName(QStringLiteral("sourceTokens"));
    m_outputView = tokenLabel();
    m_outputView->setObjectName(QStringLiteral("outputTokens"));
    QFont outputFont = m_outputView->font();
    outputFont.setPointSizeF(outputFont.pointSizeF() * 1.35);
    m_outputView->setFont(outputFont);

    m_cellInfo = new QLabel;
    m_cellInfo->setObjectName(QStringLiteral("cellInfo"));
    m_cellInfo->setTextFormat(Qt::RichText);
    m_cellInfo->setWordWrap(true);
    m_notice = new QLabel;
    m_notice->setObjectName(QStringLiteral("tokenLegend"));
    m_notice->setTextFormat(Qt::RichText);
    m_notice->setWordWrap(true);
    m_notice->hide();

    m_heatmap = new AttentionHeatmap;
    m_heatmap->setObjectName(QStringLiteral("attentionHeatmap"));
    m_explainer = new HeatmapExplainer(m_heatmap, this, [this](int row, int column) {
        const ModelSnapshot model = currentModel();
        return model && m_hasSentence ? attentionExplanationHtml(*model, m_sentence, row, column) : QString();
    });
    auto *explainButton = new QToolButton;
    explainButton->setDefaultAction(m_explainer->action());
    m_rightCellsAction = new QAction(tr("Known Alignment"), this);
    m_rightCellsAction->setCheckable(true);
    m_rightCellsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    m_rightCellsAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_rightCellsAction->setToolTip(tr("Outline the input word each output word must come from (%1)")
                                       .arg(m_rightCellsAction->shortcut().toString(QKeySequence::NativeText)));
    addAction(m_rightCellsAction);
    m_rightCellsButton = new QToolButton;
    m_rightCellsButton->setObjectName(QStringLiteral("rightCellsButton"));
    m_rightCellsButton->setDefaultAction(m_rightCellsAction);
    connect(m_rightCellsAction, &QAction::toggled, m_heatmap, &AttentionHeatmap::setRightCellsShown);

    m_beamWidth = createBeamWidthBox(QStringLiteral("beamWidth"));
    m_alpha = createLengthAlphaBox(QStringLiteral("beamAlpha"));
    m_beamView = new BeamView;
    m_beamView->setObjectName(QStringLiteral("beamView"));
    m_beamView->hide();

    auto *sentenceLabel = new QLabel(tr("&Sentence:"));
    sentenceLabel->setBuddy(m_input);
    auto *top = new QHBoxLayout;
    top->addWidget(sentenceLabel);
    top->addWidget(m_input, 1);

    auto *modelLabel = new QLabel(tr("&Model:"));
    modelLabel->setBuddy(m_choice);
    auto *modelRow = new QHBoxLayout;
    modelRow->addWidget(modelLabel);
    modelRow->addWidget(m_choice);
    modelRow->addStretch(1);
    auto *beamLabel = new QLabel(tr("&Beam:"));
    beamLabel->setBuddy(m_beamWidth);
    modelRow->addWidget(beamLabel);
    modelRow->addWidget(m_beamWidth);
    auto *alphaLabel = new QLabel(tr("&α:"));
    alphaLabel->setBuddy(m_alpha);
    modelRow->addWidget(alphaLabel);
    modelRow->addWidget(m_alpha);

    auto *tokens = new QGridLayout;
    tokens->setColumnStretch(1, 1);
    tokens->addWidget(new QLabel(tr("Input:")), 0, 0, Qt::AlignLeft | Qt::AlignVCenter);
    tokens->addWidget(m_sourceView, 0, 1);
    tokens->addWidget(new QLabel(tr("Output:")), 1, 0, Qt::AlignLeft | Qt::AlignVCenter);
    tokens->addWidget(m_outputView, 1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(modelRow);
    layout->addWidget(m_modelInfo);
    layout->addLayout(tokens);
    layout->addWidget(m_notice);
    auto *cellRow = new QHBoxLayout;
    cellRow->addWidget(m_cellInfo, 1);
    cellRow->addWidget(explainButton);
    layout->addLayout(cellRow);
    // Controls added by the lab go before the stretch, left of the button.
    m_heatmapControls = new QHBoxLayout;
    m_heatmapControls->addStretch(1);
    m_heatmapControls->addWidget(m_rightCellsButton);
    layout->addLayout(m_heatmapControls);
    auto *heatmapArea = new QWidget;
    m_heatmapColumn = new QVBoxLayout(heatmapArea);
    m_heatmapColumn->setContentsMargins(0, 0, 0, 0);
    m_heatmapColumn->setSpacing(2);
    m_heatmapColumn->addWidget(m_heatmap, 1);
    auto *views = new QSplitter(Qt::Vertical);
    views->addWidget(heatmapArea);
    views->addWidget(m_beamView);
    views->setStretchFactor(0, 3);
    views->setStretchFactor(1, 1);
    layout->addWidget(views, 1);
    // Reading order: the cell's button, then the row of heatmap controls.
    QWidget::setTabOrder(m_alpha, explainButton);
    QWidget::setTabOrder(explainButton, m_rightCellsButton);
    QWidget::setTabOrder(m_rightCellsButton, m_heatmap);
    m_lastBeforeControls = explainButton;

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kDebounceMs);
    connect(m_debounce, &QTimer::timeout, this, &InferencePanel::decode);
    connect(m_input, &QLineEdit::textChanged, this, [this] {
        // A different sentence: the clicked cell no longer means anything.
        m_row = m_column = -1;
        m_debounce->start();
    });
    connect(m_choice, &QComboBox::currentIndexChanged, this, [this] {
        updateModelInfo();
        decode();
    });
    connect(m_heatmap, &AttentionHeatmap::cellSelected, this, &InferencePanel::selectCell);
    connect(this, &InferencePanel::sentenceDecoded, m_explainer, &HeatmapExplainer::refresh);
    connect(m_beamWidth, &QSpinBox::valueChanged, this, [this](int width) {
        m_alpha->setEnabled(width > 1);
        decode();
    });
    connect(m_alpha, &QDoubleSpinBox::valueChanged, this, &InferencePanel::decode);
    m_alpha->setEnabled(false);

    updateModelInfo();
    decode();
}

void InferencePanel::setNoModelMessage(const QString &message, const QString &shortMessage)
{
    m_noModelMessage = message;
    m_noModelShortMessage = shortMessage;
    if (!currentModel())
        decode();
}

void InferencePanel::setBestModel(const ModelSnapshot &model, const QString &description)
{
    m_best = model;
    m_bestDescription = description;
    updateModelInfo();
    if (choice() == Choice::Best)
        decode();
}

void InferencePanel::setLatestModel(const ModelSnapshot &model, const QString &description)
{
    m_latest = model;
    m_latestDescription = description;
    updateModelInfo();
    if (choice() == Choice::Latest)
        decode();
}

void InferencePanel::setModel(const ModelSnapshot &model, const QString &description)
{
    m_best = m_latest = model;
    m_bestDescription = m_latestDescription = description;
    updateModelInfo();
    decode();
}

void InferencePanel::setReplayModel(const ModelSnapshot &model, const QString &description)
{
    if (model == m_replay && description == m_replayDescription)
        return;
    m_replay = model;
    m_replayDescription = description;
    m_choice->setEnabled(!m_replay);
    updateModelInfo();
    decode();
}

ModelSnapshot InferencePanel::currentModel() const
{
    if (m_replay)
        return m_replay;
    return choice() == Choice::Best ? m_best : m_latest;
}

InferencePanel::Choice InferencePanel::choice() const
{
    return Choice(m_choice->currentData().toInt());
}

void InferencePanel::setChoice(Choice choice)
{
    m_choice->setCurrentIndex(m_choice->findData(int(choice)));
}

QString InferencePanel::text() const
{
    return m_input->text();
}

void InferencePanel::setText(const QString &text)
{
    m_input->setText(text);
    m_debounce->stop();
    decode();
}

QString InferencePanel::outputText() const
{
    return m_hasSentence ? QString::fromStdString(m_sentence.text()) : QString();
}

void InferencePanel::decode()
{
    m_debounce->stop();
    const ModelSnapshot model = currentModel();
    if (!model) {
        showEmpty(m_noModelMessage, m_noModelShortMessage);
        return;
    }
    const QString text = m_input->text().trimmed();
    if (text.isEmpty()) {
        showEmpty(tr("Type a sentence above to see the model's output and where it looks"),
                  tr("Type a sentence above"));
        return;
    }
    const BeamOptions beam = beamOptions();
    try {
        if (beam.width > 1) {
            const BeamDecoded result = model->beamReverse(text.toStdString(), beam);
            if (result.nbest.empty()) {  // every continuation had probability 0: a broken model
                showEmpty(tr("Beam search found no output with a finite probability"), tr("No output"));
                return;
            }
            m_sentence = result.nbest.front().sentence;
            m_beamView->setResult(beamDecodedListing(result, model->vocabulary(), beam.alpha));
        } else {
            m_sentence = model->reverse(text.toStdString());
        }
        m_beamView->setVisible(beam.width > 1);
    } catch (const std::exception &error) {
        showEmpty(tr("Cannot decode this sentence: %1").arg(QString::fromStdString(error.what())),
                  tr("Cannot decode this sentence"));
        return;
    }
    m_hasSentence = true;
    const int row = m_row;
    const int column = m_column;
    m_row = m_column = -1;
    showDecodedSentence(*m_heatmap, m_sentence);
    m_heatmap->setRightCells(rightSourcePositions(model->datasetConfig.task, m_sentence));
    // A new snapshot of the same sentence keeps the cell the user clicked.
    if (row >= 0 && row < m_sentence.rows() && column >= 0 && column < m_sentence.columns()) {
        m_heatmap->selectCell(row, column);
        m_row = row;
        m_column = column;
    }
    renderTokens();
    emit sentenceDecoded();
}

void InferencePanel::addHeatmapControl(QWidget *control)
{
    m_heatmapControls->insertWidget(m_heatmapControls->count() - 2, control);  // before the stretch
    if (!(control->focusPolicy() & Qt::TabFocus))
        return;
    // Made elsewhere, the control would otherwise take its place in the tab chain from its creation.
    QWidget::setTabOrder(m_lastBeforeControls, control);
    QWidget::setTabOrder(control, m_rightCellsButton);
    m_lastBeforeControls = control;
}

void InferencePanel::addUnderHeatmap(QWidget *view)
{
    m_heatmapColumn->addWidget(view);
    QWidget::setTabOrder(m_heatmap, view);
}

bool InferencePanel::rightCellsShown() const
{
    return m_rightCellsAction->isChecked();
}

void InferencePanel::setRightCellsShown(bool shown)
{
    m_rightCellsAction->setChecked(shown);
}

BeamOptions InferencePanel::beamOptions() const
{
    BeamOptions options;
    options.width = m_beamWidth->value();
    options.alpha = m_alpha->value();
    options.nbest = std::min(options.width, 5);
    return options;
}

void InferencePanel::setBeamOptions(const BeamOptions &options)
{
    m_alpha->setValue(options.alpha);
    m_beamWidth->setValue(options.width);
}

void InferencePanel::showEmpty(const QString &message, const QString &shortMessage)
{
    m_hasSentence = false;
    m_beamView->clear();
    m_beamView->hide();
    m_sentence = DecodedSentence{};
    m_row = m_column = -1;
    m_heatmap->showMessage(shortMessage);
    renderTokens();
    m_outputView->setText(QStringLiteral("<span style=\"%1\">%2</span>")
                              .arg(QString::fromLatin1(kSpecialStyle), message.toHtmlEscaped()));
    emit sentenceDecoded();
}

void InferencePanel::selectCell(int row, int column, double)
{
    if (!m_hasSentence || row < 0 || row >= m_sentence.rows() || column < 0 || column >= m_sentence.columns())
        return;
    m_row = row;
    m_column = column;
    renderTokens();
}

void InferencePanel::renderTokens()
{
    if (!m_hasSentence) {
        m_sourceView->clear();
        m_outputView->clear();
        m_cellInfo->setText(QString());
        m_notice->hide();
        return;
    }
    bool anyUnknown = false;
    bool anyCopied = false;
    QStringList source;
    for (int i = 0; i < m_sentence.columns(); ++i) {
        const std::string &token = m_sentence.sourceTokens[std::size_t(i)];
        QString style;
        if (i == m_column)
            style = QString::fromLatin1(kHighlightStyle);
        else if (isSpecial(token))
            style = QString::fromLatin1(kSpecialStyle);
        else if (!m_sentence.sourceKnown[std::size_t(i)])
            style = QString::fromLatin1(kUnknownStyle);
        anyUnknown |= !isSpecial(token) && !m_sentence.sourceKnown[std::size_t(i)];
        source << tokenSpan(token, style);
    }
    QStringList output;
    for (int i = 0; i < m_sentence.rows(); ++i) {
        const std::string &token = m_sentence.outputTokens[std::size_t(i)];
        QString style;
        if (i == m_row)
            style = QString::fromLatin1(kHighlightStyle);
        else if (isSpecial(token))
            style = QString::fromLatin1(kSpecialStyle);
        else if (m_sentence.outputCopied[std::size_t(i)])
            style = QString::fromLatin1(kCopiedStyle);
        anyCopied |= bool(m_sentence.outputCopied[std::size_t(i)]);
        QString span = tokenSpan(token, style);
        if (std::size_t(i) < m_sentence.copyGate.size())
            span += QStringLiteral("<sub style=\"color:gray\">%1</sub>")
                        .arg(QLocale().toString(double(m_sentence.copyGate[std::size_t(i)]), 'f', 2));
        output << span;
    }
    const bool pointer = !m_sentence.copyGate.empty();
    QString sourceHtml = source.join(QLatin1Char(' '));
    if (m_sentence.truncatedInput)
        sourceHtml += tr(" <small>(cut to the first %1 tokens)</small>").arg(Seq2SeqModel::kMaxInputTokens);
    m_sourceView->setText(sourceHtml);
    m_outputView->setText(output.join(QLatin1Char(' ')));

    // The legend explains only the marks that are on screen.
    QStringList legend;
    if (anyUnknown)
        legend << tr("<span style=\"%1\">&nbsp;underlined&nbsp;</span>: not in the model's vocabulary (read as "
                     "&lt;UNK&gt;)").arg(QString::fromLatin1(kUnknownStyle));
    if (anyCopied && pointer)
        legend << tr("<span style=\"%1\">&nbsp;italic&nbsp;</span>: not in the vocabulary, copied from the input by "
                     "the pointer").arg(QString::fromLatin1(kCopiedStyle));
    else if (anyCopied)
        legend << tr("<span style=\"%1\">&nbsp;italic&nbsp;</span>: the model said &lt;UNK&gt;; the input word it "
                     "attended to most is shown instead").arg(QString::fromLatin1(kCopiedStyle));
    if (pointer)
        legend << tr("small numbers: p_gen, the share generated from the vocabulary; the rest is copied");
    m_notice->setText(QStringLiteral("<small>%1</small>").arg(legend.join(QStringLiteral("<br>"))));
    m_notice->setVisible(!legend.isEmpty());

    if (m_sentence.attention.empty()) {
        m_cellInfo->setText(tr("<small>This model has no attention (variant none): there is no heatmap, and "
                               "unknown words are not copied.</small>"));
        return;
    }
    if (m_row < 0) {
        m_cellInfo->setText(tr("<small>Click a cell of the heatmap to follow one output word; double-click it to see "
                               "how its weight is computed.</small>"));
        return;
    }
    const QLocale locale;
    m_cellInfo->setText(tr("Output <b>%1</b> looks at input <b>%2</b> with weight <b>%3</b>")
                            .arg(QString::fromStdString(m_sentence.outputTokens[std::size_t(m_row)]).toHtmlEscaped(),
                                 QString::fromStdString(m_sentence.sourceTokens[std::size_t(m_column)]).toHtmlEscaped(),
                                 locale.toString(m_sentence.weight(m_row, m_column), 'f', 3)));
}

void InferencePanel::updateModelInfo()
{
    const bool best = choice() == Choice::Best;
    const QString description = m_replay ? m_replayDescription : best ? m_bestDescription : m_latestDescription;
    m_modelInfo->setFullText(currentModel() ? description : tr("none yet"));
}
