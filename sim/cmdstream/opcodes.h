// SPDX-License-Identifier: Apache-2.0
#pragma once
// Ethos-U55 command opcodes: every cmd0/cmd1 code with its Vela name and register offset.

#include <cstdint>
#include <string_view>

namespace npusim::cmd {

// Command key = word0 & 0xFFFF = control << 14 | opcode. cmd0 keys are < 0x4000, cmd1 keys
// have bit 14 set.
enum class CommandCode : uint16_t {
  // cmd0 operations
  OpStop = 0x000, OpIrq = 0x001, OpConv = 0x002, OpDepthwise = 0x003, OpPool = 0x005,
  OpElementwise = 0x006, OpDmaStart = 0x010, OpDmaWait = 0x011, OpKernelWait = 0x012,
  OpPmuMask = 0x013,
  // cmd0 register writes
  IfmPadTop = 0x100, IfmPadLeft = 0x101, IfmPadRight = 0x102, IfmPadBottom = 0x103,
  IfmDepthM1 = 0x104, IfmPrecision = 0x105, IfmUpscale = 0x107, IfmZeroPoint = 0x109,
  IfmWidth0M1 = 0x10A, IfmHeight0M1 = 0x10B, IfmHeight1M1 = 0x10C, IfmIbEnd = 0x10D,
  IfmRegion = 0x10F, OfmWidthM1 = 0x111, OfmHeightM1 = 0x112, OfmDepthM1 = 0x113,
  OfmPrecision = 0x114, OfmBlkWidthM1 = 0x115, OfmBlkHeightM1 = 0x116, OfmBlkDepthM1 = 0x117,
  OfmZeroPoint = 0x118, OfmWidth0M1 = 0x11A, OfmHeight0M1 = 0x11B, OfmHeight1M1 = 0x11C,
  OfmRegion = 0x11F, KernelWidthM1 = 0x120, KernelHeightM1 = 0x121, KernelStride = 0x122,
  ParallelMode = 0x123, AccFormat = 0x124, Activation = 0x125, ActivationMin = 0x126,
  ActivationMax = 0x127, WeightRegion = 0x128, ScaleRegion = 0x129, AbStart = 0x12D,
  Blockdep = 0x12F, Dma0SrcRegion = 0x130, Dma0DstRegion = 0x131, Dma0Size0 = 0x132,
  Dma0Size1 = 0x133, Ifm2Broadcast = 0x180, Ifm2Scalar = 0x181, Ifm2Precision = 0x185,
  Ifm2ZeroPoint = 0x189, Ifm2Width0M1 = 0x18A, Ifm2Height0M1 = 0x18B, Ifm2Height1M1 = 0x18C,
  Ifm2IbStart = 0x18D, Ifm2Region = 0x18F,
  // cmd1 register writes (payload word follows)
  IfmBase0 = 0x4000, IfmBase1 = 0x4001, IfmBase2 = 0x4002, IfmBase3 = 0x4003,
  IfmStrideX = 0x4004, IfmStrideY = 0x4005, IfmStrideC = 0x4006,
  OfmBase0 = 0x4010, OfmBase1 = 0x4011, OfmBase2 = 0x4012, OfmBase3 = 0x4013,
  OfmStrideX = 0x4014, OfmStrideY = 0x4015, OfmStrideC = 0x4016,
  WeightBase = 0x4020, WeightLength = 0x4021, ScaleBase = 0x4022, ScaleLength = 0x4023,
  OfmScale = 0x4024, OpaScale = 0x4025, OpbScale = 0x4026,
  Dma0Src = 0x4030, Dma0Dst = 0x4031, Dma0Len = 0x4032, Dma0Skip0 = 0x4033, Dma0Skip1 = 0x4034,
  Ifm2Base0 = 0x4080, Ifm2Base1 = 0x4081, Ifm2Base2 = 0x4082, Ifm2Base3 = 0x4083,
  Ifm2StrideX = 0x4084, Ifm2StrideY = 0x4085, Ifm2StrideC = 0x4086,
  Weight1Base = 0x4090, Weight1Length = 0x4091, Scale1Base = 0x4092, Scale1Length = 0x4093,
  UserDefined0 = 0x40A0, UserDefined1 = 0x40A1, UserDefined2 = 0x40A2, UserDefined3 = 0x40A3,
  UserDefined4 = 0x40A4, UserDefined5 = 0x40A5, UserDefined6 = 0x40A6, UserDefined7 = 0x40A7,
};

// Static facts about one command code.
struct CommandInfo {
  CommandCode code;
  std::string_view name;   // Vela's enum name without the cmd0./cmd1. prefix
  bool isOperation;        // an NPU_OP_* (cmd0 only)
  uint16_t registerOffset; // byte offset of the register it writes (0 for operations)
};

constexpr uint16_t kCmd1Flag = 0x4000;

inline bool isCmd1(uint16_t key) { return (key & kCmd1Flag) != 0; }

// The table entry for a command key, or nullptr for an opcode the U55 does not define.
const CommandInfo* findCommand(uint16_t key);

// Every defined command, in opcode order (cmd0 first).
const CommandInfo* commandTableBegin();
const CommandInfo* commandTableEnd();

inline const CommandInfo& commandInfo(CommandCode code) { return *findCommand(static_cast<uint16_t>(code)); }

} // namespace npusim::cmd
