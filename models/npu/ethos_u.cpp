// SPDX-License-Identifier: Apache-2.0
#include "models/npu/ethos_u.h"

#include <cstring>
#include <stdexcept>

#include "models/mem/memory_system.h"

namespace npusim::npu {
namespace {

const arch::NpuConfig& checkedHardware(const NpuModuleParams& params) {
  if (params.hardware == nullptr) {
    throw std::logic_error("EthosU: no hardware configuration");
  }
  return *params.hardware;
}

// The registers' power-on values: the configuration's regions, command stream and port limits.
RegisterDefaults registerDefaults(const NpuModuleParams& params) {
  RegisterDefaults d;
  for (uint8_t r = 0; r < 8; ++r) {
    d.regionAreas[r] = params.regions.area(r);
  }
  d.commandStreamArea = params.commandStreamArea;
  for (const NpuPortParams& p : params.ports) {
    d.portLimits.push_back({p.link.maxBurstBytes, p.link.maxReads, p.link.maxWrites});
  }
  return d;
}

} // namespace

EthosU::EthosU(sc_core::sc_module_name name, const NpuModuleParams& params)
    : sc_module(name), ports("port"), apb("apb"), irq("irq"), params_(params),
      period_(sc_core::sc_time(1.0 / params.clockHz, sc_core::SC_SEC)), pmu_(checkedHardware(params)),
      registers_(*params.hardware, pmu_, registerDefaults(params)) {
  const std::vector<arch::PortDesc>& descs = params.hardware->ports();
  ports.init(descs.size(), [&descs](const char*, size_t i) {
    return new tlm_utils::simple_initiator_socket<EthosU>(std::string(descs[i].name).c_str());
  });
  burstObservers_.assign(descs.size(), nullptr);
  apb.register_b_transport(this, &EthosU::registerAccess);
  SC_THREAD(run);
  SC_METHOD(driveIrq);
  sensitive << irqUpdate_;
  dont_initialize();
}

const NpuStats& EthosU::stats() const {
  static const NpuStats none;
  return core_ != nullptr ? core_->stats() : none;
}

NpuCore& EthosU::core() {
  if (core_ != nullptr) {
    return *core_;
  }
  // Ask each port's target for npusim's memory timing (an ignorable extension on a debug
  // transport): npusim's memory system answers it, and the NPU then times its bursts against
  // those memories itself (the fast path); any other target leaves it empty, and the NPU sends
  // each burst through the socket with its data.
  mem::MemoryRouter* memories = nullptr;
  size_t answered = 0;
  for (size_t i = 0; i < ports.size(); ++i) {
    tlm::tlm_generic_payload trans;
    mem::DirectTimingExtension ext;
    trans.set_extension(&ext);
    trans.set_command(tlm::TLM_IGNORE_COMMAND);
    trans.set_data_length(0);
    ports[i]->transport_dbg(trans);
    trans.clear_extension(&ext);
    if (ext.memories != nullptr) {
      if (memories != nullptr && ext.memories != memories) {
        throw std::logic_error("EthosU: the ports reach two of npusim's memory systems");
      }
      memories = ext.memories;
      ++answered;
    }
  }
  if (answered != 0 && answered != ports.size()) {
    throw std::logic_error("EthosU: some ports are bound to npusim's memory system and some are not");
  }
  if (memories != nullptr) {
    core_ = std::make_unique<NpuCore>(params_, *memories, pmu_);
  } else {
    std::vector<mem::BurstTarget*> targets;
    for (size_t i = 0; i < ports.size(); ++i) {
      targets_.push_back(std::make_unique<SocketTarget>(ports[i], period_));
      targets.push_back(targets_.back().get());
    }
    core_ = std::make_unique<NpuCore>(params_, targets, pmu_);
  }
  core_->setObserver(observer_);
  for (size_t i = 0; i < burstObservers_.size(); ++i) {
    core_->setBurstObserver(arch::PortId{static_cast<uint8_t>(i)}, burstObservers_[i]);
  }
  configureCore();
  return *core_;
}

void EthosU::configureCore() {
  if (core_ == nullptr) {
    return;  // core() applies the registers when it builds the core
  }
  // REGIONCFG, QCONFIG (and MEM_ATTR) route the regions and the stream; a port takes its area's
  // AXI limit registers once the host has written one, else its configured limits.
  std::array<arch::AreaId, 8> areas{};
  for (uint8_t r = 0; r < 8; ++r) {
    areas[r] = registers_.regionArea(r);
  }
  core_->route(areas, registers_.commandStreamArea());
  for (size_t i = 0; i < params_.ports.size(); ++i) {
    const mem::AxiPortParams& link = params_.ports[i].link;
    const PortLimits limits = registers_.limits(params_.hardware->ports()[i].area)
                                  .value_or(PortLimits{link.maxBurstBytes, link.maxReads, link.maxWrites});
    core_->setLimits(arch::PortId{static_cast<uint8_t>(i)}, limits.burstBytes, limits.reads, limits.writes);
  }
}

void EthosU::registerAccess(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  // Whole 4-byte words, each at the register offset of its address.
  const unsigned int length = trans.get_data_length();
  unsigned char* data = trans.get_data_ptr();
  if (data == nullptr) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  if (length == 0 || length % 4 != 0 || trans.get_byte_enable_ptr() != nullptr || trans.get_streaming_width() < length) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  const double t = (sc_core::sc_time_stamp() + delay) / period_;
  for (unsigned int i = 0; i < length; i += 4) {
    const uint64_t address = trans.get_address() + i;
    const uint32_t offset = address > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(address);
    if (trans.is_write()) {
      uint32_t value = 0;
      std::memcpy(&value, data + i, 4);
      const std::optional<NpuRegisters::Request> request = registers_.write(offset, value, t);
      if (!request) {
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
      }
      apply(*request, t);
      if (request->start) {
        start_.notify(delay);
      }
    } else if (trans.is_read()) {
      const std::optional<uint32_t> value = registers_.read(offset, t);
      if (!value) {
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
      }
      std::memcpy(data + i, &*value, 4);
    }
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void EthosU::apply(const NpuRegisters::Request& request, double now) {
  if (request.reset) {
    if (busy_) {
      throw std::logic_error("EthosU: a soft reset while the NPU runs is not modelled");
    }
    for (const auto& target : targets_) {
      target->clearFault();
    }
    faultMessage_.clear();
  }
  if (request.start) {
    registers_.started();
  }
  if (request.routing || request.limits) {
    configureCore();
  }
  if (request.pmuEnable) {
    pmu_.setEnabled(registers_.pmuEnabled(), now);
  }
  irqUpdate_.notify(sc_core::SC_ZERO_TIME);
}

void EthosU::shutdown() {
  stopping_ = true;
  shutdown_.notify(sc_core::SC_ZERO_TIME);
}

void EthosU::waitUntil(double t) {
  if (t > now()) {
    wait(period_ * (t - now()));
  }
}

void EthosU::run() {
  for (;;) {
    wait(start_ | shutdown_);
    if (stopping_) {
      return;
    }
    NpuCore& c = core();
    const uint64_t qbase = registers_.qbase();
    const uint32_t qsize = registers_.qsize();
    std::array<uint64_t, 8> basep{};
    for (uint8_t r = 0; r < 8; ++r) {
      basep[r] = registers_.basep(r);
    }
    busy_ = true;
    pmu_.streamStarted(now());
    StreamOutcome outcome;
    if (c.movesData()) {
      outcome = c.runFromMemory(qbase, qsize, basep, now(), invocation_++);
    } else {
      const NpuProgram* loaded = nullptr;
      for (const NpuProgram& p : programs_) {
        if (p.qbase == qbase) {
          loaded = &p;
        }
      }
      if (loaded == nullptr || loaded->program->streamBytes() != qsize) {
        throw std::logic_error("NPU started with QBASE/QSIZE that match no loaded command stream");
      }
      outcome = c.run(*loaded->program, qbase, basep, now(), invocation_++);
    }
    // The stream ran on the NPU's own event queue, ahead of SystemC's time: the module lets the
    // time catch up, raising the interrupt of each NPU_OP_IRQ at its time and the last one at the
    // stream's end (or where a fault stopped it).
    for (const StreamOutcome::Interrupt& i : outcome.interrupts) {
      waitUntil(i.at);
      registers_.interrupt(i.mask, false);
      irqUpdate_.notify(sc_core::SC_ZERO_TIME);
    }
    waitUntil(outcome.end);
    registers_.setQread(outcome.parsed);
    if (outcome.stopped) {
      registers_.interrupt(outcome.stopMask, true);
    } else {
      faultMessage_ = outcome.why;
      if (outcome.parseError) {
        registers_.parseError();
      } else {
        // The faulting channel: the command stream's fetch, else an operation's read (1, IFM).
        registers_.busFault(outcome.parsed == 0 ? 0 : 1);
        for (const auto& target : targets_) {
          if (target->fault()) {
            faultMessage_ = "bus abort: " +
                            std::string(target->fault()->status == tlm::TLM_ADDRESS_ERROR_RESPONSE ? "address error"
                                                                                                  : "error response") +
                            " at address " + std::to_string(target->fault()->address);
          }
        }
      }
      SC_REPORT_WARNING("npusim/ethos_u", faultMessage_.c_str());
    }
    busy_ = false;
    irqUpdate_.notify(sc_core::SC_ZERO_TIME);
  }
}

void EthosU::driveIrq() { irq.write(registers_.irqRaised()); }

} // namespace npusim::npu
