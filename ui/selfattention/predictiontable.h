#pragma once

#include <QStringList>
#include <QWidget>

#include <vector>

class QLabel;
class QTableWidget;

// The student's guess of the attention weights before seeing them: one row per query word, one
// column per key word, a live row sum beside each row. check() rejects a row that is not a
// probability distribution with a message under the table; showDifferences() then shows
// computed − guessed for every cell.
class PredictionTable : public QWidget
{
    Q_OBJECT
public:
    // 1/3 + 1/3 + 1/3 typed as 0.33 three times must pass.
    static constexpr double kSumTolerance = 0.01;

    explicit PredictionTable(QWidget *parent = nullptr);

    // Keeps the guesses when the words are the same, otherwise starts empty.
    void setTokens(const QStringList &tokens);
    QStringList tokens() const { return m_tokens; }
    void setGuess(int row, int column, const QString &text);
    QString guessText(int row, int column) const;
    void clearGuesses();

    // Every cell empty or a number in 0..1 (0.25, 0,25 or 1/4; empty counts as 0), every row
    // summing to 1 ± kSumTolerance. Otherwise shows what is wrong, selects the cell and returns false.
    bool check();
    std::vector<double> guesses() const;  // row-major; call after check() succeeded
    QString message() const;
    bool isMessageShown() const;

    // `computed` is row-major tokens x tokens; a size mismatch clears the differences.
    void showDifferences(const std::vector<double> &computed);
    void clearDifferences();
    bool hasDifferences() const { return !m_differences.empty(); }
    double difference(int row, int column) const;  // computed − guess; 0 without differences

    QTableWidget *guessTable() const { return m_guessTable; }
    QTableWidget *differenceTable() const { return m_differenceTable; }

signals:
    void guessesEdited();

private:
    void rebuild();
    void updateRowSum(int row);
    void onItemChanged(int row, int column);
    void showMessage(const QString &text);
    void hideMessage();

    QStringList m_tokens;
    QTableWidget *m_guessTable;
    QTableWidget *m_differenceTable;
    QLabel *m_differenceTitle;
    QLabel *m_summary;
    QLabel *m_message;
    std::vector<double> m_differences;
    bool m_rebuilding = false;
};
