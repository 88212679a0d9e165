#include "engine/core/recurrentcell.h"

const std::vector<std::string> &cellNames()
{
    static const std::vector<std::string> names = {"rnn", "gru", "lstm"};
    return names;
}

const char *cellName(RecurrentCell cell)
{
    return cellNames()[std::size_t(cell)].c_str();
}

int gateCount(RecurrentCell cell)
{
    switch (cell) {
    case RecurrentCell::Rnn: return 1;
    case RecurrentCell::Gru: return 3;
    case RecurrentCell::Lstm: return 4;
    }
    return 1;
}
