#include "ui/charlm/readoutpanel.h"

#include "ui/charlm/charvaluetext.h"

#include <QBuffer>
#include <QGroupBox>
#include <QPainter>
#include <QPixmap>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>

namespace {

const QColor kExpected(200, 235, 200);  // the character that did come next, among the five

// In the table a space must be seen: ␣.
QString tableCharacter(char32_t c)
{
    return c == U' ' ? QStringLiteral("␣") : visibleCharacter(c);
}

QString readoutPercent(double probability)
{
    return probability < 0.005 ? QStringLiteral("<1%") : QStringLiteral("%1%").arg(std::lround(100 * probability));
}

// The activation colours from -1 to 1, as an inline image with its ends named.
QString activationLegend()
{
    constexpr int kWidth = 90, kHeight = 10;
    QPixmap bar(kWidth, kHeight);
    {
        QPainter painter(&bar);
        for (int x = 0; x < kWidth; ++x) {
            painter.setPen(divergingColour(-1 + 2.0 * x / (kWidth - 1)));
            painter.drawLine(x, 0, x, kHeight);
        }
    }
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    bar.save(&buffer, "PNG");
    return QObject::tr("−1 <img src=\"data:image/png;base64,%1\"> +1").arg(QString::fromLatin1(png.toBase64()));
}

QString unitName(int layer, int unit)
{
    return QObject::tr("layer %1, unit %2").arg(layer + 1).arg(unit);
}

}

ReadoutPanel::ReadoutPanel(QWidget *parent)
    : QWidget(parent), m_input(new QPlainTextEdit), m_layer(new QSpinBox), m_unit(new QSpinBox), m_unitLabel(new QLabel),
      m_status(new QLabel), m_activations(new CharValueText(CharValueText::Style::Background)),
      m_next(new QTableWidget(0, 1 + kTopK)), m_units(new QTreeWidget), m_unitsCaption(new QLabel),
      m_read(new QTimer(this)), m_followNet(new QTimer(this))
{
    m_input->setObjectName(QStringLiteral("readoutInput"));
    m_input->setTabChangesFocus(true);  // Tab leads on to the next field instead of typing a tab
    m_input->setPlaceholderText(tr("Type here: the model reads it as you type."));
    m_input->setPlainText(QStringLiteral("The quick brown fox"));
    m_input->setMaximumHeight(3 * fontMetrics().lineSpacing() + 12);
    m_layer->setObjectName(QStringLiteral("readoutLayer"));
    m_layer->setPrefix(tr("layer "));
    m_layer->setToolTip(tr("The recurrent layer whose unit colours the text."));
    m_unit->setObjectName(QStringLiteral("readoutUnit"));
    m_unit->setPrefix(tr("unit "));
    m_unit->setToolTip(tr("The hidden unit whose activation after each character colours it: blue below zero, "
                          "red above."));
    m_unitLabel->setWordWrap(true);
    m_status->setWordWrap(true);
    m_status->setStyleSheet(QStringLiteral("color: #b35900;"));
    m_status->hide();
    m_activations->setObjectName(QStringLiteral("activationView"));
    m_input->setAccessibleName(tr("Text for the model to read"));
    m_activations->setAccessibleName(tr("Activation view"));
    m_activations->setAccessibleDescription(tr("The text read, each character coloured by the chosen hidden unit's "
                                               "activation after it: blue below zero, red above."));
    m_activations->setPlaceholder(tr("Train a model (or open one) to see its units."));
    m_activations->setToolTipText([this](int i) {
        const CharValueText::Cell &cell = m_activations->cell(i);
        if (!cell.hasValue)
            return tr("%1 (position %2): not a character of the model, not read").arg(visibleCharacter(cell.character)).arg(i);
        return tr("%1 (position %2): %3 = %4").arg(visibleCharacter(cell.character)).arg(i).arg(unitName(layer(), unit()))
            .arg(cell.value, 0, 'f', 3);
    });

    QStringList headers{tr("read")};
    for (int k = 1; k <= kTopK; ++k)
        headers << (k == 1 ? tr("1st") : k == 2 ? tr("2nd") : k == 3 ? tr("3rd") : tr("%1th").arg(k));
    m_next->setObjectName(QStringLiteral("nextCharacters"));
    m_next->setHorizontalHeaderLabels(headers);
    m_next->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_next->setTabKeyNavigation(false);  // read-only rows: the arrows move between them, Tab moves on
    m_next->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_next->setSelectionMode(QAbstractItemView::SingleSelection);
    m_next->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_next->horizontalHeader()->setMinimumSectionSize(fontMetrics().horizontalAdvance(QStringLiteral("W  99%")) + 4);
    m_next->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Fixed);
    m_next->setColumnWidth(0, m_next->horizontalHeader()->minimumSectionSize());
    m_next->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_next->setToolTip(tr("After each character read, the five the model expects next. Green: the one that did "
                          "come next."));

    m_units->setObjectName(QStringLiteral("rankedUnits"));
    m_units->setHeaderLabels({tr("unit"), tr("tracks"), tr("r")});
    m_units->setRootIsDecorated(false);
    m_units->setToolTip(tr("Units ranked by the strongest correlation (Pearson r) of their activation with a feature "
                           "of the text. Click one to colour the text by it."));
    m_units->header()->setStretchLastSection(false);
    m_units->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_unitsCaption->setWordWrap(true);
    m_read->setSingleShot(true);
    m_read->setInterval(40);
    m_followNet->setSingleShot(true);
    m_followNet->setInterval(500);

    auto *scroll = new QScrollArea;
    scroll->setWidget(m_activations);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *unitRow = new QHBoxLayout;
    unitRow->addWidget(new QLabel(tr("Colour by")));
    unitRow->addWidget(m_layer);
    unitRow->addWidget(m_unit);
    unitRow->addStretch(1);
    unitRow->addWidget(new QLabel(activationLegend()));
    auto *textColumn = new QWidget;
    auto *textLayout = new QVBoxLayout(textColumn);
    textLayout->setContentsMargins(0, 0, 0, 0);
    textLayout->addLayout(unitRow);
    textLayout->addWidget(m_unitLabel);
    textLayout->addWidget(scroll, 1);
    auto *unitsColumn = new QWidget;
    auto *unitsLayout = new QVBoxLayout(unitsColumn);
    unitsLayout->setContentsMargins(0, 0, 0, 0);
    unitsLayout->addWidget(new QLabel(tr("<b>Units that track something</b>")));
    unitsLayout->addWidget(m_unitsCaption);
    unitsLayout->addWidget(m_units, 1);

    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(textColumn);
    split->addWidget(m_next);
    split->addWidget(unitsColumn);
    split->setSizes({360, 420, 240});  // in proportion: the splitter scales them to its width
    auto *box = new QGroupBox(tr("Type and see"));
    auto *boxLayout = new QVBoxLayout(box);
    boxLayout->addWidget(m_input);
    boxLayout->addWidget(m_status);
    boxLayout->addWidget(split, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(box);

    connect(m_input, &QPlainTextEdit::textChanged, m_read, qOverload<>(&QTimer::start));
    connect(m_read, &QTimer::timeout, this, &ReadoutPanel::refresh);
    connect(m_followNet, &QTimer::timeout, this, &ReadoutPanel::refresh);
    connect(m_layer, qOverload<int>(&QSpinBox::valueChanged), this, &ReadoutPanel::colourByUnit);
    connect(m_unit, qOverload<int>(&QSpinBox::valueChanged), this, &ReadoutPanel::colourByUnit);
    connect(m_activations, &CharValueText::cellClicked, this, &ReadoutPanel::showPosition);
    connect(m_next, &QTableWidget::currentCellChanged, this, [this](int row) {
        if (row >= 0)
            m_activations->setSelected(row);
    });
    connect(m_units, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (item)
            selectUnit(item->data(0, Qt::UserRole).toInt(), item->data(0, Qt::UserRole + 1).toInt());
    });
    clearRanking(tr("Ranked when training ends."));
    updateUnitRanges();
}

