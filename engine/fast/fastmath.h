#pragma once

#include <algorithm>

// tanh as a rational function (Eigen's fast tanh; within 3.3e-7 of tanh over [-20, 20]):
// branch-free, so loops calling it vectorise (the clamp needs -fno-trapping-math, set for the
// engine in its CMakeLists), where std::tanh costs ~10 ns a call.
inline float fastTanh(float x)
{
    x = std::min(std::max(x, -7.90531110763549805f), 7.90531110763549805f);
    const float x2 = x * x;
    float p = -2.76076847742355e-16f;
    p = p * x2 + 2.00018790482477e-13f;
    p = p * x2 - 8.60467152213735e-11f;
    p = p * x2 + 5.12229709037114e-08f;
    p = p * x2 + 1.48572235717979e-05f;
    p = p * x2 + 6.37261928875436e-04f;
    p = p * x2 + 4.89352455891786e-03f;
    float q = 1.19825839466702e-06f;
    q = q * x2 + 1.18534705686654e-04f;
    q = q * x2 + 2.26843463243900e-03f;
    q = q * x2 + 4.89352518554385e-03f;
    return x * p / q;
}

inline float sigmoid(float x)
{
    return 0.5f + 0.5f * fastTanh(0.5f * x);
}
