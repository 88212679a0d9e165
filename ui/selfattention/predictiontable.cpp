#include "ui/selfattention/predictiontable.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace {

constexpr int kMinCellWidth = 52;
const QColor kErrorColor(176, 0, 32);

// "0.25", the locale's "0,25", "1/4" or nothing (0). False for anything else.
bool parseWeight(const QString &text, double *value)
{
    const QString t = text.trimmed();
    if (t.isEmpty()) {
        *value = 0;
        return true;
    }
    const auto number = [](const QString &s, double *out) {
        bool ok = false;
        *out = QLocale().toDouble(s, &ok);
        if (!ok)
            *out = QLocale::c().toDouble(s, &ok);
        return ok && std::isfinite(*out);
    };
    const int slash = t.indexOf(QLatin1Char('/'));
    if (slash < 0)
        return number(t, value);
    double numerator = 0;
    double denominator = 0;
    if (!number(t.left(slash).trimmed(), &numerator) || !number(t.mid(slash + 1).trimmed(), &denominator)
        || denominator == 0)
        return false;
    *value = numerator / denominator;
    return true;
}

QString quoted(const QString &word)
{
    return QStringLiteral("“%1”").arg(word);
}

void fitToContents(QTableWidget *table)
{
    table->resizeColumnsToContents();
    for (int c = 0; c < table->columnCount(); ++c)
        table->setColumnWidth(c, std::max(table->columnWidth(c), kMinCellWidth));
    table->resizeRowsToContents();
    int width = table->verticalHeader()->sizeHint().width() + 2 * table->frameWidth();
    for (int c = 0; c < table->columnCount(); ++c)
        width += table->columnWidth(c);
    int height = table->horizontalHeader()->sizeHint().height() + 2 * table->frameWidth();
    for (int r = 0; r < table->rowCount(); ++r)
        height += table->rowHeight(r);
    table->setFixedSize(width, height);
}

// Tab moves from cell to cell, and from the last cell (or Shift+Tab from the first) on to the next
// widget: QTableView would wrap around and keep keyboard users inside the table.
class GuessTable : public QTableWidget
{
protected:
    QModelIndex moveCursor(CursorAction action, Qt::KeyboardModifiers modifiers) override
    {
        const QModelIndex next = QTableWidget::moveCursor(action, modifiers);
        const QModelIndex current = currentIndex();
        if ((action == MoveNext && next.row() < current.row()) || (action == MovePrevious && next.row() > current.row()))
            return {};
        return next;
    }
};

QTableWidget *makeTable(QTableWidget *table)
{
    table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    return table;
}

} // namespace

PredictionTable::PredictionTable(QWidget *parent) : QWidget(parent)
{
    m_guessTable = makeTable(new GuessTable);
    m_guessTable->setObjectName(QStringLiteral("guessTable"));
    m_guessTable->setEditTriggers(QAbstractItemView::AllEditTriggers);
    m_guessTable->setToolTip(tr("Your guess: how much each query word (row) attends to each key word (column). "
                                "Type 0.25, 1/4 or leave a cell empty for 0."));
    m_differenceTable = makeTable(new QTableWidget);
    m_differenceTable->setObjectName(QStringLiteral("differenceTable"));
    m_differenceTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_differenceTable->setSelectionMode(QAbstractItemView::NoSelection);
    m_differenceTable->setFocusPolicy(Qt::NoFocus);

    m_message = new QLabel;
    m_message->setObjectName(QStringLiteral("predictionMessage"));
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color: %1;").arg(kErrorColor.name()));
    m_message->hide();
    m_differenceTitle = new QLabel(tr("<b>Difference</b> (computed − your guess; blue: attends more than you thought)"));
    m_differenceTitle->setWordWrap(true);
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("predictionSummary"));
    m_summary->setWordWrap(true);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_guessTable, 0, Qt::AlignLeft);
    layout->addWidget(m_message);
    layout->addWidget(m_differenceTitle);
    layout->addWidget(m_differenceTable, 0, Qt::AlignLeft);
    layout->addWidget(m_summary);

    connect(m_guessTable, &QTableWidget::cellChanged, this, &PredictionTable::onItemChanged);
    rebuild();
    clearDifferences();
}

