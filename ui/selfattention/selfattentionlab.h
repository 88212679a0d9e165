#pragma once

#include "ui/attention/metatypes.h"
#include "ui/workbench/lab.h"

class MainWindow;
class SelfAttentionPanel;

// The self-attention explorer: one page, no training of its own. It can take its embeddings from
// the model the attention lab shows (setModel).
class SelfAttentionLab : public Lab
{
    Q_OBJECT
public:
    explicit SelfAttentionLab(MainWindow *window);

    QList<LabPage> pages() const override;
    void saveSettings(QSettings &settings) const override;
    void restoreSettings(QSettings &settings) override;
    QString guide() const override;

    SelfAttentionPanel *panel() const { return m_panel; }

public slots:
    void setModel(const ModelSnapshot &model, const QString &description);

private:
    SelfAttentionPanel *m_panel;
};
