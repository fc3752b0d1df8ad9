// Precompiled header for every libtorch source: torch/torch.h alone costs ~20 s per file.
#pragma once

#include <torch/torch.h>
