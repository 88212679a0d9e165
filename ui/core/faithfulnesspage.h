#pragma once

#include "engine/core/faithfulnessreport.h"

#include <QMap>
#include <QWidget>

class ErasureCurvesPlot;
class QLabel;
class QProgressBar;
class QTableWidget;

// Is attention a faithful explanation of the model in front of the student? The erasure curves of
// every method against random, the agreement between the methods and each one's top word against
// the known answer, measured on a subset of the test split after every epoch while training and
// when a model is opened; the line under the title follows the measurement over the epochs.
class FaithfulnessPage : public QWidget
{
    Q_OBJECT
public:
    explicit FaithfulnessPage(QWidget *parent = nullptr);

    // What is measured, for the heading: how many sentences, integrated gradients' steps.
    void setMeasurement(int sentences, int integrationSteps);
    // `epoch` 0: a model that was opened, which starts a new history.
    void setProgress(int epoch, int done, int total);
    void setReport(int epoch, const FaithfulnessReport &report);
    void showMessage(const QString &message);  // nothing measured: why
    void clearHistory();

    bool hasReport() const { return m_hasReport; }
    const FaithfulnessReport &report() const { return m_report; }
    ErasureCurvesPlot *curvesPlot() const { return m_curves; }
    QTableWidget *agreementTable() const { return m_table; }
    QProgressBar *progressBar() const { return m_progress; }
    QString heading() const;
    QString trend() const;

    // A row per method: the method, its mean ρ with each method, its top-answer agreement.
    bool exportAgreementCsv(const QString &path, QString *error = nullptr) const;
    bool exportAgreementImage(const QString &path, int width, int height, QString *error = nullptr);

    // What a measurement of epoch 0 is of: "the opened model" unless told.
    void setSubject(const QString &subject);
    QString subject() const { return m_subject; }

signals:
    void reportShown();
    void pageShown();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void fillTable();
    void updateTrend();

    QLabel *m_heading;
    QLabel *m_status;
    QProgressBar *m_progress;
    ErasureCurvesPlot *m_curves;
    QTableWidget *m_table;
    QLabel *m_answers;
    QLabel *m_trend;

    QString m_subject;
    int m_sentences = 0;
    int m_integrationSteps = 0;
    bool m_hasReport = false;
    int m_epoch = 0;
    FaithfulnessReport m_report;
    QMap<int, FaithfulnessReport> m_history;  // by epoch, of this run
};
