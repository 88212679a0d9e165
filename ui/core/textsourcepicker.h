#pragma once

#include <QList>
#include <QString>
#include <QWidget>

#include <functional>
#include <string>

class QComboBox;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSettings;

// Where a lab's training text comes from: one of the lab's built-in texts, a text file (read whole,
// up to a limit), or text typed or pasted in. It shows the file row or the text box of the choice;
// the lab reads text() and makes its own data of it.
class TextSourcePicker : public QWidget
{
    Q_OBJECT
public:
    struct BuiltIn {
        QString label;
        std::function<std::string()> text;
    };

    // The choices are the built-in texts in order, then the file, then the typed text.
    TextSourcePicker(const QList<BuiltIn> &builtIns, std::size_t maxFileBytes, const QString &typedPlaceholder,
                     QWidget *parent = nullptr);

    int choice() const;
    void setChoice(int choice);  // as the program sets it: emits changed(), not chosen()
    int fileChoice() const { return int(m_builtIns.size()); }
    int typedChoice() const { return fileChoice() + 1; }
    void setFile(const QString &path);  // read now, and chosen
    void setTypedText(const QString &text);
    QString typedText() const;

    // The chosen text; empty, with problem() saying why, when there is none to read.
    const std::string &text() const;
    QString problem() const;

    QComboBox *sourceBox() const { return m_source; }
    QPlainTextEdit *typedBox() const { return m_typed; }
    // The choice, the file and the typed text; a file is read again when restored.
    void saveSettings(QSettings &settings) const;
    void restoreSettings(QSettings &settings, int defaultChoice);

signals:
    void chosen();   // the user picked another source
    void changed();  // the text changed: another source, another file or new typed text

private:
    void showChoice();
    void loadFile(const QString &path);
    void chooseFile();

    QList<BuiltIn> m_builtIns;
    std::size_t m_maxFileBytes;
    QComboBox *m_source;
    QLineEdit *m_path;
    QPushButton *m_browse;
    QPlainTextEdit *m_typed;
    std::string m_builtInText;  // of the built-in text chosen
    std::string m_fileText;
    QString m_fileProblem;  // why the chosen file could not be read
    std::string m_typedText;
};
