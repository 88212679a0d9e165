#pragma once

#include "app/workbench/labmodule.h"
#include "engine/core/vocabulary.h"
#include "tests/common/tinymodel.h"
#include "ui/attention/metatypes.h"
#include "ui/workbench/lab.h"
#include "ui/workbench/mainwindow.h"

#include <QCoreApplication>
#include <QSettings>
#include <QStandardPaths>

// What the window suites share: settings of their own, the quick task learnt once per suite,
// and a fresh window with every lab for each test.

inline void useTestSettings(const QString &application)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("AttnScopeTest"));
    QCoreApplication::setApplicationName(application);
    QSettings().clear();
}

// The quick task trained for 30 epochs on the calling thread, with the weights of its best
// epoch; null unless that epoch reversed more than 95% of the validation sentences.
inline ModelSnapshot learntQuickModel()
{
    const DatasetConfig data = quickDataset();
    const Dataset dataset = Dataset::build(data);
    Seq2SeqModel model(quickModelConfig(), Vocabulary::build(dataset.train), 7);
    model.datasetConfig = data;
    TrainingConfig training = quickTraining(30);
    training.learningRate = 0.005;
    Trainer trainer(model, dataset, training);
    const TrainingOutcome outcome = trainer.run();
    if (outcome.status != TrainingOutcome::Status::Finished
        || model.history.at(std::size_t(outcome.bestEpoch - 1)).valExactMatch <= 0.95)
        return nullptr;
    return std::make_shared<const Seq2SeqModel>(std::move(model));
}

// A new window on cleared settings, with every registered lab, shown with the lab `labId` in front
// (empty: the start page).
inline MainWindow *shownWorkbench(const QString &labId = QStringLiteral("attention"))
{
    QSettings().clear();
    QSettings().setValue(QStringLiteral("window/lab"), labId);
    auto *window = new MainWindow;
    addRegisteredLabs(window);
    window->show();
    return window;
}

// Every page of every lab in `window`, in the switcher's order, with its title.
inline QList<LabPage> everyPage(const MainWindow &window)
{
    QList<LabPage> pages;
    for (const Lab *lab : window.labs())
        pages << lab->pages();
    return pages;
}
