#pragma once

#include "engine/core/attributionmethods.h"

#include <qcustomplot.h>

#include <QStringList>

// One method's scores of the source words for one output step, with a note beside its name (how
// it agrees with the others).
struct MethodScores {
    AttributionMethod method = AttributionMethod::Attention;
    std::vector<double> scores;  // one per word
    QString note;
};

// Small multiples as heat strips: a row of cells per method over the same words, each row scaled to
// its own largest |score| (methods' units differ by orders of magnitude), on the diverging colours
// of the method heatmaps. Each row's top word is outlined, so a glance tells whether the methods
// point at the same word; hovering a cell gives its score.
class AttributionStripsPlot : public QCustomPlot
{
    Q_OBJECT
public:
    explicit AttributionStripsPlot(QWidget *parent = nullptr);

    // `title` heads exported images. Rows with a score count other than the words' are refused with a message.
    void setScores(const QString &title, const QStringList &words, const std::vector<MethodScores> &methods);
    void showMessage(const QString &message);

    int methodCount() const { return int(m_methods.size()); }
    const std::vector<MethodScores> &methods() const { return m_methods; }
    const QStringList &words() const { return m_words; }
    QString message() const { return m_message; }  // empty while strips are shown
    // The word with the largest |score| of each method, or -1 when all its scores are zero or missing.
    std::vector<int> topWords() const;
    // What hovering the cell of `method` and `word` shows.
    QString cellReadout(int method, int word) const;

    bool exportImage(const QString &path, int width, int height, QString *error = nullptr);
    // A row per word: the word, then one column per method.
    bool exportCsv(const QString &path, QString *error = nullptr) const;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void setHeading(const QString &text);
    void fitWordLabels();
    void clearStrips();
    void onMouseMove(QMouseEvent *event);

    QCPTextElement *m_heading;  // the message, or the title in exports; in the layout only when not empty
    QCPColorMap *m_map = nullptr;
    QString m_title;
    QStringList m_words;
    std::vector<MethodScores> m_methods;
    QString m_message;
};
