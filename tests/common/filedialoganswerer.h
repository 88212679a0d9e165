#pragma once

#include <QApplication>
#include <QFileDialog>
#include <QTimer>

// Answers the next modal file dialog with `path`, as a person typing it and pressing Save or Open
// would; says whether one appeared. Under the offscreen platform the dialog is Qt's own.
class FileDialogAnswerer : public QObject
{
public:
    explicit FileDialogAnswerer(const QString &path) : m_path(path)
    {
        m_timer.setInterval(20);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            if (auto *dialog = qobject_cast<QFileDialog *>(QApplication::activeModalWidget())) {
                m_answered = true;
                m_timer.stop();
                dialog->selectFile(m_path);
                QMetaObject::invokeMethod(dialog, "accept");  // as the Save button does
            }
        });
        m_timer.start();
    }
    bool answered() const { return m_answered; }

private:
    QTimer m_timer;
    QString m_path;
    bool m_answered = false;
};
