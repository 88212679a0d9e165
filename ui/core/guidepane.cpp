#include "ui/core/guidepane.h"

#include "ui/core/markdownview.h"

#include <QAction>
#include <QAbstractTextDocumentLayout>
#include <QFile>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextBrowser>

GuidePane::GuidePane(QWidget *parent) : QDockWidget(tr("Guide"), parent), m_view(new QTextBrowser)
{
    setObjectName(QStringLiteral("guideDock"));
    m_view->setObjectName(QStringLiteral("guideView"));
    m_view->setOpenExternalLinks(true);
    setWidget(m_view);
    QAction *toggle = toggleViewAction();
    // Opened where it shares a tab group, it comes to the front.
    connect(toggle, &QAction::triggered, this, [this](bool shown) {
        if (shown)
            raise();
    });
    toggle->setObjectName(QStringLiteral("guideAction"));
    toggle->setText(tr("&Guide"));
    toggle->setShortcut(QKeySequence::HelpContents);
    toggle->setStatusTip(tr("Show or hide the guide to the lab on screen: what you see, the formula, what to try "
                            "next (F1)."));
}

void GuidePane::setGuide(const QString &markdown)
{
    m_markdown = markdown;
    showMarkdown(m_view, markdown.isEmpty() ? tr("This page has no guide.") : markdown);
}

void GuidePane::scrollTo(const QString &text)
{
    const QTextCursor found = m_view->document()->find(text);
    if (found.isNull())
        return;
    const QRectF block = m_view->document()->documentLayout()->blockBoundingRect(found.block());
    m_view->verticalScrollBar()->setValue(int(block.top()));
}

QString GuidePane::read(const QString &resource)
{
    QFile file(resource);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    return QString::fromUtf8(file.readAll());
}
