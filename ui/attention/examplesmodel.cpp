#include "ui/attention/examplesmodel.h"

#include <QBrush>
#include <QColor>

ExamplesModel::ExamplesModel(QObject *parent) : QAbstractTableModel(parent) {}

void ExamplesModel::setExamples(std::vector<Example> examples)
{
    beginResetModel();
    m_examples = std::move(examples);
    rebuildRows();
    endResetModel();
}

void ExamplesModel::setFailuresOnly(bool failuresOnly)
{
    if (failuresOnly == m_failuresOnly)
        return;
    beginResetModel();
    m_failuresOnly = failuresOnly;
    rebuildRows();
    endResetModel();
}

void ExamplesModel::rebuildRows()
{
    m_rows.clear();
    for (std::size_t i = 0; i < m_examples.size(); ++i)
        if (!m_failuresOnly || !m_examples[i].match)
            m_rows.push_back(int(i));
}

int ExamplesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ExamplesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ExamplesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Example &e = example(index.row());
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Input: return QString::fromStdString(e.input);
        case Output: return QString::fromStdString(e.output);
        case Reference: return QString::fromStdString(e.reference);
        case Match: return e.match ? tr("✓ yes") : tr("✗ no");
        default: return {};
        }
    }
    if (role == Qt::ForegroundRole && (index.column() == Match || (index.column() == Output && !e.match)))
        return QBrush(e.match ? QColor(0x1b, 0x7f, 0x3b) : QColor(0xb0, 0x00, 0x20));
    if (role == Qt::TextAlignmentRole && index.column() == Match)
        return int(Qt::AlignCenter);
    return {};
}

QVariant ExamplesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Vertical)
        return m_rows.empty() ? QVariant() : QVariant(m_rows[std::size_t(section)] + 1);
    switch (section) {
    case Input: return tr("Input");
    case Output: return tr("Output");
    case Reference: return tr("Reference");
    case Match: return tr("Match");
    default: return {};
    }
}
