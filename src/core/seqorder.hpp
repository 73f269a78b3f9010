// The whole core in one include.
#pragma once

#include "attention.hpp"
#include "attention_fast.hpp"
#include "embed.hpp"
#include "positions.hpp"
#include "rope.hpp"
#include "tensor.hpp"
