// SPDX-License-Identifier: Apache-2.0
#pragma once
// The decoder of architecture 1.x streams (Ethos-U55, U65): the register semantics of the
// command-stream doc, into architecture-neutral Operations. Reached through decodeOperations.

#include <memory>

#include "sim/cmdstream/decoder_common.h"

namespace npusim::cmd {

// The decoder of a stream in the CommandSet::Format::EthosU55 format.
std::unique_ptr<detail::OperationDecoder> u55Decoder(const detail::DecoderContext& context);

} // namespace npusim::cmd
