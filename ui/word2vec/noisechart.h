#pragma once

#include <qcustomplot.h>

#include <cstdint>
#include <string>
#include <vector>

// The noise words' distribution for the chosen exponent: for the most frequent words, the share
// each gets as a noise word (count^exponent, normalised) beside its share of the corpus.
class NoiseChart : public QCustomPlot
{
    Q_OBJECT
public:
    static constexpr int kWordsShown = 12;

    explicit NoiseChart(QWidget *parent = nullptr);

    // Words most frequent first, as a trained vocabulary is ordered.
    void setDistribution(const std::vector<std::string> &words, const std::vector<int64_t> &counts, double exponent);
    QCPBars *noiseBars() const { return m_noise; }
    QCPBars *corpusBars() const { return m_corpus; }

    bool exportImage(const QString &path, int width, int height, QString *error = nullptr);

private:
    QCPBars *m_noise;
    QCPBars *m_corpus;
    QCPTextElement *m_title;
};
