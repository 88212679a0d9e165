#include "ui/attention/compareview.h"
#include "ui/attention/compareddecoder.h"
#include "ui/attention/decodedheatmap.h"

#include "engine/attention/weighthistory.h"
#include "ui/core/attentionheatmap.h"
#include "ui/core/colorgradients.h"
#include "ui/core/exportdialog.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <exception>
#include <iterator>

namespace {

// As the Reverse page: skips decoding on every keystroke, still feels live.
constexpr int kCompareDebounceMs = 50;
// The difference's colour range never shrinks below this, so identical models show plain white
// rather than a scale stretched over rounding.
constexpr double kLeastDifferenceRange = 0.01;

const char *const kOpenKey = "open";

QString sideName(CompareView::Side side)
{
    return side == CompareView::Side::A ? QStringLiteral("A") : QStringLiteral("B");
}

// Three heatmaps across: the axis titles give their room to the cells. The words on the axes, and
// the hover text, still say what rows and columns are.
void giveAxisTitlesRoom(AttentionHeatmap *heatmap)
{
    heatmap->setRoles(AttentionHeatmap::tr("output"), QString(), AttentionHeatmap::tr("input"), QString());
}

QStringList tokens(const std::vector<std::string> &words)
{
    QStringList list;
    for (const std::string &word : words)
        list << QString::fromStdString(word);
    return list;
}

}

CompareView::CompareView(const WeightHistory &history, QWidget *parent)
    : QWidget(parent), m_history(history), m_sentence(new QLineEdit), m_debounce(new QTimer(this)),
      m_export(new QToolButton)
{
    m_sentence->setObjectName(QStringLiteral("compareSentence"));
    m_sentence->setPlaceholderText(tr("Type a sentence; the Reverse page shares it"));
    m_sentence->setClearButtonEnabled(true);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kCompareDebounceMs);
    connect(m_debounce, &QTimer::timeout, this, &CompareView::compare);
    connect(m_sentence, &QLineEdit::textEdited, this, [this](const QString &text) {
        m_debounce->start();
        emit sentenceEdited(text);
    });

    auto *menu = new QMenu(m_export);
    menu->addAction(tr("Heatmap &A…"), this, [this] {
        exportHeatmap(m_a.heatmap, tr("Export Heatmap A"), QStringLiteral("compare_a.png"));
    });
    menu->addAction(tr("Heatmap &B…"), this, [this] {
        exportHeatmap(m_b.heatmap, tr("Export Heatmap B"), QStringLiteral("compare_b.png"));
    });
    menu->addAction(tr("&Difference B − A…"), this, [this] {
        exportHeatmap(m_difference, tr("Export the Difference"), QStringLiteral("compare_difference.png"));
    });
    m_export->setText(tr("Export"));
    m_export->setMenu(menu);
    m_export->setPopupMode(QToolButton::InstantPopup);
    m_export->setToolTip(tr("Save heatmap A, B or their difference as a PNG, PDF, SVG or JPEG image."));

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Sentence:")));
    top->addWidget(m_sentence, 1);
    top->addWidget(m_export);
    // A and B side by side, their difference below across the width: with the lab's docks open
    // the page is too narrow for three heatmaps in a row.
    auto *pair = new QSplitter(Qt::Horizontal);
    pair->addWidget(createPane(Side::A));
    pair->addWidget(createPane(Side::B));
    pair->setChildrenCollapsible(false);
    auto *splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(pair);
    splitter->addWidget(createDifferencePane());
    splitter->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);

    rebuildPickers();
    compare();
}

QWidget *CompareView::createPane(Side side)
{
    Pane &p = pane(side);
    p.picker = new QComboBox;
    p.picker->setObjectName(QStringLiteral("picker") + sideName(side));
    p.picker->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    p.picker->setMinimumContentsLength(10);
    p.picker->setToolTip(tr("The model on side %1: the best or latest of the run, an epoch of it, an Experiments "
                            "run, a model file or another lab's model.").arg(sideName(side)));
    connect(p.picker, qOverload<int>(&QComboBox::activated), this, [this, side] { pickerActivated(side); });
    p.output = new QLabel;
    p.output->setObjectName(QStringLiteral("output") + sideName(side));
    p.output->setWordWrap(true);
    p.output->setTextInteractionFlags(Qt::TextSelectableByMouse);
    p.heatmap = new AttentionHeatmap;
    p.heatmap->setObjectName(QStringLiteral("heatmap") + sideName(side));
    p.heatmap->setAccessibleName(tr("Attention of model %1").arg(sideName(side)));
    p.heatmap->setMinimumSize(180, 160);
    giveAxisTitlesRoom(p.heatmap);

    auto *label = new QLabel(QStringLiteral("&%1:").arg(sideName(side)));
    label->setBuddy(p.picker);
    auto *header = new QHBoxLayout;
    header->addWidget(label);
    header->addWidget(p.picker, 1);
    auto *column = new QWidget;
    auto *layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(header);
    layout->addWidget(p.output);
    layout->addWidget(p.heatmap, 1);
    return column;
}

