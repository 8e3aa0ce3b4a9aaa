// SPDX-License-Identifier: Apache-2.0
#pragma once
// Command sets: per architecture, the table from a command's wire key (cmd0/cmd1 opcode) to
// what it means (a CommandId: which operation it starts or which register it writes) and its
// name. The meaning is not the key: the Ethos-U85 reuses numbers with other meanings
// (ethos-u85.md 3.5), so decoders look registers up by meaning in the stream's command set.
// Plain C++.

#include <array>
#include <cstdint>
#include <map>
#include <string_view>
#include <vector>

namespace npusim::arch {

// What a command means, across architectures. Values are dense (an index into per-meaning
// arrays), not wire keys; an architecture's command set defines the meanings it has. A meaning
// two generations share keeps one value where the key or the name differs (OpaScale is the
// U55's NPU_SET_OPA_SCALE and the U85's NPU_SET_IFM_SCALE).
enum class CommandId : uint16_t {
  // Operations (NPU_OP_*; BRANCH is a cmd1 operation).
  OpStop, OpIrq, OpConv, OpDepthwise, OpPool, OpElementwise, OpDmaStart, OpDmaWait, OpKernelWait, OpPmuMask,
  OpResize, OpBranch,
  // Registers written by cmd0 commands (16-bit parameter).
  IfmPadTop, IfmPadLeft, IfmPadRight, IfmPadBottom, IfmDepthM1, IfmPrecision, IfmUpscale, IfmZeroPoint,
  IfmWidth0M1, IfmHeight0M1, IfmHeight1M1, IfmIbEnd, IfmRegion, OfmWidthM1, OfmHeightM1, OfmDepthM1,
  OfmPrecision, OfmBlkWidthM1, OfmBlkHeightM1, OfmBlkDepthM1, OfmZeroPoint, OfmWidth0M1, OfmHeight0M1,
  OfmHeight1M1, OfmRegion, KernelWidthM1, KernelHeightM1, KernelStride, ParallelMode, AccFormat, Activation,
  ActivationMin, ActivationMax, WeightRegion, ScaleRegion, AbStart, Blockdep, Dma0SrcRegion, Dma0DstRegion,
  Dma0Size0, Dma0Size1, Ifm2Broadcast, Ifm2Scalar, Ifm2Precision, Ifm2ZeroPoint, Ifm2Width0M1, Ifm2Height0M1,
  Ifm2Height1M1, Ifm2IbStart, Ifm2Region,
  IfmBroadcast, ResizeXScaleNM1, ResizeYScaleNM1, ResizeXOffset, ResizeYOffset, WeightFormat, Dma0IdxRegion,
  // Registers written by cmd1 commands (32-bit payload; the parameter extends addresses or holds a shift).
  IfmBase0, IfmBase1, IfmBase2, IfmBase3, IfmStrideX, IfmStrideY, IfmStrideC,
  OfmBase0, OfmBase1, OfmBase2, OfmBase3, OfmStrideX, OfmStrideY, OfmStrideC,
  WeightBase, WeightLength, ScaleBase, ScaleLength, OfmScale, OpaScale, OpbScale,
  Dma0Src, Dma0Dst, Dma0Len, Dma0Skip0, Dma0Skip1,
  Ifm2Base0, Ifm2Base1, Ifm2Base2, Ifm2Base3, Ifm2StrideX, Ifm2StrideY, Ifm2StrideC,
  Weight1Base, Weight1Length, Scale1Base, Scale1Length,
  OpScalar, Dma0SrcStride0, Dma0SrcStride1, Dma0DstStride0, Dma0DstStride1, Dma0Idx, Dma0IdxMax, Dma0IdxSkip1,
  Weight2Base, Weight2Length, Weight3Base, Weight3Length, ResizeXStep, ResizeYStep,
  UserDefined0, UserDefined1, UserDefined2, UserDefined3, UserDefined4, UserDefined5, UserDefined6, UserDefined7,
  Count_ // number of meanings (not a command)
};
constexpr size_t kCommandIdCount = static_cast<size_t>(CommandId::Count_);

// Wire key = word0 & 0xFFFF = control << 14 | opcode: cmd0 keys are < 0x4000, cmd1 keys have
// bit 14 set and carry a payload word.
constexpr uint16_t kCmd1Flag = 0x4000;
inline bool isCmd1(uint16_t key) { return (key & kCmd1Flag) != 0; }

// One field of a command as the architecture's register interface defines it (what Vela 5.0's
// register listing prints): `width` bits from bit `lsb` of the command as a 64-bit value (bits
// 16-31 the parameter, 32-63 a cmd1's payload).
struct CommandField {
  enum class Kind : uint8_t {
    Unsigned,  // decimal
    Signed,    // decimal, the field sign-extended (see command_fields.cpp for Vela's 32-bit rule)
    Named,     // the value's name in `names` ("****" past the list or for an empty name)
    Address,   // hexadecimal: the payload with the parameter's low 8 bits above it (40 bits)
  };
  std::string_view name;
  uint8_t lsb = 16, width = 16;
  Kind kind = Kind::Unsigned;
  const std::vector<std::string_view>* names = nullptr;  // Named
};
using FieldList = std::vector<CommandField>;

// One command of a command set.
struct CommandInfo {
  CommandId id;
  uint16_t key;            // wire key
  std::string_view name;   // Vela's name without the cmd0./cmd1. prefix
  bool isOperation;        // starts an operation (else writes a register; a cmd1 operation's payload is an operand)
  const FieldList* fields = nullptr;  // its fields (the set's field table), null when it has none
};

// The architecture-owned mapping wire key <-> meaning <-> name.
class CommandSet {
public:
  // Which decoder reads streams of this set (the register semantics it applies).
  enum class Format : uint8_t { EthosU55, EthosU85 };

