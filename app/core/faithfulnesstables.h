#pragma once

struct AttributionOptions;
struct FaithfulnessReport;

// What `attnscope explain --faithfulness` prints as text, whichever lab made the report: its
// tables (one sentence's are app/core/attributionreport's).
void printFaithfulness(const FaithfulnessReport &report, const AttributionOptions &options);
// The report on standard output: JSON with `json`, else CSV with `csv`, else printFaithfulness's tables.
void writeFaithfulness(const FaithfulnessReport &report, const AttributionOptions &options, bool json, bool csv);
