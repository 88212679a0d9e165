#include "engine/attention/beamevaluation.h"

#include "engine/attention/seq2seqmodel.h"
#include "engine/core/tokenizer.h"
#include "engine/fast/parallelfor.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

std::string beamSettingName(const BeamSetting &s)
{
    char name[48];
    if (s.width == 1)
        std::snprintf(name, sizeof name, "greedy");
    else
        std::snprintf(name, sizeof name, "beam %d, alpha %g", s.width, s.alpha);
    return name;
}

std::string beamEvaluationCsv(const BeamEvaluation &evaluation)
{
    std::ostringstream csv;
    csv.precision(10);
    csv << "decoding,width,alpha,exact_match,mean_log_prob,mean_length,differ_from_greedy\n";
    for (const BeamSettingScore &s : evaluation.scores)
        csv << '"' << beamSettingName(s.setting) << "\"," << s.setting.width << ',' << s.setting.alpha << ','
            << s.exactMatch << ',' << s.meanLogProb << ',' << s.meanLength << ',' << s.differFromGreedy << '\n';
    return csv.str();
}

const std::vector<BeamSetting> &courseBeamSettings()
{
    static const std::vector<BeamSetting> settings = [] {
        std::vector<BeamSetting> s{{1, 0.0}};
        for (const int width : {2, 5, 10})
            for (const double alpha : {0.0, 0.6, 1.0})
                s.push_back({width, alpha});
        return s;
    }();
    return settings;
}

BeamEvaluation evaluateBeams(const Seq2SeqModel &model, const std::vector<SentencePair> &data,
                             std::vector<BeamSetting> settings, const std::function<bool(int, int)> &progress)
{
    for (const BeamSetting &s : settings) {
        const std::string problem = validate(BeamOptions{s.width, s.alpha, 1});
        if (!problem.empty())
            throw std::invalid_argument(problem);
    }
    const auto greedy = std::find_if(settings.begin(), settings.end(), [](const BeamSetting &s) { return s.width == 1; });
    if (greedy == settings.end())
        settings.insert(settings.begin(), BeamSetting{1, 0.0});
    else
        std::rotate(settings.begin(), greedy, greedy + 1);

    // outputs[i][s]: sentence i decoded with setting s; decoded on two threads, each with its own
    // copy of the model (a decode keeps scratch state in the network).
    struct Decoded {
        std::vector<std::string> words;
        double logProb = 0;
    };
    std::vector<std::vector<Decoded>> outputs(data.size());
    const int parts = std::thread::hardware_concurrency() > 1 && data.size() > 1 ? 2 : 1;
    std::atomic<std::size_t> next{0};
    std::atomic<int> done{0};
    std::atomic<bool> stopped{false};
    std::mutex reporting;
    parallelFor(
        parts,
        [&](int) {
            const Seq2SeqModel copy = model.clone();
            for (std::size_t i; !stopped && (i = next++) < data.size();) {
                for (const BeamSetting &s : settings) {
                    const ScoredSentence best = copy.beamDecode(data[i].source, BeamOptions{s.width, s.alpha, 1}).nbest.front();
                    outputs[i].push_back({best.sentence.words(), best.logProb});
                }
                const int finished = ++done;
                if (progress) {
                    const std::lock_guard<std::mutex> lock(reporting);
                    if (!progress(finished, int(data.size())))
                        stopped = true;
                }
            }
        },
        Workers::PooledSingleThreadedOps);

    BeamEvaluation result;
    result.settings = settings;
    result.scores.resize(settings.size());
    for (std::size_t s = 0; s < settings.size(); ++s)
        result.scores[s].setting = settings[s];
    for (std::size_t i = 0; i < data.size(); ++i) {
        if (outputs[i].size() != settings.size())
            continue;  // not decoded: stopped first
        ++result.sentences;
        bool differs = false;
        for (std::size_t s = 0; s < settings.size(); ++s) {
            BeamSettingScore &score = result.scores[s];
            const Decoded &d = outputs[i][s];
            score.exactMatch += d.words == data[i].target;
            score.meanLogProb += d.logProb;
            score.meanLength += double(d.words.size());
            if (d.words != outputs[i].front().words) {
                ++score.differFromGreedy;
                differs = true;
            }
        }
        if (differs) {
            BeamDisagreement disagreement{joinTokens(data[i].source), joinTokens(data[i].target), {}};
            for (const Decoded &d : outputs[i])
                disagreement.outputs.push_back(joinTokens(d.words));
            result.disagreements.push_back(std::move(disagreement));
        }
    }
    if (result.sentences > 0)
        for (BeamSettingScore &score : result.scores) {
            score.exactMatch /= result.sentences;
            score.meanLogProb /= result.sentences;
            score.meanLength /= result.sentences;
        }
    return result;
}
