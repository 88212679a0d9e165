#pragma once

#include <QWidget>

class AttributionStripsPlot;
class AttributionSource;
class QComboBox;
class QLabel;
class QPushButton;

// Why this word and not that one? For the clicked output step, the user picks another word (the
// runner-up is offered first; any word the model can write may be typed or chosen) and every method
// explains log P(output) − log P(that word) instead: the words that pushed the model towards its
// choice and away from the other.
class ContrastBox : public QWidget
{
    Q_OBJECT
public:
    explicit ContrastBox(AttributionSource *source, QWidget *parent = nullptr);

    QComboBox *alternativeChoice() const { return m_alternative; }
    QPushButton *compareButton() const { return m_compare; }
    AttributionStripsPlot *plot() const { return m_plot; }
    QString status() const;

    void compare();  // with the word in the choice

signals:
    void contrastShown();

private:
    void followRow();
    void showContrast();
    void clearPlot();

    AttributionSource *m_source;
    QLabel *m_question;
    QComboBox *m_alternative;
    QPushButton *m_compare;
    QLabel *m_status;
    AttributionStripsPlot *m_plot;
    QString m_shownOutput;  // the output word and row the choice was filled for
    int m_shownRow = -1;
};
