#pragma once

#include "engine/selfattention/partsofspeech.h"
#include "engine/selfattention/scaleddotproductattention.h"

#include <QGroupBox>

#include <functional>
#include <string>
#include <vector>

class QGridLayout;
class QLabel;
class QLineEdit;
class QToolButton;

// The exercise's reflection questions, answered from the weights on screen: which word each word
// attends to most, which is most concentrated, how far from symmetric the matrix is, how verbs and
// nouns give and receive attention, and what another sentence (reordered, or with a word added)
// does to each row.
class ReflectionBox : public QGroupBox
{
    Q_OBJECT
public:
    // Computes another sentence's attention exactly as the shown one's (same X source, seed and
    // positions): its words and weights, or false and a message.
    using Compute = std::function<bool(const QString &sentence, std::vector<std::string> *words,
                                       ScaledDotProductAttention *attention, QString *error)>;

    explicit ReflectionBox(Compute compute, QWidget *parent = nullptr);

    // `shown` labels the words on screen; `words` are what a comparison matches. Tags come from
    // the course sentences and stay as clicked while the words stay the same.
    void setAttention(const QStringList &shown, const std::vector<std::string> &words,
                      const ScaledDotProductAttention &attention, bool positions, bool randomEmbeddings);

    QString answersText() const;
    QString partsText() const;
    QString comparisonText() const;
    QLineEdit *comparisonEdit() const { return m_comparison; }
    PartOfSpeech tag(int word) const { return m_tags.at(std::size_t(word)); }
    void cycleTag(int word);  // what clicking the word does

private:
    void showAnswers();
    void showParts();
    void showComparison();
    void rebuildTagButtons();

    Compute m_compute;
    QLabel *m_answers;
    QGridLayout *m_tagRow;
    std::vector<QToolButton *> m_tagButtons;
    QLabel *m_parts;
    QLineEdit *m_comparison;
    QToolButton *m_reverseButton;
    QToolButton *m_addWordButton;
    QLabel *m_comparisonResult;

    QStringList m_shown;
    std::vector<std::string> m_words;
    ScaledDotProductAttention m_attention;
    bool m_positions = false;
    bool m_random = true;
    std::vector<PartOfSpeech> m_tags;
};
