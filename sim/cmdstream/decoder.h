// SPDX-License-Identifier: Apache-2.0
#pragma once
// Command-stream decoding: words -> typed commands -> register state -> Operation snapshots.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/cmdstream/opcodes.h"
#include "sim/cmdstream/operation.h"

namespace npusim::cmd {

// One command as it appears in the stream.
struct Command {
  uint32_t index = 0;     // position in the stream (0-based)
  uint32_t offset = 0;    // byte offset in the stream
  uint16_t key = 0;       // control << 14 | opcode
  uint16_t param = 0;
  uint32_t payload = 0;   // cmd1 only
  const CommandInfo* info = nullptr;
  bool hasPayload() const { return isCmd1(key); }
  uint32_t sizeBytes() const { return hasPayload() ? 8u : 4u; }
  CommandCode code() const { return info->code; }
};

// Where the stream bytes came from, for error messages.
struct StreamOrigin {
  std::string file;            // file that holds the stream
  uint64_t fileOffset = 0;     // byte offset of the stream's first command word in that file
};

// Limits an operation's addresses are checked against (bytes per region; 0 = unchecked).
struct RegionLimits {
  std::array<uint64_t, 8> size{};
  uint64_t shramBytes = 0;
  uint32_t cores = 1;                  // cores of the NPU the stream was compiled for
};

// Splits a stream into commands. Throws InputError (file, byte offset, command index) on an
// unknown opcode, invalid control bits, a truncated cmd1, a stream without NPU_OP_STOP, or
// bytes after the STOP.
std::vector<Command> parseCommands(const uint8_t* data, size_t size, const StreamOrigin& origin);

// The sticky register file of the command-stream registers (0x800..0xBFC).
class RegisterFile {
public:
  void apply(const Command& command);
  uint32_t read(uint16_t registerOffset) const;
  uint32_t read(CommandCode code) const { return read(commandInfo(code).registerOffset); }
  uint32_t readHigh(CommandCode code) const { return read(static_cast<uint16_t>(commandInfo(code).registerOffset + 4)); }

private:
  static constexpr uint16_t kFirst = 0x800;
  std::array<uint32_t, (0xC00 - kFirst) / 4> regs_{};
};

// Turns commands into one Operation per NPU_OP_*. Validates what each operation uses and
// throws InputError naming the command on impossible values or out-of-region addresses.
std::vector<Operation> decodeOperations(const std::vector<Command>& commands, const StreamOrigin& origin,
                                        const RegionLimits& limits);

// Snapshot of the register file as the operation `command` (an NPU_OP_*) sees it.
Operation snapshotOperation(const RegisterFile& regs, const Command& command);

} // namespace npusim::cmd
