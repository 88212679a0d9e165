#pragma once
// The one place LibTorch is included. Qt's `slots` macro would break torch's IValue headers
// (they declare a slots() method), so it is lifted for the duration of the include.
#pragma push_macro("slots")
#undef slots
#include <torch/torch.h>
#pragma pop_macro("slots")
