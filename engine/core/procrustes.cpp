#include "engine/core/procrustes.h"

#include <cmath>
#include <unordered_map>

void alignProjection(EmbeddingProjection &current, const EmbeddingProjection &previous)
{
    std::unordered_map<std::string, const ProjectedWord *> before;
    for (const ProjectedWord &word : previous.words)
        before.emplace(word.word, &word);
    // For Q minimising sum |Q p - q|^2 over 2x2 orthogonal Q, only the cross terms of M = sum q p^T
    // matter: the best rotation scores (m11 + m22) at its angle, the best reflection (m11 - m22).
    double m11 = 0, m12 = 0, m21 = 0, m22 = 0;
    for (const ProjectedWord &word : current.words) {
        const auto it = before.find(word.word);
        if (it == before.end())
            continue;
        const ProjectedWord &q = *it->second;
        m11 += q.x * word.x;
        m12 += q.x * word.y;
        m21 += q.y * word.x;
        m22 += q.y * word.y;
    }
    const double rotationFit = std::hypot(m11 + m22, m21 - m12);
    const double reflectionFit = std::hypot(m11 - m22, m21 + m12);
    if (rotationFit == 0 && reflectionFit == 0)
        return;  // nothing in common, or every point at the origin
    double a, b, c, d;  // Q = [a b; c d]
    if (rotationFit >= reflectionFit) {
        const double angle = std::atan2(m21 - m12, m11 + m22);
        a = std::cos(angle), b = -std::sin(angle), c = std::sin(angle), d = std::cos(angle);
    } else {
        const double angle = std::atan2(m21 + m12, m11 - m22);
        a = std::cos(angle), b = std::sin(angle), c = std::sin(angle), d = -std::cos(angle);
    }
    for (ProjectedWord &word : current.words) {
        const double x = word.x, y = word.y;
        word.x = a * x + b * y;
        word.y = c * x + d * y;
    }
}
