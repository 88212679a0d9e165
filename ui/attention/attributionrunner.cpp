#include "ui/attention/attributionrunner.h"

AttributionRunner::AttributionRunner(QObject *parent) : QObject(parent)
{
    connect(&m_runner, &NewestRequestRunner::failed, this, &AttributionRunner::failed);
}

void AttributionRunner::attribute(const ModelSnapshot &model, const std::vector<std::string> &words,
                                  const AttributionOptions &options)
{
    post(model, [this, words, options](const Seq2SeqModel &copy) -> std::function<void()> {
        SentenceAttribution result = ::attribute(copy, words, options);
        return [this, result] { emit attributed(result); };
    });
}

void AttributionRunner::contrast(const ModelSnapshot &model, const SentenceAttribution &explained, int row,
                                 const std::string &alternative, int integrationSteps)
{
    AttributionOptions options;
    options.integrationSteps = integrationSteps;
    post(model, [this, explained, row, alternative, options](const Seq2SeqModel &copy) -> std::function<void()> {
        ContrastiveAttribution result = attributeContrast(copy, explained, row, alternative, options);
        return [this, result] { emit contrasted(result); };
    });
}

void AttributionRunner::post(const ModelSnapshot &model, Work work)
{
    if (!model)
        return;
    if (model != m_cloneOf) {
        m_clone = std::make_shared<const Seq2SeqModel>(model->clone());
        m_cloneOf = model;
    }
    m_runner.post([clone = m_clone, work = std::move(work)] { return work(*clone); });
}
