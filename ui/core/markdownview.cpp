#include "ui/core/markdownview.h"

#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>

namespace {

void fitHeadings(QTextDocument *document)
{
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        const int level = block.blockFormat().headingLevel();
        if (level == 0)
            continue;
        QTextCursor cursor(block);
        cursor.select(QTextCursor::BlockUnderCursor);
        QTextCharFormat format;
        format.setProperty(QTextFormat::FontSizeAdjustment, level == 1 ? 1 : 0);
        cursor.mergeCharFormat(format);
    }
}

}

// Markdown set on the document a QTextBrowser shows is laid out again at every block it adds
// (25-55 ms for the ~2 KB analysis). setDocument deletes the previous document, a child of `view`.
void showMarkdown(QTextBrowser *view, const QString &markdown)
{
    auto *document = new QTextDocument(view);
    document->setDefaultFont(view->font());
    document->setMarkdown(markdown);
    fitHeadings(document);
    view->setDocument(document);
}
