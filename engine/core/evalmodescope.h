#pragma once

#include "engine/core/torchapi.h"

// Puts a network in eval mode for a scope and restores its mode after. It writes the mode only
// to change it, so decodes on several threads of a network already in eval mode only read it.
class EvalModeScope
{
public:
    explicit EvalModeScope(torch::nn::Module &net)
        : m_net(net)
        , m_wasTraining(net.is_training())
    {
        if (m_wasTraining)
            net.eval();
    }
    template <typename Impl>
    explicit EvalModeScope(torch::nn::ModuleHolder<Impl> &net)
        : EvalModeScope(*net)
    {
    }
    ~EvalModeScope()
    {
        if (m_wasTraining)
            m_net.train();
    }
    EvalModeScope(const EvalModeScope &) = delete;
    EvalModeScope &operator=(const EvalModeScope &) = delete;

private:
    torch::nn::Module &m_net;
    bool m_wasTraining;
};
