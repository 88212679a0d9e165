#include "ui/core/textsourcepicker.h"

#include "engine/core/atomicfile.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

#include <algorithm>

TextSourcePicker::TextSourcePicker(const QList<BuiltIn> &builtIns, std::size_t maxFileBytes,
                                   const QString &typedPlaceholder, QWidget *parent)
    : QWidget(parent), m_builtIns(builtIns), m_maxFileBytes(maxFileBytes), m_source(new QComboBox),
      m_path(new QLineEdit), m_browse(new QPushButton(tr("Browse…"))), m_typed(new QPlainTextEdit)
{
    for (const BuiltIn &builtIn : m_builtIns)
        m_source->addItem(builtIn.label);
    m_source->addItems({tr("Text file"), tr("Typed or pasted text")});
    m_source->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_source->setMinimumContentsLength(12);
    m_path->setReadOnly(true);
    m_path->setPlaceholderText(tr("No file chosen"));
    m_typed->setPlaceholderText(typedPlaceholder);
    m_typed->setTabChangesFocus(true);  // Tab leads on to the next field instead of typing a tab
    m_typed->setMinimumHeight(120);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_source);
    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(m_path, 1);
    fileRow->addWidget(m_browse);
    layout->addLayout(fileRow);
    layout->addWidget(m_typed, 1);

    connect(m_source, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        showChoice();
        emit changed();
    });
    connect(m_source, qOverload<int>(&QComboBox::activated), this, &TextSourcePicker::chosen);
    connect(m_browse, &QPushButton::clicked, this, &TextSourcePicker::chooseFile);
    connect(m_typed, &QPlainTextEdit::textChanged, this, [this] {
        m_typedText = m_typed->toPlainText().toStdString();
        if (choice() == typedChoice())
            emit changed();
    });
    showChoice();
}

int TextSourcePicker::choice() const
{
    return m_source->currentIndex();
}

void TextSourcePicker::setChoice(int choice)
{
    m_source->setCurrentIndex(std::clamp(choice, 0, typedChoice()));
}

void TextSourcePicker::showChoice()
{
    const int chosen = choice();
    m_path->setVisible(chosen == fileChoice());
    m_browse->setVisible(chosen == fileChoice());
    m_typed->setVisible(chosen == typedChoice());
    m_builtInText = chosen < fileChoice() ? m_builtIns[chosen].text() : std::string();
}

void TextSourcePicker::loadFile(const QString &path)
{
    m_path->setText(path);
    m_fileText.clear();
    m_fileProblem.clear();
    try {
        m_fileText = readWholeFile(QFile::encodeName(path).toStdString(), m_maxFileBytes);
    } catch (const std::exception &e) {
        m_fileProblem = QString::fromLocal8Bit(e.what());
    }
}

void TextSourcePicker::setFile(const QString &path)
{
    loadFile(path);
    if (choice() == fileChoice())
        emit changed();
    else
        setChoice(fileChoice());
}

void TextSourcePicker::chooseFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Text File"), m_path->text(),
                                                      tr("Text files (*.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    const bool another = choice() != fileChoice();
    setFile(path);
    if (another)
        emit chosen();
}

void TextSourcePicker::setTypedText(const QString &text)
{
    m_typed->setPlainText(text);
}

QString TextSourcePicker::typedText() const
{
    return m_typed->toPlainText();
}

const std::string &TextSourcePicker::text() const
{
    const int chosen = choice();
    if (chosen == typedChoice())
        return m_typedText;
    return chosen == fileChoice() ? m_fileText : m_builtInText;
}

QString TextSourcePicker::problem() const
{
    if (choice() != fileChoice())
        return {};
    return m_path->text().isEmpty() ? tr("Choose a text file.") : m_fileProblem;
}

void TextSourcePicker::saveSettings(QSettings &settings) const
{
    settings.setValue(QStringLiteral("source"), choice());
    settings.setValue(QStringLiteral("file"), m_path->text());
    settings.setValue(QStringLiteral("typed"), typedText());
}

void TextSourcePicker::restoreSettings(QSettings &settings, int defaultChoice)
{
    const QSignalBlocker blocker(this);
    m_typed->setPlainText(settings.value(QStringLiteral("typed")).toString());
    const QString file = settings.value(QStringLiteral("file")).toString();
    if (!file.isEmpty())
        loadFile(file);
    setChoice(settings.value(QStringLiteral("source"), defaultChoice).toInt());
    showChoice();
}