  // Contract: `commands` sorted by key, keys and meanings unique; `fields` only for meanings the
  // set has.
  CommandSet(std::string_view name, Format format, std::vector<CommandInfo> commands,
             std::map<CommandId, FieldList> fields = {});
  CommandSet(const CommandSet&) = delete;   // its commands point into its field table
  CommandSet& operator=(const CommandSet&) = delete;

  std::string_view name() const { return name_; }
  Format format() const { return format_; }
  // The command with wire key `key`, or null for a key this architecture does not define.
  const CommandInfo* find(uint16_t key) const;
  // The command meaning `id`, or null when this architecture has no such command.
  const CommandInfo* find(CommandId id) const;
  // The command meaning `id`; std::logic_error when the architecture has none (a caller that
  // programs or reads a register its architecture lacks).
  const CommandInfo& info(CommandId id) const;
  // Every command in key order (cmd0 first).
  const std::vector<CommandInfo>& commands() const { return commands_; }

private:
  static constexpr int16_t kNone = -1;
  std::string_view name_;
  Format format_;
  std::vector<CommandInfo> commands_;
  std::map<CommandId, FieldList> fields_;
  std::array<int16_t, 2 * 0x400> byKey_{};        // (cmd1 ? 0x400 : 0) + opcode -> index, or kNone
  std::array<int16_t, kCommandIdCount> byId_{};   // meaning -> index, or kNone
};

// The registers of one feature map (IFM, IFM2 or OFM), by meaning: decoders and encoders walk
// them without arithmetic on wire keys.
struct FeatureMapRegisters {
  std::array<CommandId, 4> base;      // tile base addresses
  CommandId strideX, strideY, strideC;
  CommandId width0, height0, height1; // tile split
  CommandId region, zeroPoint, precision;
};
constexpr FeatureMapRegisters kIfmRegisters{
    {CommandId::IfmBase0, CommandId::IfmBase1, CommandId::IfmBase2, CommandId::IfmBase3},
    CommandId::IfmStrideX, CommandId::IfmStrideY, CommandId::IfmStrideC,
    CommandId::IfmWidth0M1, CommandId::IfmHeight0M1, CommandId::IfmHeight1M1,
    CommandId::IfmRegion, CommandId::IfmZeroPoint, CommandId::IfmPrecision};
constexpr FeatureMapRegisters kIfm2Registers{
    {CommandId::Ifm2Base0, CommandId::Ifm2Base1, CommandId::Ifm2Base2, CommandId::Ifm2Base3},
    CommandId::Ifm2StrideX, CommandId::Ifm2StrideY, CommandId::Ifm2StrideC,
    CommandId::Ifm2Width0M1, CommandId::Ifm2Height0M1, CommandId::Ifm2Height1M1,
    CommandId::Ifm2Region, CommandId::Ifm2ZeroPoint, CommandId::Ifm2Precision};
constexpr FeatureMapRegisters kOfmRegisters{
    {CommandId::OfmBase0, CommandId::OfmBase1, CommandId::OfmBase2, CommandId::OfmBase3},
    CommandId::OfmStrideX, CommandId::OfmStrideY, CommandId::OfmStrideC,
    CommandId::OfmWidth0M1, CommandId::OfmHeight0M1, CommandId::OfmHeight1M1,
    CommandId::OfmRegion, CommandId::OfmZeroPoint, CommandId::OfmPrecision};

// The command set of the Ethos-U55 and U65 (architecture 1.x).
const CommandSet& ethosU55CommandSet();
// The command set of the Ethos-U85 (architecture 2.x).
const CommandSet& ethosU85CommandSet();

} // namespace npusim::arch
