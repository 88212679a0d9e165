#include "ui/selfattention/attentionsteps.h"

#include "engine/selfattention/scaleddotproductattention.h"
#include "ui/selfattention/matrixtable.h"

#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace {

enum MatrixIndex { kX, kWq, kWk, kWv, kQ, kK, kV, kScores, kWeights, kOutput, kMatrixCount };
// Tables per row at most, however wide the column.
constexpr int kMaxPerRow = 4;

// Random numbers are tenths, shown exactly with one decimal; trained ones need more.
int decimalsFor(const Matrix &m)
{
    const bool tenths = std::all_of(m.values.begin(), m.values.end(),
                                    [](double x) { return std::abs(x * 10 - std::round(x * 10)) < 1e-9; });
    return tenths ? 1 : 2;
}

QStringList numbered(int count)
{
    QStringList labels;
    for (int i = 1; i <= count; ++i)
        labels << QString::number(i);
    return labels;
}

} // namespace

AttentionSteps::AttentionSteps(QWidget *parent) : QGroupBox(tr("2. Step by step"), parent)
{
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
        m_cells.push_back(cell);
    }
    m_matrices[kWeights]->setToolTip(tr("Each row sums to 1: the query's attention shared out over the keys"));
    m_hiddenNote = new QLabel(tr("<i>Scores, weights and output stay hidden until you reveal them (Ctrl+Return).</i>"));
    m_hiddenNote->setWordWrap(true);
    m_grid = new QGridLayout;
    m_grid->setSpacing(4);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(m_grid);
    layout->addWidget(m_hiddenNote);
}

void AttentionSteps::showResult(const ScaledDotProductAttention &a, const QStringList &tokens, bool revealed)
{
    // Random X and W are tenths and Q, K, V sums of their products: shown exactly.
    m_matrices[kX]->setMatrix(a.x, tokens, numbered(a.dModel()), decimalsFor(a.x));
    m_matrices[kWq]->setMatrix(a.wq, numbered(a.dModel()), numbered(a.dK()), decimalsFor(a.wq));
    m_matrices[kWk]->setMatrix(a.wk, numbered(a.dModel()), numbered(a.dK()), decimalsFor(a.wk));
    m_matrices[kWv]->setMatrix(a.wv, numbered(a.dModel()), numbered(a.dK()), decimalsFor(a.wv));
    m_matrices[kQ]->setMatrix(a.q, tokens, numbered(a.dK()), 2);
    m_matrices[kK]->setMatrix(a.k, tokens, numbered(a.dK()), 2);
    m_matrices[kV]->setMatrix(a.v, tokens, numbered(a.dK()), 2);
    if (revealed) {
        m_matrices[kScores]->setMatrix(a.scores, tokens, tokens, 3);
        m_matrices[kWeights]->setMatrix(a.weights, tokens, tokens, 3);
        m_matrices[kOutput]->setMatrix(a.output, tokens, numbered(a.dK()), 3);
    } else {
        for (int i : {kScores, kWeights, kOutput})
            m_matrices[std::size_t(i)]->clearMatrix();
    }
    m_scoresTitle->setText(tr("<b>Scores = Q·Kᵀ / √%1</b>").arg(a.dK()));
    showRevealed(revealed, true);
}

void AttentionSteps::showNothing(int dK)
{
    for (MatrixTable *table : m_matrices)
        table->clearMatrix();
    m_scoresTitle->setText(tr("<b>Scores = Q·Kᵀ / √%1</b>").arg(dK));
    showRevealed(false, false);
}

void AttentionSteps::showRevealed(bool revealed, bool hasResult)
{
    for (int i : {kScores, kWeights, kOutput})
        m_cells[std::size_t(i)]->setVisible(revealed);
    m_hiddenNote->setVisible(hasResult && !revealed);
}

void AttentionSteps::arrangeForWidth(int width)
{
    int widest = 1;
    for (QWidget *cell : m_cells)
        widest = std::max(widest, cell->sizeHint().width());
    const int perRow = std::clamp(width / widest, 1, kMaxPerRow);
    if (perRow == m_columns)
        return;
    m_columns = perRow;
    for (QWidget *cell : m_cells)
        m_grid->removeWidget(cell);
    // X and the three projections, then Q, K, V, then the results: each group starts a new row.
    int row = 0;
    int column = 0;
    for (int i = 0; i < kMatrixCount; ++i) {
        if (i == kQ || i == kScores) {
            row += column > 0 ? 1 : 0;
            column = 0;
        }
        m_grid->addWidget(m_cells[std::size_t(i)], row, column, Qt::AlignLeft | Qt::AlignTop);
        if (++column == perRow) {
            column = 0;
            ++row;
        }
    }
    m_grid->setColumnStretch(perRow, 1);
}