void ReadoutPanel::setNet(std::shared_ptr<const CharInferenceNet> net)
{
    m_net = std::move(net);
    updateUnitRanges();
    // Snapshots may come faster than the text can be read: the first starts the timer, the others
    // wait for it. A first model is read at once.
    if (!m_readout.layers)
        m_read->start();
    else if (!m_followNet->isActive())
        m_followNet->start();
}

void ReadoutPanel::updateUnitRanges()
{
    const QSignalBlocker layerBlock(m_layer), unitBlock(m_unit);
    m_layer->setRange(1, m_net ? m_net->layers() : 1);
    m_unit->setRange(0, m_net ? m_net->hiddenSize() - 1 : 0);
    m_layer->setEnabled(m_net != nullptr);
    m_unit->setEnabled(m_net != nullptr);
    m_unitLabel->setText(unitDescription());
}

void ReadoutPanel::setText(const QString &text)
{
    m_input->setPlainText(text);
}

QString ReadoutPanel::text() const
{
    return m_input->toPlainText();
}

int ReadoutPanel::layer() const
{
    return m_layer->value() - 1;
}

int ReadoutPanel::unit() const
{
    return m_unit->value();
}

void ReadoutPanel::selectUnit(int layer, int unit)
{
    {
        const QSignalBlocker layerBlock(m_layer), unitBlock(m_unit);
        m_layer->setValue(layer + 1);
        m_unit->setValue(unit);
    }
    colourByUnit();
}

