#pragma once

#include "engine/core/explainedsentence.h"

#include <QTableWidget>

// How sure the model was at each output step, as a strip under the heatmap: a column per output
// word, rows log P, entropy, the margin to the runner-up and the runner-up itself. The clicked
// step's column is selected.
class StepScoresTable : public QTableWidget
{
    Q_OBJECT
public:
    explicit StepScoresTable(QWidget *parent = nullptr);

    void setAttribution(const ExplainedSentence &attribution);
    void showMessage(const QString &message);  // no columns, `message` in the corner
    void selectStep(int step);                 // -1: none

    int steps() const { return int(m_steps.size()); }
    QSize sizeHint() const override;

    // One line per step: step, output, log P, entropy, margin, runner-up.
    bool exportCsv(const QString &path, QString *error = nullptr) const;
    bool exportImage(const QString &path, int width, int height, QString *error = nullptr);

signals:
    void stepClicked(int step);

protected:
    void changeEvent(QEvent *event) override;

private:
    void fitRowsToFont();

    std::vector<std::string> m_outputs;
    std::vector<StepScore> m_steps;
};
