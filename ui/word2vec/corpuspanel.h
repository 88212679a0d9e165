#pragma once

#include "engine/word2vec/word2vecconfig.h"
#include "engine/word2vec/wordcorpus.h"
#include "ui/core/configeditor.h"

#include <QWidget>

#include <memory>

class QLabel;
class QSettings;
class TextSourcePicker;

// The word-embedding lab's setup: where the corpus comes from (built in, a file, pasted text),
// what the settings make of it (the preview's counts and warnings), and the training settings.
// The corpus is read again only when its text or its own settings change.
class CorpusPanel : public QWidget
{
    Q_OBJECT
public:
    enum class Source { BuiltIn, File, Pasted };

    explicit CorpusPanel(QWidget *parent = nullptr);

    CorpusConfig corpusConfig() const;
    Word2VecConfig config() const;
    // The corpus as the settings read it; null when there is none (problem() says why).
    std::shared_ptr<const WordCorpus> corpus() const { return m_corpus; }
    QString problem() const { return m_problem; }

    // Sets the settings (an exercise's) and reads the corpus with them.
    void setConfigs(const CorpusConfig &corpus, const Word2VecConfig &training);
    void setSource(Source source);
    void setFile(const QString &path);
    void setPastedText(const QString &text);
    QString previewText() const;
    QString warningText() const;

    void saveSettings(QSettings &settings) const;
    void restoreSettings(QSettings &settings);

signals:
    void changed();  // the corpus, the settings or the preview changed

private:
    Source source() const;
    void readCorpus();
    void updatePreview();

    ConfigEditor<CorpusConfig> m_corpusEditor;
    ConfigEditor<Word2VecConfig> m_editor;
    TextSourcePicker *m_picker;
    QLabel *m_preview;
    QLabel *m_warnings;
    std::shared_ptr<const WordCorpus> m_corpus;
    CorpusConfig m_corpusRead;  // the settings m_corpus was read with
    QString m_problem;
};
