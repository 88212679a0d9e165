#pragma once

#include "ui/workbench/lab.h"

class SelfAttentionPanel;

// The self-attention explorer: one page, no training of its own. It can take its embeddings from
// those another lab shares (the attention lab's model), or X and the projections from a trained head
// (the Transformer lab's).
class SelfAttentionLab : public Lab
{
    Q_OBJECT
public:
    explicit SelfAttentionLab(Workbench *workbench);

    QList<LabPage> pages() const override;
    void saveSettings(QSettings &settings) const override;
    void restoreSettings(QSettings &settings) override;
    void takeEmbeddings(const SharedEmbeddings &embeddings) override;
    bool takeAttentionHead(const SharedAttentionHead &head) override;

    SelfAttentionPanel *panel() const { return m_panel; }

private:
    SelfAttentionPanel *m_panel;
};
