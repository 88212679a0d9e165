#include "ui/selfattention/selfattentionlab.h"

#include "ui/selfattention/selfattentionpanel.h"
#include "ui/workbench/workbench.h"

SelfAttentionLab::SelfAttentionLab(Workbench *workbench)
    : Lab(workbench), m_panel(new SelfAttentionPanel(workbench->dialogParent()))
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

void SelfAttentionLab::takeEmbeddings(const SharedEmbeddings &embeddings)
{
    m_panel->setEmbeddings(embeddings);
}

bool SelfAttentionLab::takeAttentionHead(const SharedAttentionHead &head)
{
    m_panel->setAttentionHead(head);
    return true;
}
