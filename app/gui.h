#pragma once

// Opens AttnScope's window with its training thread and runs the event loop until it closes.
int runGui(int argc, char **argv);
