#pragma once

#include <string>

// `attnscope bench --load`: every lab that trains runs its default training in the app (an
// offscreen window, as Train does) with k = 0, 1 and 2 busy processes beside it, and reports its
// training rate at each k as a share of the quiet rate and the GUI's worst event-loop stall.
// Writes the figures as JSON to `jsonPath` unless it is empty. Returns the exit code.
int runLoadBench(int rounds, double secondsPerRun, const std::string &jsonPath);
