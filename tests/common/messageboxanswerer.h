#pragma once

#include <QAbstractButton>
#include <QApplication>
#include <QMessageBox>
#include <QTimer>

// Answers the next modal message box with `button`; says whether one appeared.
class MessageBoxAnswerer : public QObject
{
public:
    explicit MessageBoxAnswerer(QMessageBox::StandardButton button) : m_button(button)
    {
        m_timer.setInterval(20);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                m_answered = true;
                m_timer.stop();
                box->button(m_button)->click();
            }
        });
        m_timer.start();
    }
    bool answered() const { return m_answered; }

private:
    QTimer m_timer;
    QMessageBox::StandardButton m_button;
    bool m_answered = false;
};
