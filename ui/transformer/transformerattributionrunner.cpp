#include "ui/transformer/transformerattributionrunner.h"

#include "ui/transformer/transformerresults.h"

#include <stdexcept>

TransformerAttributionRunner::TransformerAttributionRunner(QObject *parent) : QObject(parent)
{
    connect(&m_runner, &NewestRequestRunner::failed, this, &TransformerAttributionRunner::failed);
}

void TransformerAttributionRunner::attribute(const std::shared_ptr<const TransformerSnapshot> &snapshot,
                                             const std::vector<std::string> &words, const AttributionOptions &options)
{
    post(snapshot, [this, words, options](const TransformerModel &model) -> std::function<void()> {
        TransformerAttribution result = attributeTransformer(model, words, options);
        return [this, result] { emit attributed(result); };
    });
}

void TransformerAttributionRunner::contrast(const std::shared_ptr<const TransformerSnapshot> &snapshot,
                                            const TransformerAttribution &explained, int row,
                                            const std::string &alternative, int integrationSteps)
{
    AttributionOptions options;
    options.integrationSteps = integrationSteps;
    post(snapshot, [this, explained, row, alternative, options](const TransformerModel &model) -> std::function<void()> {
        ContrastiveAttribution result = attributeTransformerContrast(model, explained, row, alternative, options);
        return [this, result] { emit contrasted(result); };
    });
}

void TransformerAttributionRunner::post(const std::shared_ptr<const TransformerSnapshot> &snapshot, Work work)
{
    if (!snapshot)
        return;
    m_runner.post([this, snapshot, work = std::move(work)] { return work(modelOf(*snapshot)); });
}

const TransformerModel &TransformerAttributionRunner::modelOf(const TransformerSnapshot &snapshot)
{
    if (!snapshot.weights)
        throw std::invalid_argument("these weights came without the network's parameters");
    if (snapshot.weights != m_builtFrom) {
        m_model.reset();
        m_model.emplace(
            TransformerModel::withParameters(snapshot.config, snapshot.vocabulary, snapshot.task, *snapshot.weights));
        m_builtFrom = snapshot.weights;
    }
    return *m_model;
}
