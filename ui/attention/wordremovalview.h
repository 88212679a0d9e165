#pragma once

#include "engine/attention/wordremovaleffect.h"
#include "ui/attention/metatypes.h"

#include <QTimer>
#include <QWidget>

class QComboBox;
class QLabel;
class WordRemovalPlot;

// Does attention explain the output? For the sentence typed in the Reverse tab, each input word is
// removed in turn (left out, or replaced by <UNK>) and the model's output scored again: per word,
// the attention it received beside what removing it cost the output, the rank correlation of the
// two in words, and what the output became without it. Measured only while the view is shown, so
// typing with it hidden costs nothing, and on the event loop's next turn after a keystroke rather
// than inside it: the keystroke's decode and heatmap and this measurement are two short stalls of
// the window, not one long one.
class WordRemovalView : public QWidget
{
    Q_OBJECT
public:
    explicit WordRemovalView(QWidget *parent = nullptr);

    // The model and the sentence to look at; measured on the event loop's next turn if the view is
    // shown, otherwise when it is.
    void setSentence(const ModelSnapshot &model, const QString &text);
    RemovalMode mode() const;
    void setMode(RemovalMode mode);

    bool hasEffect() const { return m_hasEffect; }
    const WordRemovalEffect &effect() const { return m_effect; }
    WordRemovalPlot *plot() const { return m_plot; }
    QComboBox *modeChoice() const { return m_mode; }
    QString verdict() const;  // the correlation in words, or why there is none

signals:
    void effectChanged();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void measure();
    void showMessage(const QString &message);

    QComboBox *m_mode;
    QLabel *m_verdict;
    QLabel *m_outputs;
    WordRemovalPlot *m_plot;

    ModelSnapshot m_model;
    QString m_text;
    bool m_stale = true;
    QTimer m_measureSoon;  // single shot, 0 ms
    bool m_hasEffect = false;
    WordRemovalEffect m_effect;
};
