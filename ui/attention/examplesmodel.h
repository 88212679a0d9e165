#pragma once

#include "engine/attention/evaluation.h"

#include <QAbstractTableModel>

#include <vector>

// The test sentences of an evaluation as a table (input, output, reference, match), optionally
// showing the failures only.
class ExamplesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Input, Output, Reference, Match, ColumnCount };

    explicit ExamplesModel(QObject *parent = nullptr);

    void setExamples(std::vector<Example> examples);
    void setFailuresOnly(bool failuresOnly);
    bool failuresOnly() const { return m_failuresOnly; }
    int totalCount() const { return int(m_examples.size()); }
    const Example &example(int row) const { return m_examples[std::size_t(m_rows[std::size_t(row)])]; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void rebuildRows();

    std::vector<Example> m_examples;
    std::vector<int> m_rows;  // indices into m_examples that are shown
    bool m_failuresOnly = false;
};
