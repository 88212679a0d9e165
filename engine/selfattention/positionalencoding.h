#pragma once

#include "engine/selfattention/matrix.h"

// The sinusoidal positions of "Attention Is All You Need": row p, columns 2m and 2m+1 hold
// sin(p / 10000^(2m/d)) and cos(p / 10000^(2m/d)), so each word's row tells where it stands.
Matrix sinusoidalPositions(int tokens, int dModel);

// X with each row's position added: without it, self-attention cannot see word order.
Matrix withPositions(const Matrix &x);
