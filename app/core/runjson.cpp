#include "app/core/runjson.h"

#include "ui/core/configmap.h"

QJsonArray stringArray(const std::vector<std::string> &items)
{
    QJsonArray array;
    for (const std::string &item : items)
        array.append(QString::fromStdString(item));
    return array;
}

QJsonObject epochStatsJson(const EpochStats &e)
{
    return QJsonObject{{"epoch", e.epoch},
                       {"train_loss", e.trainLoss},
                       {"val_loss", e.valLoss},
                       {"val_exact_match", e.valExactMatch},
                       {"seconds", e.seconds},
                       {"samples_per_second", e.samplesPerSecond}};
}

QJsonArray epochStatsJson(const std::vector<EpochStats> &history)
{
    QJsonArray epochs;
    for (const EpochStats &e : history)
        epochs.append(epochStatsJson(e));
    return epochs;
}

QJsonObject datasetJson(const DatasetConfig &d)
{
    QJsonObject dataset = toJson(d, datasetConfigFields());
    dataset.insert("words", stringArray(d.words));
    return dataset;
}
