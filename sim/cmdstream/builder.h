// SPDX-License-Identifier: Apache-2.0
#pragma once
// Command-stream builder: the inverse of the decoder. Used by tests and the demo network.

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/arch/npu_config.h"
#include "sim/cmdstream/decoder.h"

namespace npusim::cmd {

class CommandStreamBuilder {
public:
  // Raw commands, always emitted.
  void cmd0(CommandCode code, uint16_t param);
  void cmd1(CommandCode code, uint32_t payload, uint16_t param = 0);
  void append(const Command& command);

  // Register write that, like Vela, is emitted only when it changes the register's value.
  void set(CommandCode code, uint32_t value, uint16_t param = 0);

  // Programs every register `op` uses (suppressing unchanged ones) and emits its NPU_OP_*.
  void emit(const Operation& op);

  const std::vector<uint32_t>& words() const { return words_; }
  std::vector<uint8_t> bytes() const;

private:
  void setFeatureMap(const FeatureMap& fm, CommandCode base0, CommandCode stride, CommandCode w0, CommandCode h0,
                     CommandCode h1, CommandCode region, CommandCode zeroPoint, CommandCode precision,
                     uint32_t precisionExtra, bool ofmPrecision);
  std::vector<uint32_t> words_;
  std::array<std::optional<uint64_t>, 512> shadow_{}; // indexed by command table position
};

// Encodes parsed commands back into stream bytes.
std::vector<uint8_t> encodeCommands(const std::vector<Command>& commands);

// ID word of architecture 1.0.6, as Vela 3.10 writes it.
constexpr uint32_t kVelaIdWord = 0x10060000;

// Wraps a command stream in the 32-byte COP1 driver header Vela emits.
std::vector<uint8_t> buildCop1Payload(const arch::NpuConfig& npu, const std::vector<uint8_t>& stream);

} // namespace npusim::cmd
