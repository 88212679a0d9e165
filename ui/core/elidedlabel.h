#pragma once

#include <QLabel>

// One line of plain text that ends in "…" where it does not fit, the whole of it in the tooltip:
// a description that would otherwise wrap over three lines, or widen the window, on a small screen.
class ElidedLabel : public QLabel
{
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget *parent = nullptr);

    void setFullText(const QString &text);
    QString fullText() const { return m_text; }

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void elide();

    QString m_text;
};
