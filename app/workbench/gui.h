#pragma once

#include <QString>

// Opens AttnScope's window with every registered lab and its training thread, opens `file` (a
// project, model or vectors file, in its lab) when one is given, and runs the event loop until the
// window closes.
int runGui(int argc, char **argv, const QString &file = {});
