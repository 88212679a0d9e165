#pragma once

#include <QString>

struct AttributionOptions;
struct FaithfulnessReport;
struct SentenceAttribution;

// What `attnscope explain --method` and `--faithfulness` print with --json or --csv. A figure that
// is undefined is null in JSON and an empty field in CSV; steps and word positions count from 1.
namespace runfiles {
// "input", "output", "words" (the columns), "outputs" (the rows), "options" (steps, baseline,
// occlusion), "steps" (per output step: output, log_prob, entropy, margin, runner_up), "methods"
// (per method: method, title, scores as rows of columns) and, with integrated gradients,
// "integration_delta" and "completeness_gap" per step.
QString attributionJson(const SentenceAttribution &explained, const AttributionOptions &options);
// method,step,output,position,word,score: one row per method, output step and source word.
QString attributionCsv(const SentenceAttribution &explained);
// "sentences", "steps", "answered_steps", "options", "methods", "fractions", "agreement" (method ->
// method -> rho), "top_answer_agreement" (method -> share) and "curves" (name, comprehensiveness and
// sufficiency per fraction, the random ranking last).
QString faithfulnessJson(const FaithfulnessReport &report, const AttributionOptions &options);
// measure,method,against,k,value: agreement (against the other method), top_answer_agreement,
// comprehensiveness and sufficiency (per k), in one long table.
QString faithfulnessCsv(const FaithfulnessReport &report);
}
