#pragma once

#include <QScrollArea>

class QAction;
class QGridLayout;
class QLabel;
class QResizeEvent;
struct LabInfo;

// The first page a newcomer sees (and Help ▸ Start Page): every lab with a picture and one sentence
// of what you learn there; clicking one opens it. Below, the course's exercises, each opening in its lab.
class StartPage : public QScrollArea
{
    Q_OBJECT
public:
    explicit StartPage(QWidget *parent = nullptr);

    void addLab(const LabInfo &info);  // the labs are numbered in the order they are added, from 0
    // A button under the labs, under "The course's exercises", that triggers `exercise`.
    void addExercise(QAction *exercise);

signals:
    void labChosen(int index);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void arrangeCards();  // as many columns as the width takes, up to one row for every lab

    QGridLayout *m_grid;
    QLabel *m_exercisesTitle;
    QGridLayout *m_exercises;
    QList<QWidget *> m_cards;
    int m_columns = 0;
};
