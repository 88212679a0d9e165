#pragma once

#include <QGroupBox>
#include <QStringList>

#include <vector>

class MatrixTable;
class QGridLayout;
class QLabel;
struct ScaledDotProductAttention;

// "2. Step by step": X, W_Q, W_K, W_V, Q, K and V as tables, then the scores, weights and output
// once they are revealed; as many tables to a row as the width allows.
class AttentionSteps : public QGroupBox
{
    Q_OBJECT
public:
    explicit AttentionSteps(QWidget *parent = nullptr);

    // Rows are labelled with `tokens`; X and W to one decimal when they hold tenths (random ones), two
    // otherwise.
    void showResult(const ScaledDotProductAttention &result, const QStringList &tokens, bool revealed);
    // Empty tables; the scores' title names `dK`, the d_k they would be divided by.
    void showNothing(int dK);
    // Lays the tables out for `width` pixels; returns at once when the number per row is unchanged.
    void arrangeForWidth(int width);

private:
    void showRevealed(bool revealed, bool hasResult);

    QGridLayout *m_grid;
    std::vector<QWidget *> m_cells;       // title + table, in the order of m_matrices
    std::vector<MatrixTable *> m_matrices;  // X, W_Q, W_K, W_V, Q, K, V, scores, weights, output
    QLabel *m_scoresTitle = nullptr;      // names the actual d_k
    QLabel *m_hiddenNote;
    int m_columns = 0;
};
