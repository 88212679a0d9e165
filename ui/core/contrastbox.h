#pragma once

#include "engine/core/contrastiveattribution.h"
#include "engine/core/explainedsentence.h"

#include <QStringList>
#include <QWidget>

class AttributionStripsPlot;
class QComboBox;
class QLabel;
class QPushButton;

// Why this word and not that one? For the clicked output step, the user picks another word (the
// runner-up is offered first; any word the model can write may be typed or chosen) and every method
// explains log P(output) − log P(that word) instead: the words that pushed the model towards its
// choice and away from the other. It knows no lab: the lab tells it the step (setStep), computes
// what it asks for (compareAsked) and hands back the result (showContrast) or the engine's refusal.
class ContrastBox : public QWidget
{
    Q_OBJECT
public:
    explicit ContrastBox(QWidget *parent = nullptr);

    QComboBox *alternativeChoice() const { return m_alternative; }
    QPushButton *compareButton() const { return m_compare; }
    AttributionStripsPlot *plot() const { return m_plot; }
    QString status() const;

    // The output step clicked: `row` of `explained` (null or -1: none), with the words the model can
    // write there; `waiting`: a contrast asked is still to come. Clears the contrast shown.
    void setStep(const ExplainedSentence *explained, int row, const QStringList &writableWords, bool waiting);
    void showContrast(const ContrastiveAttribution &contrast);  // of the step set
    void showFailure(const QString &message);                   // the engine's reason
    void compare();  // with the word in the choice

signals:
    void compareAsked(const QString &alternative);
    void contrastShown();

private:
    void clearPlot();

    QLabel *m_question;
    QComboBox *m_alternative;
    QPushButton *m_compare;
    QLabel *m_status;
    AttributionStripsPlot *m_plot;
    bool m_ready = false;   // a step is set
    QStringList m_words;    // the explained sentence's source words
    QString m_shownOutput;  // the output word and row the choice was filled for
    int m_shownRow = -1;
};
