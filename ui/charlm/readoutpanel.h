#pragma once

#include "engine/charlm/hiddenunits.h"

#include <QWidget>

#include <memory>

class CharValueText;
class QLabel;
class QPlainTextEdit;
class QSettings;
class QSpinBox;
class QTableWidget;
class QTimer;
class QTreeWidget;

// "Type and see": the model reads what is typed, and for every position the five characters it
// expects next are listed with their probabilities, while the text is coloured by the activation of
// one hidden unit. Beside it, the units ranked by how strongly each tracks something visible in
// the text (position in a line, inside quotes or brackets, after a space); clicking one shows it.
// The readout runs here, from a snapshot of the weights: a character costs a fraction of a
// millisecond, at most kMaxCharacters are read, and while training sends new snapshots the text
// is read again at most twice a second.
class ReadoutPanel : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kTopK = 5;
    static constexpr int kMaxCharacters = 500;

    explicit ReadoutPanel(QWidget *parent = nullptr);

    void setNet(std::shared_ptr<const CharInferenceNet> net);
    // Units of the current weights ranked on `characters` characters of the training text.
    void setRanking(const std::vector<UnitScore> &units, int64_t characters);
    void clearRanking(const QString &message);
    void setText(const QString &text);
    QString text() const;
    void selectUnit(int layer, int unit);  // layer from 0
    int layer() const;
    int unit() const;

    void refresh();  // reads the text now (it is otherwise read shortly after a change)
    const CharReadout &readout() const { return m_readout; }
    const std::vector<UnitScore> &ranking() const { return m_ranking; }
    QTableWidget *nextTable() const { return m_next; }
    QTreeWidget *unitList() const { return m_units; }
    CharValueText *activationView() const { return m_activations; }

    void saveSettings(QSettings &settings) const;
    void restoreSettings(QSettings &settings);

private:
    void colourByUnit();
    void fillNextTable();
    void showPosition(int position);
    void updateUnitRanges();
    QString unitDescription() const;

    std::shared_ptr<const CharInferenceNet> m_net;
    QPlainTextEdit *m_input;
    QSpinBox *m_layer;
    QSpinBox *m_unit;
    QLabel *m_unitLabel;
    QLabel *m_status;
    CharValueText *m_activations;
    QTableWidget *m_next;
    QTreeWidget *m_units;
    QLabel *m_unitsCaption;
    QTimer *m_read;        // typing: reads once the keys pause
    QTimer *m_followNet;   // new snapshots: reads at most this often
    CharReadout m_readout;
    std::vector<UnitScore> m_ranking;
};
