#pragma once

#include <QWidget>

class AttributionStripsPlot;
class AttributionSource;
class ContrastBox;
class QLabel;

// Every method side by side for the output word the user clicked: small multiples of their scores
// over the source words, how far they agree (Spearman's ρ between each pair, rowAgreement), and
// the contrastive box below.
class RowAttributionView : public QWidget
{
    Q_OBJECT
public:
    explicit RowAttributionView(AttributionSource *source, QWidget *parent = nullptr);

    AttributionStripsPlot *plot() const { return m_plot; }
    ContrastBox *contrastBox() const { return m_contrast; }
    QString agreementText() const;
    bool hasRow() const;

signals:
    void rowShown();
    void visibilityChanged(bool visible);  // on screen or not: a dock tabbed away is not

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void showRow();
    void connectContrast();

    AttributionSource *m_source;
    QLabel *m_agreement;
    AttributionStripsPlot *m_plot;
    ContrastBox *m_contrast;
};
