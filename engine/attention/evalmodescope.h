#pragma once

#include "engine/attention/seq2seqnet.h"

// Puts a network in eval mode for a scope and restores its mode after. It writes the mode only
// to change it, so decodes on several threads of a network already in eval mode only read it.
class EvalModeScope
{
public:
    explicit EvalModeScope(Seq2SeqNet &net)
        : m_net(net)
        , m_wasTraining(net->is_training())
    {
        if (m_wasTraining)
            net->eval();
    }
    ~EvalModeScope()
    {
        if (m_wasTraining)
            m_net->train();
    }
    EvalModeScope(const EvalModeScope &) = delete;
    EvalModeScope &operator=(const EvalModeScope &) = delete;

private:
    Seq2SeqNet &m_net;
    bool m_wasTraining;
};