QWidget *CompareView::createDifferencePane()
{
    m_difference = new AttentionHeatmap;
    m_differenceNote = new QLabel;
    m_difference->setObjectName(QStringLiteral("differenceHeatmap"));
    m_difference->setAccessibleName(tr("Attention of B minus attention of A"));
    m_difference->setMinimumSize(180, 160);
    giveAxisTitlesRoom(m_difference);
    m_difference->setColorScale(divergingGradient(), QCPRange(-kLeastDifferenceRange, kLeastDifferenceRange),
                                tr("B − A"));
    m_differenceNote->setObjectName(QStringLiteral("differenceNote"));
    m_differenceNote->setWordWrap(true);
    auto *title = new QLabel(tr("<b>Difference B − A</b> (red: B looks more, blue: less)"));
    auto *header = new QHBoxLayout;
    header->addWidget(title);
    header->addWidget(m_differenceNote, 1);
    auto *pane = new QWidget;
    auto *layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(header);
    layout->addWidget(m_difference, 1);
    return pane;
}

void CompareView::setBestModel(const ModelSnapshot &model, const QString &description)
{
    m_best = model;
    m_bestDescription = description;
    modelsChanged();
}

void CompareView::setLatestModel(const ModelSnapshot &model, const QString &description)
{
    m_latest = model;
    m_latestDescription = description;
    modelsChanged();
}

void CompareView::historyChanged(bool restarted)
{
    if (restarted)
        m_epochModels.clear();
    // Epochs the history let go of to stay within its budget are let go of here too.
    for (auto it = m_epochModels.begin(); it != m_epochModels.end();)
        it = m_history.contains(it->first) ? std::next(it) : m_epochModels.erase(it);
    modelsChanged();
}

void CompareView::clearExperimentModels()
{
    m_runs.clear();
    modelsChanged();
}

void CompareView::addExperimentModel(const QString &label, const ModelSnapshot &model)
{
    m_runs.append({label, model});
    modelsChanged();
}

void CompareView::setDecoder(const SharedDecoder &decoder)
{
    const auto same = std::find_if(m_decoders.begin(), m_decoders.end(), [&decoder](const SharedDecoder &d) {
        return d.architecture == decoder.architecture;
    });
    if (same == m_decoders.end())
        m_decoders.append(decoder);
    else
        *same = decoder;
    modelsChanged();
}

void CompareView::modelsChanged()
{
    rebuildPickers();
    // An epoch brings a new latest model, maybe a best one and a history entry: one comparison for all.
    m_debounce->start();
}

QString CompareView::sentence() const
{
    return m_sentence->text();
}

void CompareView::setSentence(const QString &text)
{
    if (text == m_sentence->text()) {
        // Typed here and echoed back by the Reverse page: the field keeps its cursor and the
        // debounce compares it.
        if (m_debounce->isActive() || (m_hasComparison && !m_stale))
            return;
    } else {
        m_sentence->setText(text);
    }
    compare();
}

bool CompareView::pick(Side side, const QString &key)
{
    Pane &p = pane(side);
    const int index = p.picker->findData(key);
    if (index < 0 || key == QLatin1String(kOpenKey))
        return false;
    p.picker->setCurrentIndex(index);
    p.key = key;
    compare();
    return true;
}

QString CompareView::pickedKey(Side side) const
{
    return pane(side).key;
}

QComboBox *CompareView::picker(Side side) const
{
    return pane(side).picker;
}

AttentionHeatmap *CompareView::heatmap(Side side) const
{
    return pane(side).heatmap;
}