void PredictionTable::setTokens(const QStringList &tokens)
{
    if (tokens == m_tokens)
        return;
    m_tokens = tokens;
    rebuild();
    clearDifferences();
    hideMessage();
}

void PredictionTable::setGuess(int row, int column, const QString &text)
{
    if (QTableWidgetItem *item = m_guessTable->item(row, column); item && column < m_tokens.size())
        item->setText(text);
}

QString PredictionTable::guessText(int row, int column) const
{
    const QTableWidgetItem *item = column < m_tokens.size() ? m_guessTable->item(row, column) : nullptr;
    return item ? item->text() : QString();
}

void PredictionTable::clearGuesses()
{
    for (int r = 0; r < m_tokens.size(); ++r)
        for (int c = 0; c < m_tokens.size(); ++c)
            setGuess(r, c, QString());
}

bool PredictionTable::check()
{
    const int n = int(m_tokens.size());
    if (n == 0) {
        showMessage(tr("Type a sentence first: there is nothing to predict."));
        return false;
    }
    for (int r = 0; r < n; ++r) {
        double sum = 0;
        for (int c = 0; c < n; ++c) {
            double value = 0;
            const QString text = guessText(r, c).trimmed();
            if (!parseWeight(text, &value)) {
                m_guessTable->setCurrentCell(r, c);
                showMessage(tr("Row %1, column %2: %3 is not a number. Type a weight such as 0.25 or 1/4.")
                                .arg(quoted(m_tokens[r]), quoted(m_tokens[c]), quoted(text)));
                return false;
            }
            if (value < 0 || value > 1) {
                m_guessTable->setCurrentCell(r, c);
                showMessage(tr("Row %1, column %2: %3 is outside 0…1. A weight is the share of the query's "
                               "attention that goes to this key.")
                                .arg(quoted(m_tokens[r]), quoted(m_tokens[c]), text));
                return false;
            }
            sum += value;
        }
        if (std::abs(sum - 1) > kSumTolerance) {
            m_guessTable->setCurrentCell(r, n);
            showMessage(tr("Row %1 sums to %2, not 1.0. The weights of one query over all keys must add up to 1 "
                           "(± %3); empty cells count as 0.")
                            .arg(quoted(m_tokens[r]), QLocale().toString(sum, 'f', 2),
                                 QLocale().toString(kSumTolerance, 'f', 2)));
            return false;
        }
    }
    hideMessage();
    return true;
}

std::vector<double> PredictionTable::guesses() const
{
    std::vector<double> values;
    for (int r = 0; r < m_tokens.size(); ++r) {
        for (int c = 0; c < m_tokens.size(); ++c) {
            double value = 0;
            values.push_back(parseWeight(guessText(r, c), &value) ? value : 0.0);
        }
    }
    return values;
}

QString PredictionTable::message() const
{
    return m_message->isHidden() ? QString() : m_message->text();
}

bool PredictionTable::isMessageShown() const
{
    return !m_message->isHidden();
}

