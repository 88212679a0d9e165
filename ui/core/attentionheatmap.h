#pragma once

#include <qcustomplot.h>

#include <QStringList>
#include <QVector>

#include <vector>

// What a heatmap draws: a row per output (or query), a column per input (or key), and what is known
// of the tokens: an input outside the vocabulary (marked *), an output copied from the input by a
// pointer, and the pointer's share of each output (p_gen), drawn beside its row.
struct HeatmapMatrix {
    QStringList columns;
    QStringList rows;
    std::vector<float> weights;      // rows x columns, row-major
    std::vector<bool> columnKnown;   // per column; empty: every one known
    std::vector<bool> rowCopied;     // per row; empty: none copied
    std::vector<float> rowGate;      // per row; empty: no pointer
};

// Where each decoder step looked: one cell per (output token, input token) pair, colour = weight
// on a fixed 0..1 scale. x = encoder (source) tokens, y = decoder steps with the first at the top.
// Click a cell to select it; its row and column are outlined. From the keyboard, the arrow keys
// move the selected cell, Home/End go to the row's ends (with Ctrl: the first and last cell),
// PageUp/PageDown to the column's ends, and Enter or Space report the selected cell again; each
// move selects exactly as a click does.
class AttentionHeatmap : public QCustomPlot
{
    Q_OBJECT
public:
    explicit AttentionHeatmap(QWidget *parent = nullptr);

    // Mismatched sizes show a message instead of a plot. A new matrix clears the right cells
    // (setRightCells).
    void setMatrix(const HeatmapMatrix &matrix);
    // Rows = outputTokens, row-major, nothing known of the tokens.
    void setMatrix(const QStringList &sourceTokens, const QStringList &outputTokens,
                   const std::vector<float> &weights);
    // An empty plot with a centred message (e.g. "No attention: this model has none").
    void showMessage(const QString &message);
    void setTitle(const QString &title);
    // The colours: by default viridis over the fixed 0..1 of attention weights. A difference of
    // two matrices takes divergingGradient() over a range symmetric about zero.
    void setColorScale(const QCPColorGradient &gradient, const QCPRange &range, const QString &label);
    // What rows and columns stand for, in the axis labels and the hover text; by default the
    // decoder's outputs over the encoder's inputs. Self-attention uses queries over keys.
    void setRoles(const QString &rowRole, const QString &rowAxisLabel, const QString &columnRole,
                  const QString &columnAxisLabel);

    // The cell known to be right in each row (its column; -1: none), e.g. the source word each
    // output word must come from. Outlined while right cells are shown; ignored past the matrix.
    void setRightCells(const std::vector<int> &columnPerRow);
    void setRightCellsShown(bool shown);
    bool rightCellsShown() const { return m_rightCellsShown; }
    // Name of the outline items of the right cells (two per cell: a black frame, a white dashed one).
    static QString rightCellObjectName() { return QStringLiteral("rightCellOutline"); }

    int rows() const { return int(m_outputTokens.size()); }
    int columns() const { return int(m_sourceTokens.size()); }
    float weight(int row, int column) const;  // 0 outside the matrix
    int selectedRow() const { return m_selectedRow; }
    int selectedColumn() const { return m_selectedColumn; }
    // Outlines the cell and its row and column, emits cellSelected; out of range clears.
    void selectCell(int row, int column);
    void clearSelection();

    // Renders offscreen at exactly width x height pixels; format by suffix: .png, .jpg, .pdf, .svg.
    bool exportImage(const QString &path, int width, int height, QString *error = nullptr);
    // Header row = source tokens, first column = output token.
    bool exportCsv(const QString &path, QString *error = nullptr) const;

    // Tall enough for a row per tick label at the current width (labels, footnote and scale
    // included); an explicit minimum height takes precedence.
    QSize minimumSizeHint() const override;

signals:
    void cellSelected(int row, int column, double weight);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;

private:
    void rebuildCells();
    void rebuildTicks(const std::vector<bool> &sourceKnown, const std::vector<bool> &outputCopied,
                      const std::vector<float> &copyGate);
    void setFootnote(const QString &text);
    // Chooses label rotation and whether numbers fit in the cells for the current viewport.
    void adaptToViewport();
    void fitTitle();
    // Names every step-th column on the x axis.
    void showColumnLabels(int step);
    void updateSelectionItems();
    void rebuildRightCellItems();
    void updateFootnote();
    // What the selected cell is, for screen readers; the plot's summary when nothing is selected.
    void updateAccessibleDescription();
    QString cellReadout(int row, int column) const;
    bool cellAt(const QPointF &pixel, int *row, int *column) const;
    void onMousePress(QMouseEvent *event);
    void onMouseMove(QMouseEvent *event);

    QStringList m_sourceTokens;
    QStringList m_columnLabels;  // the x axis's labels, whether shown or not
    int m_columnLabelStep = 1;
    QStringList m_outputTokens;
    std::vector<float> m_weights;
    int m_selectedRow = -1;
    int m_selectedColumn = -1;
    QString m_rowRole = tr("output");
    QString m_columnRole = tr("input");

    QCPColorMap *m_map = nullptr;
    QCPColorScale *m_scale = nullptr;
    QCPTextElement *m_title = nullptr;
    QString m_fullTitle;
    QCPTextElement *m_footnote = nullptr;
    QCPItemText *m_message = nullptr;
    QCPItemRect *m_rowBox = nullptr;
    QCPItemRect *m_columnBox = nullptr;
    QCPItemRect *m_cellHalo = nullptr;
    QCPItemRect *m_cellBox = nullptr;
    QVector<QCPItemText *> m_cellTexts;
    std::vector<int> m_rightCells;
    bool m_rightCellsShown = false;
    QVector<QCPItemRect *> m_rightCellItems;
    QStringList m_tickNotes;
};
