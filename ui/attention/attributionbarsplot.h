#pragma once

#include "engine/attention/attribution.h"

#include <qcustomplot.h>

#include <QStringList>

// One method's scores of the source words for one output step, with a note beside its name (how
// it agrees with the others).
struct MethodScores {
    AttributionMethod method = AttributionMethod::Attention;
    std::vector<double> scores;  // one per word
    QString note;
};

// Small multiples: a bar chart per method, one above the other over the same words (named under the
// last), each on its own scale with zero marked, so a glance tells whether the methods point at the
// same words. Bars above zero are blue, below vermillion.
class AttributionBarsPlot : public QCustomPlot
{
    Q_OBJECT
public:
    explicit AttributionBarsPlot(QWidget *parent = nullptr);

    // `title` above the charts. Rows with a score count other than the words' are refused with a message.
    void setScores(const QString &title, const QStringList &words, const std::vector<MethodScores> &methods);
    void showMessage(const QString &message);

    int methodCount() const { return int(m_methods.size()); }
    const std::vector<MethodScores> &methods() const { return m_methods; }
    const QStringList &words() const { return m_words; }
    QString message() const { return m_message; }  // empty while charts are shown

    bool exportImage(const QString &path, int width, int height, QString *error = nullptr);
    // A row per word: the word, then one column per method.
    bool exportCsv(const QString &path, QString *error = nullptr) const;

private:
    void clearAll();

    QString m_title;
    QStringList m_words;
    std::vector<MethodScores> m_methods;
    QString m_message;
};
