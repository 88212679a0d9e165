#pragma once

struct DecodedSentence;
class AttentionHeatmap;

// Shows where the decoder looked for `sentence` in `heatmap`: its tokens, the words outside the
// vocabulary and those a pointer copied. A sentence decoded without attention (variant none)
// shows a message saying so.
void showDecodedSentence(AttentionHeatmap &heatmap, const DecodedSentence &sentence);