bool CompareView::loadFile(Side side, const QString &path, QString *error)
{
    try {
        Pane &p = pane(side);
        p.file = std::make_shared<const Seq2SeqModel>(Seq2SeqModel::load(QFile::encodeName(path).toStdString()));
        p.fileName = QFileInfo(path).fileName();
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    rebuildPickers();
    return pick(side, QStringLiteral("file"));
}

void CompareView::rebuildPickers()
{
    for (const Side side : {Side::A, Side::B}) {
        Pane &p = pane(side);
        const QSignalBlocker blocker(p.picker);
        p.picker->clear();
        const auto add = [&p](const QString &text, const QString &key, const QString &toolTip = QString()) {
            p.picker->addItem(text, key);
            if (!toolTip.isEmpty())
                p.picker->setItemData(p.picker->count() - 1, toolTip, Qt::ToolTipRole);
        };
        if (m_best)
            add(tr("Best so far"), QStringLiteral("best"), m_bestDescription);
        if (m_latest)
            add(tr("Latest epoch"), QStringLiteral("latest"), m_latestDescription);
        for (const int epoch : m_history.epochs())
            add(tr("Epoch %1").arg(epoch), QStringLiteral("epoch:%1").arg(epoch));
        for (int i = 0; i < m_runs.size(); ++i)
            add(tr("Experiments: %1").arg(m_runs[i].first), QStringLiteral("run:%1").arg(i), m_runs[i].first);
        for (int i = 0; i < m_decoders.size(); ++i)
            add(QStringLiteral("%1: %2").arg(m_decoders[i].architecture, m_decoders[i].description),
                QStringLiteral("decoder:%1").arg(i),
                tr("%1 (%2); its attention: the %3").arg(m_decoders[i].architecture, m_decoders[i].description,
                                                         m_decoders[i].attention));
        if (p.file)
            add(tr("File: %1").arg(p.fileName), QStringLiteral("file"));
        add(tr("File…"), QLatin1String(kOpenKey), tr("Open a model file (.ckpt) for this side."));

        // What was picked stays picked while it is offered; else A takes the best, B the latest.
        int index = p.key.isEmpty() ? -1 : p.picker->findData(p.key);
        if (index < 0)
            index = p.picker->findData(side == Side::A ? QStringLiteral("best") : QStringLiteral("latest"));
        p.key = index < 0 ? QString() : p.picker->itemData(index).toString();
        p.picker->setCurrentIndex(std::max(index, 0));
    }
}

void CompareView::pickerActivated(Side side)
{
    Pane &p = pane(side);
    const QString key = p.picker->currentData().toString();
    if (key == QLatin1String(kOpenKey)) {
        openFile(side);
        return;
    }
    p.key = key;
    compare();
}

void CompareView::openFile(Side side)
{
    Pane &p = pane(side);
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Model for %1").arg(sideName(side)),
                                                      settings.value(QStringLiteral("lastDirectory")).toString(),
                                                      tr("AttnScope models (*.ckpt)"));
    QString error;
    if (!path.isEmpty()) {
        settings.setValue(QStringLiteral("lastDirectory"), QFileInfo(path).absolutePath());
        if (loadFile(side, path, &error))
            return;
        QMessageBox::warning(this, tr("Cannot Open"),
                             tr("%1 could not be opened:\n\n%2").arg(QDir::toNativeSeparators(path), error));
    }
    // Cancelled or refused: back to what was picked.
    p.picker->setCurrentIndex(std::max(p.picker->findData(p.key), 0));
}

ModelSnapshot CompareView::modelFor(const Pane &p)
{
    if (p.key == QLatin1String("best"))
        return m_best;
    if (p.key == QLatin1String("latest"))
        return m_latest;
    if (p.key == QLatin1String("file"))
        return p.file;
    if (p.key.startsWith(QLatin1String("run:"))) {
        const int run = p.key.mid(4).toInt();
        return run >= 0 && run < m_runs.size() ? m_runs[run].second : nullptr;
    }
    if (p.key.startsWith(QLatin1String("epoch:"))) {
        const int epoch = p.key.mid(6).toInt();
        const auto cached = m_epochModels.find(epoch);
        if (cached != m_epochModels.end())
            return cached->second;
        if (!m_latest || !m_history.contains(epoch))
            return nullptr;
        try {
            // The latest model gives what the history does not keep: configuration and vocabulary.
            auto model = std::make_shared<const Seq2SeqModel>(m_history.modelAt(epoch, *m_latest));
            m_epochModels[epoch] = model;
            return model;
        } catch (const std::exception &) {
            return nullptr;
        }
    }
    return nullptr;
}

