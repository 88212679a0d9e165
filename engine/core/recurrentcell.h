#pragma once

#include <string>
#include <vector>

// The recurrent cells the labs offer, with torch's parameter layout: a plain tanh RNN, a GRU or an LSTM.
enum class RecurrentCell { Rnn, Gru, Lstm };

// "rnn", "gru", "lstm": the names on the command line and in files, in the enum's order.
const std::vector<std::string> &cellNames();
const char *cellName(RecurrentCell cell);

// The number of gate blocks of `hidden` rows a cell's weight matrices have: 1, 3 (r z n), 4 (i f g o).
int gateCount(RecurrentCell cell);
