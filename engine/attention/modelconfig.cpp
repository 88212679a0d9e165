#include "engine/attention/modelconfig.h"

#include <cmath>
#include <utility>
#include <sstream>

namespace {
constexpr std::pair<AttentionKind, const char *> kAttentionNames[] = {{AttentionKind::Bahdanau, "bahdanau"},
                                                                      {AttentionKind::LuongDot, "luong-dot"},
                                                                      {AttentionKind::LuongGeneral, "luong-general"},
                                                                      {AttentionKind::None, "none"}};
}

const char *attentionName(AttentionKind kind)
{
    for (const auto &[k, name] : kAttentionNames)
        if (k == kind)
            return name;
    return "bahdanau";
}

bool parseAttention(const std::string &name, AttentionKind *kind)
{
    for (const auto &[k, n] : kAttentionNames)
        if (name == n) {
            *kind = k;
            return true;
        }
    return false;
}

std::string validate(const ModelConfig &c)
{
    std::ostringstream out;
    if (c.embedSize < 1 || c.embedSize > 4096)
        out << "embedding size must be between 1 and 4096 (got " << c.embedSize << ")";
    else if (c.hiddenSize < 2 || c.hiddenSize > 4096)
        out << "hidden size must be between 2 and 4096 (got " << c.hiddenSize << ")";
    else if (c.bidirectional && c.hiddenSize % 2 != 0)
        out << "hidden size must be even for a bidirectional encoder (got " << c.hiddenSize << ")";
    else if (c.layers < 1 || c.layers > 8)
        out << "layers must be between 1 and 8 (got " << c.layers << ")";
    else if (!(c.dropout >= 0 && c.dropout < 1))
        out << "dropout must be at least 0 and below 1 (got " << c.dropout << ")";
    return out.str();
}
