#pragma once

#include <QString>

struct AttributionOptions;
struct FaithfulnessReport;

// What `attnscope explain --faithfulness` prints with --json or --csv, whichever lab made the
// report (one sentence's are app/core/attributionreport's). A figure that is undefined is null in
// JSON and an empty field in CSV.
namespace runfiles {
// "sentences", "steps", "answered_steps", "options", "methods", "fractions", "agreement" (method ->
// method -> rho), "top_answer_agreement" (method -> share) and "curves" (name, comprehensiveness and
// sufficiency per fraction, the random ranking last).
QString faithfulnessJson(const FaithfulnessReport &report, const AttributionOptions &options);
// measure,method,against,k,value: agreement (against the other method), top_answer_agreement,
// comprehensiveness and sufficiency (per k), in one long table.
QString faithfulnessCsv(const FaithfulnessReport &report);
}
