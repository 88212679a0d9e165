#pragma once

#include <QDockWidget>
#include <QString>

class QTextBrowser;

// A lab's guide in a dock the user opens and closes (its toggleViewAction is View ▸ Guide, F1):
// what is on screen, the formula, what to try next, written for a student who has read the
// material once. The texts are Markdown resources, resources/<lab>/guide.md.
class GuidePane : public QDockWidget
{
    Q_OBJECT
public:
    explicit GuidePane(QWidget *parent = nullptr);

    // Shows `markdown`; empty: a line saying this page has no guide.
    void setGuide(const QString &markdown);
    QString guide() const { return m_markdown; }
    // Scrolls the guide so that the paragraph or heading holding `text` starts at the top.
    void scrollTo(const QString &text);
    QTextBrowser *view() const { return m_view; }

    // The Markdown of `resource` (":/labs/attention/guide.md"); empty when there is none.
    static QString read(const QString &resource);

private:
    QTextBrowser *m_view;
    QString m_markdown;
};
