// SPDX-License-Identifier: Apache-2.0
#pragma once
// Builds the SoC (Cortex-M55, Ethos-U55, memory system) for a network and configuration,
// runs it and collects the RunResult. SystemC allows one elaboration per process: call
// simulate() once per process.

#include <vector>

#include "models/mem/memory_timing.h"
#include "models/npu/npu_observer.h"
#include "sim/config/config.h"
#include "sim/config/system_params.h"
#include "sim/io/decoded_network.h"
#include "models/platform/run_result.h"

namespace npusim::npu {
class EthosU;
}
namespace npusim::mem {
class MemorySystem;
}

namespace npusim::platform {

// The configuration `request` asks for, for the accelerator the model was compiled for (its
// COP1 headers): the sections the compile names (requestForCompile: Vela's summary CSV beside the
// model, or its folder's name) where the request names none, else Vela's default sections for
// that accelerator; its AXI
// width and limits, a --vela-ini read as the Vela that compiled the model reads it unless the
// request says which. Naming another accelerator (--set accelerator=...) is an InputError.
config::SystemParams resolveForModel(config::ConfigRequest request, const io::CompiledNetwork& net);

// Refuses, before elaboration, a network whose simulation would take unreasonable time or
// memory, or leave the memory map: throws InputError naming the file and the command (or the
// operator) when the OFM blocks, MAC-model steps or AXI bursts of all operations together
// exceed npusim's budgets, when the simulated time could pass SystemC's range, or when a
// transfer would reach past its memory's address range or use a region without a tensor.
// simulate() calls it first.
void checkSimulationWork(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                         const config::SystemParams& params);

// Refuses a network whose command streams branch (BRANCH, U85 control flow): throws InputError
// naming the file and the command. simulate() calls it; so does every command that needs a
// stream's operations to run in stream order.
void refuseBranches(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded);

// Connects NPU port `port` of `npu` to the memory system (the platform binds them directly
// without one): a test puts a protocol checker between them. Called during elaboration.
class PortBinder {
public:
  virtual ~PortBinder() = default;
  virtual void bind(arch::PortId port, npu::EthosU& npu, mem::MemorySystem& memory) = 0;
};

// What a run reports as it happens (timeline traces, the invariant checker); null members see
// nothing.
struct RunObservers {
  npu::NpuObserver* npu = nullptr;                   // OFM blocks, command fetch waits
  std::vector<mem::BurstObserver*> ports;            // bursts of each NPU port (arch::PortId order)
  PortBinder* binder = nullptr;                      // how the NPU's ports reach the memory system
};

// Several RunObservers as one: every event goes to each of them, in the order they were added.
class ObserverFanout : public npu::NpuObserver {
public:
  void add(const RunObservers& observers);
  // The combined observers (valid while this object lives).
  RunObservers observers();
  void block(size_t record, const npu::BlockEvent& event) override;
  void commandFetchWait(double from, double to) override;

private:
  class Port : public mem::BurstObserver {
  public:
    void burst(const mem::BurstEvent& event) override;
    std::vector<mem::BurstObserver*> list;
  };
  std::vector<npu::NpuObserver*> npu_;
  std::vector<Port> ports_;
};

RunResult simulate(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                   const config::SystemParams& params, const RunObservers& observers = {});

} // namespace npusim::platform
