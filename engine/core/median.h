#pragma once

#include <vector>

// The middle value of `values`, the mean of the two middle ones for an even count; NaN when empty.
double median(std::vector<double> values);
