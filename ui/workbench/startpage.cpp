#include "ui/workbench/startpage.h"

#include "ui/core/svgicon.h"
#include "ui/workbench/labinfo.h"

#include <QFrame>
#include <QGridLayout>
#include <QLabel>
#include <QPixmap>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace {

// Small enough for four cards side by side in a 1280-pixel window beside the lab switcher.
const QSize kPictureSize(240, 135);
constexpr int kCardSpacing = 12;

}

StartPage::StartPage(QWidget *parent)
    : QScrollArea(parent), m_grid(new QGridLayout),
      m_exercisesTitle(new QLabel(tr("<h3>The course's exercises</h3>Each opens in its lab with its task in the "
                                     "guide; Course ▸ Exercises lists them too."))),
      m_exercises(new QGridLayout)
{
    setObjectName(QStringLiteral("startPage"));
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    auto *content = new QWidget;
    auto *layout = new QVBoxLayout(content);
    auto *title = new QLabel(tr("<h2>AttnScope</h2>"));
    auto *intro = new QLabel(tr("A workbench of labs for learning how neural sequence models work: each lab trains "
                                "a model in front of you and shows what happens inside it. Choose a lab to begin. "
                                "The bar on the left takes you to any lab in one click (or Ctrl+1, Ctrl+2, …), "
                                "and Help ▸ Start Page brings this page back."));
    intro->setWordWrap(true);
    layout->addWidget(title);
    layout->addWidget(intro);
    layout->addLayout(m_grid);
    m_exercisesTitle->setWordWrap(true);
    m_exercisesTitle->hide();  // until there is an exercise
    layout->addWidget(m_exercisesTitle);
    layout->addLayout(m_exercises);
    layout->addStretch(1);
    m_grid->setSpacing(kCardSpacing);
    setWidget(content);
}

void StartPage::addLab(const LabInfo &info)
{
    const int index = int(m_cards.size());
    auto *card = new QFrame;
    card->setObjectName(QStringLiteral("startCard_%1").arg(info.id));
    card->setFrameShape(QFrame::StyledPanel);
    auto *layout = new QVBoxLayout(card);

    auto *picture = new QToolButton;
    picture->setObjectName(QStringLiteral("startPicture_%1").arg(info.id));
    picture->setAutoRaise(true);
    picture->setIcon(QIcon(QPixmap(info.resource(QStringLiteral("picture.png")))));
    picture->setIconSize(kPictureSize);
    picture->setToolTip(tr("Open %1").arg(info.name));
    picture->setAccessibleName(tr("Picture of %1").arg(info.name));
    auto *heading = new QLabel(QStringLiteral("<h3>%1</h3>").arg(info.name.toHtmlEscaped()));
    auto *summary = new QLabel(info.summary);
    summary->setWordWrap(true);
    auto *open = new QPushButton(svgIcon(info.resource(QStringLiteral("icon.svg"))), tr("Open %1").arg(info.name));
    open->setObjectName(QStringLiteral("startOpen_%1").arg(info.id));
    layout->addWidget(picture, 0, Qt::AlignHCenter);
    layout->addWidget(heading);
    layout->addWidget(summary, 1);
    layout->addWidget(open, 0, Qt::AlignLeft);
    connect(picture, &QToolButton::clicked, this, [this, index] { emit labChosen(index); });
    connect(open, &QPushButton::clicked, this, [this, index] { emit labChosen(index); });
    m_cards << card;
    m_columns = 0;
    arrangeCards();
}

void StartPage::resizeEvent(QResizeEvent *event)
{
    QScrollArea::resizeEvent(event);
    arrangeCards();
}

void StartPage::arrangeCards()
{
    if (m_cards.isEmpty())
        return;
    // As many columns as fit without scrolling sideways.
    const QMargins margins = widget()->layout()->contentsMargins();
    const int room = viewport()->width() - margins.left() - margins.right() + kCardSpacing;
    const int card = m_cards.front()->minimumSizeHint().width() + kCardSpacing;
    const int columns = std::clamp(room / card, 1, int(m_cards.size()));
    if (columns == m_columns)
        return;
    m_columns = columns;
    for (QWidget *card : std::as_const(m_cards))
        m_grid->removeWidget(card);
    for (int i = 0; i < m_cards.size(); ++i)
        m_grid->addWidget(m_cards[i], i / columns, i % columns);
}

void StartPage::addExercise(QAction *exercise)
{
    constexpr int kColumns = 2;
    const int index = m_exercises->count();
    auto *button = new QToolButton;
    button->setDefaultAction(exercise);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    button->setAutoRaise(true);
    button->setObjectName(QStringLiteral("startExercise_%1").arg(index));
    m_exercises->addWidget(button, index / kColumns, index % kColumns, Qt::AlignLeft);
    m_exercisesTitle->show();
}
