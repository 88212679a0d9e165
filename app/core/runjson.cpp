#include "app/core/runjson.h"

#include "engine/core/corpusdefaults.h"
#include "engine/core/dataset.h"
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

QJsonObject effectiveDataJson(const Dataset &data, const DatasetConfig &d, int vocabularySize)
{
    const QString maxLengthFrom = d.maxLength > 0          ? QStringLiteral("setting")
                                  : data.lengthPercentile ? QStringLiteral("corpus percentile")
                                                          : QStringLiteral("generated default");
    return QJsonObject{{"corpus", data.fromCorpus},
                       {"min_length", d.minLength},
                       {"max_length", data.maxLength},
                       {"max_length_from", maxLengthFrom},
                       {"length_percentile", data.lengthPercentile > 0 ? QJsonValue(data.lengthPercentile)
                                                                       : QJsonValue()},
                       {"skipped_blank", data.skippedBlank},
                       {"skipped_too_long", data.skippedTooLong},
                       {"skipped_too_short", data.skippedTooShort},
                       {"min_count", effectiveMinCount(d)},
                       {"min_count_auto", d.minCount == 0},
                       {"max_vocabulary", effectiveMaxVocabulary(d)},
                       {"max_vocabulary_auto", d.maxVocabulary == 0},
                       {"vocabulary_size", vocabularySize}};
}