const SharedDecoder *CompareView::decoderFor(const Pane &p) const
{
    if (!p.key.startsWith(QLatin1String("decoder:")))
        return nullptr;
    const int decoder = p.key.mid(8).toInt();
    return decoder >= 0 && decoder < m_decoders.size() ? &m_decoders[decoder] : nullptr;
}

ComparedModel CompareView::comparedFor(const Pane &p)
{
    if (const SharedDecoder *decoder = decoderFor(p))
        return comparedDecoder(*decoder);
    const ModelSnapshot model = modelFor(p);
    return model ? comparedModel(model) : ComparedModel();
}

void CompareView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale)
        compare();
}

void CompareView::compare()
{
    m_debounce->stop();
    // Typing on the Reverse page or training would otherwise decode twice more per change.
    m_stale = !isVisible();
    if (m_stale)
        return;
    m_hasComparison = false;
    const ComparedModel a = comparedFor(m_a);
    const ComparedModel b = comparedFor(m_b);
    const QString text = m_sentence->text().trimmed();
    if (!a.decode || !b.decode) {
        showMessage(tr("Pick a model on each side: train one (F5), open one or choose File…"));
        return;
    }
    if (text.isEmpty()) {
        showMessage(tr("Type a sentence above"));
        return;
    }
    try {
        m_comparison = compareAttention(a, b, text.toStdString());
    } catch (const std::exception &e) {
        showMessage(tr("Cannot compare: %1").arg(QString::fromStdString(e.what())));
        return;
    }
    m_hasComparison = true;
    m_export->setEnabled(true);
    showOutputs();
    showDifference();
}

void CompareView::showMessage(const QString &message)
{
    for (AttentionHeatmap *map : {m_a.heatmap, m_b.heatmap, m_difference})
        map->showMessage(message);
    m_a.output->clear();
    m_b.output->clear();
    m_differenceNote->clear();
    m_export->setEnabled(false);
}

void CompareView::showOutputs()
{
    for (const Side side : {Side::A, Side::B}) {
        Pane &p = pane(side);
        const DecodedSentence &decoded = side == Side::A ? m_comparison.a : m_comparison.b;
        QString output = tr("<b>%1 outputs:</b> %2")
                             .arg(sideName(side), QString::fromStdString(decoded.text()).toHtmlEscaped());
        // A Transformer has many attentions: which one the heatmap shows.
        if (const SharedDecoder *decoder = decoderFor(p))
            output += QStringLiteral("<br><i>%1</i>")
                          .arg(tr("Its attention: the %1.").arg(decoder->attention).toHtmlEscaped());
        p.output->setText(output);
        // The pane's header already says which side it is: the title's narrow room goes to the model.
        p.heatmap->setTitle(p.picker->currentText());
        showDecodedSentence(*p.heatmap, decoded);
    }
}

void CompareView::showDifference()
{
    const AttentionComparison &c = m_comparison;
    if (!c.problem.empty()) {
        m_difference->showMessage(tr("No difference: %1.").arg(QString::fromStdString(c.problem)));
        m_differenceNote->clear();
        return;
    }
    float largest = 0;
    for (const float d : c.difference)
        largest = std::max(largest, std::abs(d));
    // Symmetric about zero, so white is "the same" and equal shades are equal amounts either way.
    const double range = std::max(double(largest), kLeastDifferenceRange);
    m_difference->setColorScale(divergingGradient(), QCPRange(-range, range), tr("B − A"));
    m_difference->setTitle(c.sameOutput() ? tr("B − A") : tr("B − A along A's output"));
    m_difference->setMatrix(tokens(c.a.sourceTokens), tokens(c.a.outputTokens), c.difference);
    m_differenceNote->setText(
        c.sameOutput() ? tr("Same output: cell by cell.")
                       : tr("The outputs differ: B is fed A's words, so each row is a word of A's output."));
}

void CompareView::exportHeatmap(AttentionHeatmap *heatmap, const QString &title, const QString &defaultName)
{
    if (!m_hasComparison)
        return;
    exportImageWithDialog(this, title, defaultName, heatmap,
                          [heatmap](const QString &path, int width, int height, QString *error) {
                              return heatmap->exportImage(path, width, height, error);
                          });
}
