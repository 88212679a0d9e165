#pragma once

#include <string>

class QWidget;

// `attnscope bench --startup`: launches `attnscope` `launches` times, each told by the environment
// to print the moment its window has painted its first frame and quit, and reports the time from
// exec to that frame (median, each launch). Writes them as JSON to `jsonPath` unless it is empty.
int runStartupBench(int launches, const std::string &jsonPath);

// In a process launched by runStartupBench: prints "first frame" on stdout once `window` has
// painted for the first time, then quits. Does nothing in any other process.
void reportFirstFrameIfAsked(QWidget *window);
