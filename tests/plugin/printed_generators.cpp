// The test generators again, each applying in its schedule() the schedule source that the
// Candor plugin emitted for it (gen/candor_APP.schedule.h).
#define CANDOR_PLUGIN_PRINTED
#include "generators.cpp"  // NOLINT(bugprone-suspicious-include)
