#pragma once

// Which update rule a lab trains with: Adam (the default) or plain stochastic gradient descent,
// the course's exercises' rule.
enum class OptimizerKind { Adam, Sgd };

// What a training loop needs of an update rule; Adam and Sgd are checked against LibTorch's.
class Optimizer
{
public:
    virtual ~Optimizer() = default;
    // With `gradientScale`, each gradient is taken multiplied by it, as if clipping had scaled it
    // (clipFactor), without a pass of its own.
    virtual void step(double gradientScale = 1.0) = 0;
    virtual void zeroGrad() = 0;
    virtual void setLearningRate(double lr) = 0;
};
