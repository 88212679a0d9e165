#pragma once

#include "engine/attention/wordremovaleffect.h"

#include <qcustomplot.h>

// Per input word, two bars side by side: the attention the word received while the model wrote its
// output (left axis), and how much the output's log-probability falls when the word is removed
// (right axis, zero at the same height), above the word.
class WordRemovalPlot : public QCustomPlot
{
    Q_OBJECT
public:
    explicit WordRemovalPlot(QWidget *parent = nullptr);

    void setEffect(const WordRemovalEffect &effect);
    // No bars and `message` in their place (no model, no sentence, a model without attention).
    void showMessage(const QString &message);

    int wordCount() const { return m_attention->dataCount(); }
    QCPBars *attentionBars() const { return m_attention; }
    QCPBars *fallBars() const { return m_fall; }
    QString message() const { return m_message->visible() ? m_messageText : QString(); }  // empty with bars

    bool exportImage(const QString &path, int width, int height, QString *error = nullptr);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void clearBars();
    void fitTickLabels();

    QCPBars *m_attention;
    QCPBars *m_fall;
    QCPItemText *m_message;
    QString m_messageText;
};
