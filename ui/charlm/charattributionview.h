#pragma once

#include "ui/charlm/charlmresults.h"

#include <QWidget>

#include <memory>

class CharAttributionStrip;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QSettings;
class QSpinBox;
class QTimer;

// "Which characters drive the next one": the student types a context (or picks one from the
// training text) and sees its last N characters shaded by saliency and by integrated gradients
// for the model's next character, with that character's probability; any other character can be
// explained instead. The view asks (explainRequested) and the lab runs the request on the worker;
// one request is out at a time, and what changed meanwhile is asked for when its answer comes.
// Nothing is asked while the view is hidden or training runs: what changed is explained when it
// is shown again, and the final weights when training ends.
class CharAttributionView : public QWidget
{
    Q_OBJECT
public:
    explicit CharAttributionView(QWidget *parent = nullptr);

    void setNet(std::shared_ptr<const CharInferenceNet> net);
    void setTrainingRuns(bool running);
    // Offers contexts from `text` to pick: stretches that end inside a word.
    void setExampleText(const std::u32string &text);
    void showResult(const CharAttributionReady &ready);

    void setContext(const QString &text);
    QString context() const;
    void setLast(int characters);
    void setIntegrationSteps(int steps);
    // Explains `c` instead of the model's likeliest character (0: the likeliest again); `c` must be
    // in the last answer's alphabet.
    bool chooseNext(char32_t c);
    void explainNow();  // asks at once instead of after the typing pause

    bool hasResult() const;
    const CharAttribution &attribution() const;
    CharAttributionStrip *strip() const { return m_strip; }
    QComboBox *nextChoice() const { return m_next; }
    QComboBox *examples() const { return m_examples; }
    QString summaryText() const;
    QString completenessText() const;
    QString statusText() const;

    // The summary, the rows and the completeness line, as the view shows them; PNG, JPEG, PDF or SVG.
    bool exportImage(const QString &path, QString *error) const;
    // position (characters before the next, from -N), character, saliency, integrated_gradients.
    QString csvText() const;
    bool exportCsv(const QString &path, QString *error) const;

    void saveSettings(QSettings &settings) const;
    void restoreSettings(QSettings &settings);

signals:
    void explainRequested(const CharAttributionRequest &request);
    void resultChanged();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void request();
    void send();
    void fillNextChoice();
    void showStatus(const QString &text);

    std::shared_ptr<const CharInferenceNet> m_net;
    QPlainTextEdit *m_context;
    QComboBox *m_examples;
    QSpinBox *m_last;
    QSpinBox *m_steps;
    QComboBox *m_next;
    QLabel *m_summary;
    CharAttributionStrip *m_strip;
    QLabel *m_completeness;
    QLabel *m_status;
    QTimer *m_pause;  // typing: asks once the keys pause
    std::vector<std::u32string> m_exampleContexts;
    char32_t m_chosenNext = 0;  // 0: the likeliest
    int m_lastRequest = 0;
    bool m_inFlight = false;  // a request is out
    bool m_stale = false;     // something changed since it went
    bool m_training = false;
    bool m_unasked = false;   // something changed that no request has asked about yet
};
