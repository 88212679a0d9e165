#pragma once

#include <QString>

#include <functional>

class AttentionLab;
class Lab;

// An attention-lab exercise's answers after a run: a table with a row per run trained while the
// app is open (the one just ended marked), `label` telling the runs' settings apart, each with its
// test exact match, training time and training loss at every `printedEvery`-th epoch; `more` adds
// what the exercise asks beyond the table (unset: nothing).
// The variants exercise's answers: each run of the Experiments queue last run, as far as it went.
QString variantsAnswer(Lab *lab);
// The beams exercise's answers: the Beams page's comparison, when there is one.
QString beamsAnswer(Lab *lab);

std::function<QString(Lab *)> attentionRunsAnswer(int printedEvery,
                                                  const std::function<QString(const AttentionLab &)> &label,
                                                  const std::function<QString(const AttentionLab &)> &more = {});
