#pragma once

#include "engine/attention/decodedsentence.h"

#include <QString>

class Seq2SeqModel;

// "Explain this weight" for cell (row, column) of `sentence`, which `model` decoded: the decoder
// state and the encoder state it scores, the score by the model's attention variant, the softmax
// over the row and the context's share, with the model's own numbers (engine/attention/
// attentionexplanation.h), as HTML. What went wrong, when something did.
QString attentionExplanationHtml(const Seq2SeqModel &model, const DecodedSentence &sentence, int row, int column);