void PredictionTable::showDifferences(const std::vector<double> &computed)
{
    const int n = int(m_tokens.size());
    if (computed.size() != std::size_t(n) * std::size_t(n) || n == 0) {
        clearDifferences();
        return;
    }
    const std::vector<double> guessed = guesses();
    m_differences.resize(computed.size());
    const QLocale locale;
    m_differenceTable->setRowCount(n);
    m_differenceTable->setColumnCount(n);
    m_differenceTable->setHorizontalHeaderLabels(m_tokens);
    m_differenceTable->setVerticalHeaderLabels(m_tokens);
    double total = 0;
    std::size_t largest = 0;
    for (std::size_t i = 0; i < computed.size(); ++i) {
        const double d = computed[i] - guessed[i];
        m_differences[i] = d;
        total += std::abs(d);
        if (std::abs(d) > std::abs(m_differences[largest]))
            largest = i;
        auto *item = new QTableWidgetItem((d >= 0.005 ? QStringLiteral("+") : QString()) + locale.toString(d, 'f', 2));
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        item->setToolTip(tr("computed %1, your guess %2").arg(locale.toString(computed[i], 'f', 3),
                                                               locale.toString(guessed[i], 'f', 3)));
        // Tint strength follows the size of the miss; half a unit or more is full strength.
        const double strength = std::min(1.0, std::abs(d) / 0.5);
        const QColor tint = d >= 0 ? QColor(33, 102, 172) : QColor(214, 96, 77);
        item->setBackground(QColor::fromRgbF(1 - strength * 0.6 * (1 - tint.redF()),
                                             1 - strength * 0.6 * (1 - tint.greenF()),
                                             1 - strength * 0.6 * (1 - tint.blueF())));
        item->setForeground(QColor(20, 20, 20));
        m_differenceTable->setItem(int(i) / n, int(i) % n, item);
    }
    fitToContents(m_differenceTable);
    const int row = int(largest) / n;
    const int column = int(largest) % n;
    m_summary->setText(tr("Mean absolute difference %1. Largest: %2 → %3, computed %4, your guess %5.")
                           .arg(locale.toString(total / double(computed.size()), 'f', 3),
                                m_tokens[row], m_tokens[column],
                                locale.toString(computed[largest], 'f', 2), locale.toString(guessed[largest], 'f', 2)));
    for (QWidget *widget : std::initializer_list<QWidget *>{m_differenceTitle, m_differenceTable, m_summary})
        widget->show();
}

void PredictionTable::clearDifferences()
{
    m_differences.clear();
    m_differenceTable->clear();
    m_differenceTable->setRowCount(0);
    m_differenceTable->setColumnCount(0);
    m_summary->clear();
    for (QWidget *widget : std::initializer_list<QWidget *>{m_differenceTitle, m_differenceTable, m_summary})
        widget->hide();
}

double PredictionTable::difference(int row, int column) const
{
    const int n = int(m_tokens.size());
    if (m_differences.empty() || row < 0 || row >= n || column < 0 || column >= n)
        return 0;
    return m_differences[std::size_t(row) * std::size_t(n) + std::size_t(column)];
}

void PredictionTable::rebuild()
{
    m_rebuilding = true;
    const int n = int(m_tokens.size());
    m_guessTable->clear();
    m_guessTable->setRowCount(n);
    m_guessTable->setColumnCount(n + 1);
    m_guessTable->setHorizontalHeaderLabels(QStringList(m_tokens) << tr("Σ row"));
    m_guessTable->setVerticalHeaderLabels(m_tokens);
    for (int r = 0; r < n; ++r) {
        for (int c = 0; c < n; ++c) {
            auto *item = new QTableWidgetItem;
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_guessTable->setItem(r, c, item);
        }
        auto *sum = new QTableWidgetItem;
        sum->setFlags(Qt::ItemIsEnabled);
        sum->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        sum->setBackground(palette().color(QPalette::AlternateBase));
        sum->setToolTip(tr("The row's sum; it must be 1."));
        m_guessTable->setItem(r, n, sum);
        updateRowSum(r);
    }
    fitToContents(m_guessTable);
    m_rebuilding = false;
}

void PredictionTable::updateRowSum(int row)
{
    const int n = int(m_tokens.size());
    QTableWidgetItem *sumItem = m_guessTable->item(row, n);
    if (!sumItem)
        return;
    double sum = 0;
    bool valid = true;
    for (int c = 0; c < n; ++c) {
        double value = 0;
        valid = parseWeight(guessText(row, c), &value) && valid;
        sum += value;
    }
    const QSignalBlocker blocker(m_guessTable);
    sumItem->setText(valid ? QLocale().toString(sum, 'f', 2) : QStringLiteral("?"));
    const bool good = valid && std::abs(sum - 1) <= kSumTolerance;
    sumItem->setForeground(good ? palette().color(QPalette::Text) : kErrorColor);
}

void PredictionTable::onItemChanged(int row, int column)
{
    if (m_rebuilding || column >= m_tokens.size())
        return;
    updateRowSum(row);
    // Old differences describe other guesses; the message may describe a fixed cell.
    clearDifferences();
    hideMessage();
    emit guessesEdited();
}

void PredictionTable::showMessage(const QString &text)
{
    m_message->setText(text);
    m_message->show();
}

void PredictionTable::hideMessage()
{
    m_message->clear();
    m_message->hide();
}
