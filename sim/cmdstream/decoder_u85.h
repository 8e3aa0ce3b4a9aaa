// SPDX-License-Identifier: Apache-2.0
#pragma once
// The decoder of architecture 2.x streams (Ethos-U85): the register semantics of ethos-u85.md
// 3.2-3.4 (chaining, broadcast and scalar operands, transpose and reverse, resize, branches,
// strided and indexed DMA, LUT loads, weight formats and up to four weight streams) into
// architecture-neutral Operations. Reached through decodeOperations.

#include <memory>

#include "sim/cmdstream/decoder_common.h"

namespace npusim::cmd {

// The decoder of a stream in the CommandSet::Format::EthosU85 format.
std::unique_ptr<detail::OperationDecoder> u85Decoder(const detail::DecoderContext& context);

} // namespace npusim::cmd
