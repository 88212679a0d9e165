#include "ui/word2vec/wordexplorer.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace {

QTreeWidget *scoreList(const QString &name)
{
    auto *list = new QTreeWidget;
    list->setObjectName(name);
    list->setHeaderLabels({QObject::tr("word"), QObject::tr("cosine")});
    list->setRootIsDecorated(false);
    list->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    list->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    return list;
}

void fill(QTreeWidget *list, const std::vector<ScoredWord> &words)
{
    list->clear();
    for (const ScoredWord &w : words)
        list->addTopLevelItem(new QTreeWidgetItem({QString::fromStdString(w.word), QString::number(w.score, 'f', 3)}));
}

}

WordExplorer::WordExplorer(QWidget *parent)
    : QWidget(parent), m_neighbourTitle(new QLabel(tr("Click a word on the map, or find one."))),
      m_neighbours(scoreList(QStringLiteral("neighbourList"))), m_analogyMessage(new QLabel),
      m_answers(scoreList(QStringLiteral("analogyAnswers")))
{
    m_neighbourTitle->setWordWrap(true);
    auto *neighbourBox = new QGroupBox(tr("Nearest neighbours"));
    auto *neighbourLayout = new QVBoxLayout(neighbourBox);
    neighbourLayout->addWidget(m_neighbourTitle);
    neighbourLayout->addWidget(m_neighbours);

    auto *analogyBox = new QGroupBox(tr("Analogy: a is to b as c is to ?"));
    auto *analogyLayout = new QVBoxLayout(analogyBox);
    auto *row = new QHBoxLayout;
    const char *placeholders[3] = {"man", "king", "woman"};
    for (int i = 0; i < 3; ++i) {
        m_analogy[i] = new QLineEdit;
        m_analogy[i]->setObjectName(QStringLiteral("analogy%1").arg(QChar('a' + i)));
        m_analogy[i]->setPlaceholderText(QString::fromLatin1(placeholders[i]));
        m_analogy[i]->setMinimumWidth(40);
        connect(m_analogy[i], &QLineEdit::returnPressed, this, &WordExplorer::solveAnalogy);
        row->addWidget(m_analogy[i]);
        if (i < 2)
            row->addWidget(new QLabel(i == 0 ? QStringLiteral(":") : QStringLiteral("::")));
    }
    auto *solve = new QPushButton(tr("Solve"));
    solve->setToolTip(tr("b − a + c on unit vectors, the three words left out of the answers (gensim's most_similar)."));
    connect(solve, &QPushButton::clicked, this, &WordExplorer::solveAnalogy);
    row->addWidget(solve);
    analogyLayout->addLayout(row);
    m_analogyMessage->setObjectName(QStringLiteral("analogyMessage"));
    m_analogyMessage->setWordWrap(true);
    analogyLayout->addWidget(m_analogyMessage);
    analogyLayout->addWidget(m_answers);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(neighbourBox, 3);
    layout->addWidget(analogyBox, 2);
}

void WordExplorer::setVectors(std::shared_ptr<const WordVectors> vectors)
{
    m_vectors = std::move(vectors);
    m_index = m_vectors ? std::make_unique<VectorIndex>(*m_vectors) : nullptr;
    if (!m_shownWord.isEmpty())
        showNeighbours(m_shownWord);
}

std::vector<ScoredWord> WordExplorer::showNeighbours(const QString &word)
{
    m_shownWord = word;
    const int index = m_index ? m_index->index(word.toStdString()) : -1;
    if (index < 0) {
        m_neighbourTitle->setText(m_index ? tr("\"%1\" is not in the vocabulary.").arg(word)
                                          : tr("No vectors yet: train, or open a vectors file."));
        m_neighbours->clear();
        return {};
    }
    const std::vector<ScoredWord> near = m_index->nearest(index, kNeighbours);
    m_neighbourTitle->setText(tr("Closest to \"%1\" by cosine similarity:").arg(word));
    fill(m_neighbours, near);
    return near;
}

void WordExplorer::setAnalogy(const QString &a, const QString &b, const QString &c)
{
    m_analogy[0]->setText(a);
    m_analogy[1]->setText(b);
    m_analogy[2]->setText(c);
}

void WordExplorer::solveAnalogy()
{
    m_answers->clear();
    if (!m_index) {
        m_analogyMessage->setText(tr("No vectors yet: train, or open a vectors file."));
        return;
    }
    int ids[3];
    QStringList unknown;
    for (int i = 0; i < 3; ++i) {
        const QString word = m_analogy[i]->text().trimmed().toLower();
        ids[i] = m_index->index(word.toStdString());
        if (ids[i] < 0)
            unknown << (word.isEmpty() ? tr("(empty)") : QStringLiteral("\"%1\"").arg(word));
    }
    if (!unknown.isEmpty()) {
        m_analogyMessage->setText(tr("Not in the vocabulary: %1.").arg(unknown.join(QStringLiteral(", "))));
        return;
    }
    fill(m_answers, m_index->analogy(ids[0], ids[1], ids[2], kAnswers));
    m_analogyMessage->setText(tr("%1 − %2 + %3 is closest to:")
                                  .arg(m_analogy[1]->text().trimmed(), m_analogy[0]->text().trimmed(),
                                       m_analogy[2]->text().trimmed()));
}

QString WordExplorer::analogyMessage() const
{
    return m_analogyMessage->text();
}
