#include "ui/selfattention/selfattentionlab.h"

#include "ui/core/guidepane.h"
#include "ui/selfattention/selfattentionpanel.h"
#include "ui/workbench/mainwindow.h"

SelfAttentionLab::SelfAttentionLab(MainWindow *window) : Lab(window), m_panel(new SelfAttentionPanel(window))
{
    m_panel->setObjectName(QStringLiteral("selfAttentionPanel"));
}

QList<LabPage> SelfAttentionLab::pages() const
{
    return {{tr("&Self-Attention Explorer"), m_panel}};
}

void SelfAttentionLab::saveSettings(QSettings &settings) const
{
    m_panel->saveSettings(settings);
}

void SelfAttentionLab::restoreSettings(QSettings &settings)
{
    m_panel->restoreSettings(settings);
}

QString SelfAttentionLab::guide() const
{
    return GuidePane::read(QStringLiteral("selfattention"));
}

void SelfAttentionLab::setModel(const ModelSnapshot &model, const QString &description)
{
    m_panel->setModel(model, description);
}
