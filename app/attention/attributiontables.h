#pragma once

struct AttributionOptions;
struct FaithfulnessReport;
struct SentenceAttribution;

// What `attnscope explain --method` and `--faithfulness` print as text: one table per method of
// output step x source word with the step scores, and the faithfulness report's tables.
void printAttribution(const SentenceAttribution &explained, const AttributionOptions &options);
void printFaithfulness(const FaithfulnessReport &report, const AttributionOptions &options);
