// SPDX-License-Identifier: Apache-2.0
#include "models/npu/ethos_u.h"

#include <cstring>
#include <stdexcept>

#include "models/mem/memory_system.h"

namespace npusim::npu {

EthosU::EthosU(sc_core::sc_module_name name, const NpuModuleParams& params)
    : sc_module(name), ports("port"), apb("apb"), params_(params),
      period_(sc_core::sc_time(1.0 / params.clockHz, sc_core::SC_SEC)),
      pmu_(params.hardware != nullptr ? *params.hardware
                                      : throw std::logic_error("EthosU: no hardware configuration")) {
  const std::vector<arch::PortDesc>& descs = params.hardware->ports();
  ports.init(descs.size(), [&descs](const char*, size_t i) {
    return new tlm_utils::simple_initiator_socket<EthosU>(std::string(descs[i].name).c_str());
  });
  burstObservers_.assign(descs.size(), nullptr);
  apb.register_b_transport(this, &EthosU::registerWrite);
  SC_THREAD(run);
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
  // transport): the NPU times its bursts against those memories itself.
  mem::MemoryRouter* memories = nullptr;
  for (size_t i = 0; i < ports.size(); ++i) {
    tlm::tlm_generic_payload trans;
    mem::DirectTimingExtension ext;
    trans.set_extension(&ext);
    trans.set_command(tlm::TLM_IGNORE_COMMAND);
    trans.set_data_length(0);
    ports[i]->transport_dbg(trans);
    trans.clear_extension(&ext);
    if (ext.memories == nullptr || (memories != nullptr && ext.memories != memories)) {
      throw std::logic_error("EthosU: port " + std::string(ports[i].basename()) +
                             " is not bound to npusim's memory system");
    }
    memories = ext.memories;
  }
  core_ = std::make_unique<NpuCore>(params_, *memories, pmu_);
  core_->setObserver(observer_);
  for (size_t i = 0; i < burstObservers_.size(); ++i) {
    core_->setBurstObserver(arch::PortId{static_cast<uint8_t>(i)}, burstObservers_[i]);
  }
  return *core_;
}

void EthosU::registerWrite(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  if (!trans.is_write() || trans.get_data_length() < 4) {
    return;
  }
  uint32_t value = 0;
  std::memcpy(&value, trans.get_data_ptr(), 4);
  const uint64_t a = trans.get_address();
  if (a == reg::kQbase) {
    qbase_ = value;
  } else if (a == reg::kQsize) {
    qsize_ = value;
  } else if (a >= reg::kBasep && a < reg::kBasep + 64 && (a - reg::kBasep) % 8 == 0) {
    basep_[(a - reg::kBasep) / 8] = value;
  } else if (a == reg::kCmd && (value & 1) != 0) {
    start_.notify(delay);
  } else if (a == params_.hardware->arch->pmu.controlRegister) {
    pmu_.setEnabled((value & 1) != 0, (sc_core::sc_time_stamp() + delay) / period_);
  }
}

void EthosU::shutdown() {
  stopping_ = true;
  shutdown_.notify(sc_core::SC_ZERO_TIME);
}

void EthosU::run() {
  for (;;) {
    wait(start_ | shutdown_);
    if (stopping_) {
      return;
    }
    const NpuProgram* loaded = nullptr;
    for (const NpuProgram& p : programs_) {
      if (p.qbase == qbase_) {
        loaded = &p;
      }
    }
    if (loaded == nullptr || loaded->program->streamBytes() != qsize_) {
      throw std::logic_error("NPU started with QBASE/QSIZE that match no loaded command stream");
    }
    // The stream runs on the NPU's own event queue; the module then lets SystemC time catch up
    // and raises the interrupt at the stream's end.
    const double end = core().run(*loaded->program, loaded->qbase, basep_, now(), invocation_++);
    if (end > now()) {
      wait(period_ * (end - now()));
    }
    irq.notify(sc_core::SC_ZERO_TIME);
  }
}

} // namespace npusim::npu
