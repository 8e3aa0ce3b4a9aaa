// SPDX-License-Identifier: Apache-2.0
#pragma once
// Architecture descriptions: what one Ethos-U generation (U55, U65, U85) is, as data — product
// number, command set, weight formats, AXI ports, buffer model, weight streams, PMU events,
// Vela's default sections, queue depths and the command processor's and DMA engine's sizes.
// Every configuration of the generation (sim/arch/npu_config.h) refers to its description;
// shared code reads a fact here instead of asking which generation it runs. Plain C++.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/arch/regions.h"

namespace npusim::arch {

class CommandSet;

// An AXI manager port of the NPU: an index into its architecture's port list.
struct PortId {
  uint8_t index = 0;
  constexpr bool operator==(PortId other) const { return index == other.index; }
  constexpr bool operator!=(PortId other) const { return index != other.index; }
};

// One AXI manager port (timing doc 5.1; ethos-u85.md 1.3).
struct PortDesc {
  std::string_view name;          // lower case as reports print it ("axi0"); PMU events use it upper case
  uint32_t dataBits = 64;         // data width
  uint32_t maxReads = 0;          // AXI_LIMIT maximum outstanding reads (the driver's default)
  uint32_t maxWrites = 0;         // AXI_LIMIT maximum outstanding writes (the driver's default)
  // Outstanding limits when no system configuration sets them: npu.<port>.max_outstanding_* defaults.
  uint32_t defaultReads = 0;
  uint32_t defaultWrites = 0;
  AreaId area;                    // the Vela memory area (Axi0, Axi1) whose memory the port reaches
  uint16_t pmuEventBase = 0;      // number of its first per-port PMU event (PmuDesc::portEvents)
  // The PMU's name of the port group it belongs to ("SRAM": events counting every SRAM port,
  // SRAM_RD_DATA_BEAT_RECEIVED), empty where the PMU has no group events (U55, U65).
  std::string_view pmuGroup;
};

// Where the NPU keeps IFM, weights and accumulators: one shared SHRAM the command stream lays out
// (U55, U65: IB_END, AB_START, IFM2_IB_START), or separate internal buffers (U85: IB, AB, OB, CB).
enum class BufferModel : uint8_t { Shram, InternalBuffers };

// Which cost rules the MAC array and the output unit follow: the 1.x generations' (U55, U65:
// timing doc 1.2, 3.3, 4.1) or the 2.x generation's (U85: ethos-u85.md 1.1, 5.2, 5.3).
enum class CostRules : uint8_t { Ethos1x, Ethos2x };

// Encoded weight formats: the standard compressed stream (mlw, "SWD"), and the U85's fast weight
// decoder format ("FWD", ethos-u85.md 4.3).
enum class WeightFormat : uint8_t { Standard, Fast };

// How the weight encoder lays an operation's weights out in streams (cmd::brickOrder).
// Bricks (Ethos-U55/U65): the OFM channels are dealt to the cores (c, c + cores, ...), each core
// with its own scale and weight stream in the brick order of ethos-u55-command-stream.md.
// DecoderGroups (Ethos-U85, ethos-u85.md 4.1-4.3): one scale stream; every weight decoder walks
// the same OFM blocks and takes groups of 4 channels of each OFM micro-block.
enum class WeightOrder : uint8_t { Bricks, DecoderGroups };

// One field of a register word (the CONFIG register, a COP1 header's CONFIG word, a host or PMU
// register): `width` bits from bit `lsb`; width 0 for a field the generation's register does not
// have.
struct ConfigField {
  uint8_t lsb = 0, width = 0;
  bool present() const { return width > 0; }
  uint32_t read(uint32_t word) const { return present() ? (word >> lsb) & ((1u << width) - 1) : 0; }
  uint32_t place(uint32_t value) const { return present() ? (value & ((1u << width) - 1)) << lsb : 0; }
};

// The PMU's registers other than PMCR (command-stream doc 7-8; ethos-u85.md 6), the same layout
// from PMCR on in both generations: counter enable set/clear, overflow set/clear, overflow
// interrupt set/clear (bits 0..eventCounters-1 the event counters, `cycleCounterBit` the cycle
// counter), the 48-bit cycle counter (low word, high word 4 bytes on), its start/stop events, the
// AXI channel filter, and the event counters and their event types, 4 bytes apart.
struct PmuRegisters {
  uint32_t countEnableSet = 0, countEnableClear = 0, overflowSet = 0, overflowClear = 0, interruptSet = 0,
           interruptClear = 0, cycleCounter = 0, cycleCounterConfig = 0, axiChannel = 0;
  uint32_t eventCounter = 0;                  // PMEVCNTR0
  uint32_t eventType = 0;                     // PMEVTYPER0
  ConfigField enable{0, 1};                   // PMCR: count
  ConfigField resetEvents{1, 1};              // PMCR: write 1 to clear the event counters
  ConfigField resetCycles{2, 1};              // PMCR: write 1 to clear the cycle counter
  ConfigField counterCount{11, 5};            // PMCR: the number of event counters (read only)
  ConfigField event{0, 10};                   // PMEVTYPER: the event number
  uint32_t cycleCounterBit = 31;
  uint32_t cycleCounterBits = 48;
};

// One PMU event: the driver's name and the hardware event number (PMEVTYPER).
struct PmuEvent {
  std::string_view name;
  uint16_t number = 0;
};

// The PMU: its event counters and events. Per-port events exist once per AXI port, named by the
// port's name in upper case, '_' and the suffix, and numbered from the port's base
// (PortDesc::pmuEventBase); a port group's events (PortDesc::pmuGroup) are in `events`.
struct PmuDesc {
  uint32_t controlRegister = 0;               // register offset of PMCR, whose bit 0 enables counting
  uint32_t eventCounters = 0;                 // PMEVCNTR registers (PMCR [15:11])
  PmuRegisters registers;                     // the other PMU registers
  std::vector<PmuEvent> events;               // events that are not per port
  std::vector<PmuEvent> portEvents;           // per-port events: suffix and offset from the port's base
  // The event counting the MAC array's cycles waiting for decoded weights (U55/U65
  // MAC_STALLED_BY_WD, U85 MAC_STALLED_BY_W).
  std::string_view macStalledByWeights = "MAC_STALLED_BY_WD";
};

// The CONFIG register's layout (command-stream doc 8; ethos-u85.md 2.2): which fields a
// generation's CONFIG word has and where. Counts are log2 where the field says so.
struct ConfigWordLayout {
  ConfigField log2Macs{0, 4};            // MACs per cycle, all cores
  ConfigField streamVersion{4, 4};       // command-stream version
  ConfigField shramKb;                   // SHRAM size in KiB (architecture 1.x)
  ConfigField log2SramPorts;             // AXI SRAM ports (architecture 2.x)
  ConfigField log2ExtPorts;              // AXI EXT ports (architecture 2.x)
  ConfigField log2WeightDecoders;        // weight decoders (architecture 2.x)
  ConfigField customDma{27, 1};          // the stream needs custom DMA
  ConfigField product{28, 4};            // 0 U55, 1 U65, 2 U85
};

// One AXI limit register: the burst split and outstanding transactions of the ports that reach
// `area`. 1.x: AXI_LIMIT0-3, one per memory attribute (0 and 1 on AXI0, 2 and 3 on AXI1); 2.x:
// AXI_SRAM and AXI_EXT, one per port group (command-stream doc 8; ethos-u85.md 1.3).
struct AxiLimitRegister {
  uint32_t offset = 0;
  AreaId area;
  ConfigField maxBeats;            // burst split: 64 << value bytes (0: 64, 1: 128, 2: 256)
  ConfigField readsM1;             // outstanding reads - 1
  ConfigField writesM1;            // outstanding writes - 1
};

// The four memory attributes a region (REGIONCFG, 2 bits per region) or the command stream
// (QCONFIG [1:0]) selects, and the area (port group) each reaches. 1.x: fixed, attributes 0 and 1
// on AXI0, 2 and 3 on AXI1; 2.x: the registers MEM_ATTR0-3, whose field `area` selects the SRAM
// (0) or the EXT (1) ports (ethos-u85.md 3.6).
struct MemoryAttributes {
  uint32_t offset = 0;                   // MEM_ATTR0, the others 4 bytes apart; 0: fixed by the hardware
  ConfigField area;                      // a MEM_ATTR register's port-group field
  std::array<AreaId, 4> areas{};         // each attribute's area: the hardware's (1.x), the driver's defaults (2.x)
  // The driver's defaults: the attribute of each region (NPU_REGIONCFG_n) and of the command
  // stream (NPU_QCONFIG) [D].
  std::array<uint8_t, 8> driverRegions{3, 0, 1, 1, 1, 1, 1, 1};
  uint8_t driverCommandStream = 2;
};

// STATUS, CMD and RESET fields (the same in both generations: command-stream doc 8; ethos-u85.md 3.6).
struct StatusFields {
  ConfigField running{0, 1}, irqRaised{1, 1}, busStatus{2, 1}, resetStatus{3, 1}, cmdParseError{4, 1},
      cmdEndReached{5, 1}, faultingInterface{11, 1}, faultingChannel{12, 4}, irqHistory{16, 16};
};
struct CommandFields {
  ConfigField start{0, 1}, clearIrq{1, 1}, clockQ{2, 1}, powerQ{3, 1}, stopRequest{4, 1}, clearIrqHistory{16, 16};
};
struct ResetFields {
  ConfigField privilege{0, 1}, security{1, 1};   // what PROT reports after the reset
};

// The registers the Ethos-U core driver programs and reads (command-stream doc 8; ethos-u85.md
// 3.6): their offsets, the ID register's value, the AXI limits, the memory attributes and the
// fields of STATUS, CMD, RESET and REGIONCFG. QBASE and the base pointers are 64-bit registers,
// low word first (BASEPn at `basep` + 8 n).
struct HostRegisterMap {
  uint32_t id = 0, status = 0, cmd = 0, reset = 0, qbase = 0, qread = 0, qconfig = 0, qsize = 0, prot = 0, config = 0,
           regioncfg = 0, basep = 0;
  uint32_t basepCount = 8;
  uint32_t addressBits = 32;             // U55 32, U65 and U85 40: the driver writes the high words of QBASE and BASEPn
  uint32_t idValue = 0;                  // the ID register (the driver's interface header's reset value)
  std::vector<AxiLimitRegister> axiLimits;
  MemoryAttributes memoryAttributes;
  StatusFields statusBits;
  CommandFields cmdBits;
  ResetFields resetBits;
  ConfigField regionAttribute{0, 2};     // REGIONCFG: region n's attribute, 2 bits at 2 n; QCONFIG [1:0]
  uint32_t size = 0;                     // the register block's size: accesses past it are address errors
};

// One NPU generation.
struct Architecture {
  std::string_view name;                 // "Ethos-U55"
  uint32_t product = 0;                  // COP1 CONFIG [31:28] (the CONFIG register's product field)
  bool loadable = false;                 // npusim reads its models (false: recognised, refused in one line)
  uint32_t archMajor = 1;                // ID word [31:28] of the streams Vela compiles for it
  uint32_t velaIdWord = 0;               // the ID word Vela writes (command-stream builder)
  uint32_t commandStreamVersion = 0;     // CONFIG [7:4] the streams carry
  ConfigWordLayout configWord;           // the CONFIG register's fields
  HostRegisterMap registers;             // the host-visible registers the driver programs
  const CommandSet* commands = nullptr;  // wire keys <-> meanings and names; null while not described
  std::vector<WeightFormat> weightFormats;
  std::vector<PortDesc> ports;           // PortId indexes this list
  BufferModel buffers = BufferModel::Shram;
  CostRules costRules = CostRules::Ethos1x;
  std::string_view dmaInternalMemory;    // what a DMA in internal mode writes, as Vela names it ("shram", "lutram")
  uint32_t maxWeightStreams = 1;         // weight streams one operation reads (per core or weight decoder)
  uint32_t maxScaleStreams = 1;          // scale/bias streams one operation reads
  std::string_view weightStreamOwner;    // what each weight stream feeds, for messages ("core")
  PmuDesc pmu;
  std::string_view defaultSystemConfig;  // Vela's internal default System_Config and Memory_Mode
  std::string_view defaultMemoryMode;
  // The host CPU of Arm's reference platform for this NPU, which the host model stands for: the
  // Corstone-300's Cortex-M55 (U55, U65), the Corstone-320's Cortex-M85 (U85).
  std::string_view hostCpu;
  // Command processor and DMA engine (timing doc 5.2, docs/timing-model.md).
  uint32_t kernelQueue = 2;              // kernel operations outstanding (running + latched)
  uint32_t dmaQueue = 1;                 // DMA operations outstanding
  // Whether the parser dispatches nothing (kernel or DMA) while the kernel it dispatched last has
  // not started (its first block's IFM fetch, the operation's start in every report): the kernel
  // queue latches one operation and the parser holds until the kernel unit takes it (U85), or it
  // goes on to the next command at once (U55, U65). docs/timing-model.md has the FVP evidence.
  bool dispatchWaitsForKernelStart = false;
  uint32_t commandFetchBytes = 64;       // command-stream fetch burst (AXI_LIMIT default burst split)
  uint32_t commandPrefetchChunks = 2;    // fetch chunks the command FIFO requests ahead of the parser
  double parseCyclesPerCommand = 1;      // one command word decoded per cycle
  uint32_t dmaChunkBytes = 256;          // DMA engine buffer: bytes read, then written, per step
  // A DMA engine whose buffer streams (U85) reads this many bytes whenever that much of the buffer
  // is free and writes each out when it arrives; 0: the whole buffer is read, then written.
  uint32_t dmaStreamBytes = 0;
  uint32_t weightWindowBytes = 1024;     // one core's weight stream: bytes requested ahead of the decoder
  // Whether the cores' weight streams are fetched as one stream, each block's slices in stream
  // order (U55/U65: one weight-fetch path, the U65-512's second core's slice after the first's),
  // or each weight decoder reads its own stream beside the others (U85).
  bool weightStreamsInOrder = false;
  // Whether the MAC array starts an OFM block on its first weights and takes the rest as they come
  // (U85: the weight decoders stream into the array), or waits for the block's weights to be in the
  // weight buffer (U55, U65). docs/timing-model.md has the FVP evidence for each.
  bool macStreamsWeights = false;
  // Whether an operation's weight streams are opened one after another at its first block, each
  // decoder's first request once the previous decoder's first word is in (U85), or all at once
  // (U55, U65). docs/timing-model.md has the FVP evidence.
  bool weightStreamsStaggered = false;
  // Whether an operation's blocks fetch their weights one block per port of the weights' region
  // at a time, a block's slices requested once those of the block as many blocks back are all in
  // (U85: with its one EXT port on 128-512 MACs, block after block), or as soon as a weight buffer
  // is free (U55, U65). docs/timing-model.md has the FVP evidence.
  bool weightBlockPerPort = false;
  // Whether an operation with BLOCKDEP 0 starts its weight and scale fetch only once the previous
  // operation's output unit has drained its last accumulators (U85: nothing of the operation
  // starts before then), or as soon as it is dispatched and a weight buffer is free (U55, U65:
  // the weights do not depend on the previous operation's output). docs/timing-model.md has the
  // FVP evidence.
  bool weightsWaitOnBlockdepZero = false;
  // Whether the MAC array starts a kernel's OFM block on the first word of its IFM window and
  // takes the rest as it comes, ending no earlier than the last (U85: the IFM streams through the
  // input buffer), or waits for the whole window in its IFM buffer (U55, U65: the SHRAM's IFM
  // area holds whole blocks). docs/timing-model.md has the FVP evidence.
  bool macStreamsIfm = false;
  // Whether each of a core's two weight buffers is filled by a fetch of its own, weightWindowBytes
  // ahead, the older buffer's first (U55, U65), or the decoder's whole stream shares one window
  // (U85: the weight channel's read buffer). docs/timing-model.md has the FVP evidence.
  bool weightWindowPerBuffer = true;
  // Weights decoded per cycle: by each weight decoder from its standard-format stream, and by the
  // decoders together from the fast format's single stream (0: not modelled; the U55 and U65's is
  // not known). docs/timing-model.md has the FVP evidence for the U85's.
  double weightsDecodedPerCycle = 0, fastWeightsDecodedPerCycle = 0;
  uint32_t ifmBufferBlocks = 2;          // IFM blocks the SHRAM IFM area holds (double buffer, timing doc 4.2)
  // MAC array and encoders.
  uint32_t subKernelMax = 8;             // largest sub-kernel side; bigger kernels are decomposed
  uint32_t ifmUblockDepth = 8;           // IFM micro-block depth: channels per MAC step
  uint32_t scaleBytesPerChannel = 10;    // one OFM channel's packed bias, scale and shift
  WeightOrder weightOrder = WeightOrder::Bricks;