void ReadoutPanel::refresh()
{
    m_read->stop();
    m_followNet->stop();
    if (!m_net) {
        m_readout = CharReadout();
        m_activations->setCells({}, -1, 1);
        m_next->setRowCount(0);
        return;
    }
    std::u32string typed = text().toStdU32String();
    const bool cut = typed.size() > size_t(kMaxCharacters);
    if (cut) {
        typed.resize(size_t(kMaxCharacters));
        m_status->setText(tr("Only the first %1 characters are read.").arg(kMaxCharacters));
    }
    m_status->setVisible(cut);
    m_readout = readOut(*m_net, typed, kTopK);
    colourByUnit();
    fillNextTable();
}

void ReadoutPanel::colourByUnit()
{
    m_unitLabel->setText(unitDescription());
    const CharReadout &r = m_readout;
    if (r.layers == 0) {
        m_activations->setCells({}, -1, 1);
        return;
    }
    const int layer = std::min(this->layer(), r.layers - 1);
    const int unit = std::min(this->unit(), r.hidden - 1);
    std::vector<CharValueText::Cell> cells;
    cells.reserve(r.text.size());
    for (size_t i = 0; i < r.text.size(); ++i)
        cells.push_back({r.text[i], r.unknown[i] ? 0.0 : double(r.activation(i, layer, unit)), !r.unknown[i]});
    const int selected = m_activations->selected();
    m_activations->setCells(std::move(cells), -1, 1);
    m_activations->setSelected(selected);
}

QString ReadoutPanel::unitDescription() const
{
    if (!m_net)
        return {};
    for (const UnitScore &score : m_ranking)
        if (score.layer == layer() && score.unit == unit())
            return tr("r = %1 with %2").arg(score.correlation, 0, 'f', 2).arg(QString::fromStdString(featureName(score.feature)));
    return tr("blue below zero, red above");
}

void ReadoutPanel::fillNextTable()
{
    const CharReadout &r = m_readout;
    const QSignalBlocker block(m_next);
    m_next->setRowCount(int(r.text.size()));
    for (size_t i = 0; i < r.text.size(); ++i) {
        auto *read = new QTableWidgetItem(tableCharacter(r.text[i]));
        read->setTextAlignment(Qt::AlignCenter);
        m_next->setItem(int(i), 0, read);
        m_next->setVerticalHeaderItem(int(i), new QTableWidgetItem(QString::number(i)));
        const bool hasNext = i + 1 < r.text.size();
        for (int k = 0; k < kTopK; ++k) {
            auto *item = new QTableWidgetItem;
            if (!r.unknown[i] && k < int(r.next[i].size())) {
                const CharReadout::Next &n = r.next[i][size_t(k)];
                item->setText(QStringLiteral("%1  %2").arg(tableCharacter(n.character), readoutPercent(n.probability)));
                if (hasNext && n.character == r.text[i + 1])
                    item->setBackground(kExpected);
            } else if (k == 0 && r.unknown[i]) {
                item->setText(tr("not read"));
            }
            m_next->setItem(int(i), 1 + k, item);
        }
    }
    if (!r.text.empty()) {
        const int last = int(r.text.size()) - 1;
        m_next->setCurrentCell(last, 0);
        m_next->scrollToItem(m_next->item(last, 0));
        m_activations->setSelected(last);
    }
}

void ReadoutPanel::showPosition(int position)
{
    if (position < m_next->rowCount()) {
        m_next->setCurrentCell(position, 0);
        m_next->scrollToItem(m_next->item(position, 0));
    }
}

void ReadoutPanel::setRanking(const std::vector<UnitScore> &units, int64_t characters)
{
    m_ranking = units;
    const QSignalBlocker block(m_units);
    m_units->clear();
    for (const UnitScore &score : units) {
        auto *item = new QTreeWidgetItem(m_units, {tr("L%1 #%2").arg(score.layer + 1).arg(score.unit),
                                                   QString::fromStdString(featureName(score.feature)),
                                                   QString::number(score.correlation, 'f', 2)});
        item->setData(0, Qt::UserRole, score.layer);
        item->setData(0, Qt::UserRole + 1, score.unit);
        item->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
    }
    m_units->resizeColumnToContents(0);
    m_units->resizeColumnToContents(2);
    m_unitsCaption->setText(units.empty() ? tr("No unit tracks any feature of the text (each is constant over it).")
                                          : tr("Pearson r over the first %1 characters of the text.").arg(QLocale().toString(qlonglong(characters))));
    if (units.empty()) {
        m_unitLabel->setText(unitDescription());
        return;
    }
    // The strongest first, so the text shows something at once.
    m_units->setCurrentItem(m_units->topLevelItem(0));
    selectUnit(units.front().layer, units.front().unit);
}

void ReadoutPanel::clearRanking(const QString &message)
{
    m_ranking.clear();
    m_units->clear();
    m_unitsCaption->setText(message);
    m_unitLabel->setText(unitDescription());
}

void ReadoutPanel::saveSettings(QSettings &settings) const
{
    settings.setValue(QStringLiteral("readoutText"), text());
}

void ReadoutPanel::restoreSettings(QSettings &settings)
{
    setText(settings.value(QStringLiteral("readoutText"), text()).toString());
}
