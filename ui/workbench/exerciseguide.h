#pragma once

#include <QObject>
#include <QString>

#include <functional>

class GuidePane;
class Lab;
class RunState;

// The course exercise opened last (Course ▸ Exercises): its question in the guide pane, and, each
// time work its lab ran in the foreground ends (training, a comparison), the answers computed from
// what that work left.
class ExerciseGuide : public QObject
{
    Q_OBJECT
public:
    ExerciseGuide(GuidePane *pane, RunState *run, QObject *parent = nullptr);

    // Shows `guide` (Markdown) for `lab`'s exercise, with the last answers when it is the one open
    // already. `answer` gives the answers' Markdown from what the lab has trained; unset when the
    // exercise trains nothing.
    void open(Lab *lab, const QString &guide, const std::function<QString()> &answer);
    Lab *lab() const { return m_lab; }
    // The question, with the answers of the last run when one ended since the exercise opened, under
    // the heading answersHeading().
    QString markdown() const;
    static QString answersHeading() { return QStringLiteral("Your run"); }

signals:
    void answered();  // work of the exercise's lab ended: markdown() has its answers

private:
    void followRun();

    GuidePane *m_pane;
    RunState *m_run;
    Lab *m_lab = nullptr;
    QString m_guide;
    QString m_answers;
    std::function<QString()> m_answer;
    bool m_working = false;  // the exercise's lab has foreground work under way
};