  const PortDesc& port(PortId id) const { return ports.at(id.index); }
  bool hasWeightFormat(WeightFormat format) const;
  // The PMU event `name`, and the name of port `port`'s event `suffix`
  // ("AXI0_RD_DATA_BEAT_RECEIVED"). Contract: the event exists on this architecture
  // (std::logic_error otherwise: a model counts an event its hardware does not have).
  const PmuEvent& pmuEvent(std::string_view name) const;
  std::string pmuPortEventName(const PortDesc& port, std::string_view suffix) const;
  // The name of port group `group`'s event `suffix` ("SRAM_RD_DATA_BEAT_RECEIVED"), or empty when
  // the PMU has no such event.
  std::string pmuGroupEventName(std::string_view group, std::string_view suffix) const;
  // The name of the event numbered `number` (PMEVTYPER) on a configuration with the ports
  // `ports`, or empty when it has none.
  std::string pmuEventName(uint32_t number, const std::vector<PortDesc>& ports) const;
};

// The REGIONCFG word that sends region r to area areas[r], and the QCONFIG word that sends the
// command stream to `area`: each on the driver's default memory attribute where that reaches the
// area, else on the first attribute that does (the fixed attributes of 1.x, the driver's MEM_ATTR
// values of 2.x). Contract: an attribute reaches each area (std::logic_error otherwise).
uint32_t regionConfigWord(const HostRegisterMap& map, const std::array<AreaId, 8>& areas);
uint32_t queueConfigWord(const HostRegisterMap& map, AreaId area);

// Every described generation, U55, U65, U85.
const std::vector<Architecture>& architectures();
// The generation a COP1 CONFIG word's product field names, or null.
const Architecture* findArchitecture(uint32_t product);
const Architecture& ethosU55();
const Architecture& ethosU65();
const Architecture& ethosU85();
// "0 (Ethos-U55), 1 (Ethos-U65), 2 (Ethos-U85)": the products npusim reads, for messages.
std::string loadableProducts();

} // namespace npusim::arch
