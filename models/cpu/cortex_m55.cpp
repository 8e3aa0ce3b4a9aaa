// SPDX-License-Identifier: Apache-2.0
#include "models/cpu/cortex_m55.h"

#include <stdexcept>
#include <string>

namespace npusim::cpu {
namespace {

// One APB register write from the M55 (bus bridge + two-phase APB transfer), host cycles.
constexpr double kApbWriteCycles = 4;

} // namespace

CortexM55::CortexM55(sc_core::sc_module_name name, const CortexM55Params& params)
    : sc_module(name), apb("apb"), axi("axi"), npuIrq("npu_irq"), params_(params),
      npuPeriod_(sc_core::sc_time(1.0 / params.npuClockHz, sc_core::SC_SEC)),
      hostPeriod_(sc_core::sc_time(1.0 / (params.host.clockHz > 0 ? params.host.clockHz : params.npuClockHz),
                                   sc_core::SC_SEC)) {
  if (params.npu == nullptr) {
    throw std::logic_error("CortexM55: no NPU architecture");
  }
  SC_THREAD(run);
}

void CortexM55::writeRegister(uint64_t address, uint32_t value, sc_core::sc_time& delay) {
  delay += hostPeriod_ * kApbWriteCycles;
  access(tlm::TLM_WRITE_COMMAND, address, value, delay);
}

void CortexM55::writeFree(uint64_t address, uint32_t value) {
  sc_core::sc_time now = sc_core::SC_ZERO_TIME;
  access(tlm::TLM_WRITE_COMMAND, address, value, now);
}

uint32_t CortexM55::readFree(uint64_t address) {
  uint32_t value = 0;
  sc_core::sc_time now = sc_core::SC_ZERO_TIME;
  access(tlm::TLM_READ_COMMAND, address, value, now);
  return value;
}

void CortexM55::access(tlm::tlm_command command, uint64_t address, uint32_t& value, sc_core::sc_time& delay) {
  tlm::tlm_generic_payload trans;
  trans.set_command(command);
  trans.set_address(address);
  trans.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
  trans.set_data_length(4);
  trans.set_streaming_width(4);
  apb->b_transport(trans, delay);
  if (trans.is_response_error()) {
    throw std::logic_error("CortexM55: the NPU refused register " + std::to_string(address) + ": " +
                           trans.get_response_string());
  }
}

void CortexM55::dataTransfer(uint64_t address, uint64_t bytes, bool write, sc_core::sc_time& delay) {
  if (bytes == 0) {
    return;
  }
  tlm::tlm_generic_payload trans;
  trans.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  trans.set_address(address);
  trans.set_data_ptr(nullptr);
  trans.set_data_length(static_cast<unsigned int>(bytes));
  axi->b_transport(trans, delay);
}

void CortexM55::runNpu(const HostStep& step) {
  // The Ethos-U driver's sequence (timing doc 6.2; the core driver's ethosu_invoke and
  // ethosu_dev_run_command_stream), with the registers of the NPU's architecture.
  const arch::HostRegisterMap& r = params_.npu->registers;
  const arch::PmuDesc& pmu = params_.npu->pmu;
  const bool wide = r.addressBits > 32;
  // 1. Driver: reserve, parse COP1, check config, power request (the first one soft-resets the
  //    NPU: RESET, STATUS polled, PROT checked; its AXI limits stay the configured ones), cache
  //    maintenance.
  if (!npuReset_) {
    writeFree(r.reset, r.resetBits.privilege.place(1));
    while (r.statusBits.resetStatus.read(readFree(r.status)) != 0) {
    }
    readFree(r.prot);
    npuReset_ = true;
  }
  wait(hostPeriod_ * double(params_.host.driverOverheadCycles));
  // 2. inference_begin callback starts the PMU; program QBASE, QSIZE, QCONFIG, BASEP[i],
  //    REGIONCFG, then CMD.start keeping the clock and power bits.
  writeFree(pmu.controlRegister, pmu.registers.enable.place(1));
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  writeRegister(r.qbase, static_cast<uint32_t>(step.qbase), delay);
  if (wide) writeFree(r.qbase + 4, static_cast<uint32_t>(step.qbase >> 32));
  writeRegister(r.qsize, step.qsize, delay);
  writeFree(r.qconfig, step.qconfig);
  for (size_t i = 0; i < step.basep.size() && i < r.basepCount; ++i) {
    writeRegister(r.basep + 8 * i, static_cast<uint32_t>(step.basep[i]), delay);
    if (wide) writeFree(r.basep + 8 * i + 4, static_cast<uint32_t>(step.basep[i] >> 32));
  }
  writeFree(r.regioncfg, step.regioncfg);
  const uint32_t keep = r.cmdBits.clockQ.place(1) | r.cmdBits.powerQ.place(1);
  writeRegister(r.cmd, (readFree(r.cmd) & keep) | r.cmdBits.start.place(1), delay);
  wait(delay);
  // 3. Wait for the interrupt; the handler clears it and checks STATUS (an NPU_OP_IRQ before the
  //    end of the stream is waited past), wakes the driver, whose inference_end callback stops
  //    the PMU.
  for (;;) {
    if (!npuIrq.read()) {
      wait(npuIrq.posedge_event());
    }
    writeFree(r.cmd, (readFree(r.cmd) & keep) | r.cmdBits.clearIrq.place(1));
    const uint32_t status = readFree(r.status);
    if (r.statusBits.busStatus.read(status) != 0 || r.statusBits.cmdParseError.read(status) != 0) {
      throw std::logic_error("CortexM55: the NPU stopped with a fault (STATUS " + std::to_string(status) + ")");
    }
    if (r.statusBits.cmdEndReached.read(status) != 0) {
      break;
    }
    // An NPU_OP_IRQ before the end: the handler returns, and the line drops once the NPU has seen
    // the clear (a delta later). Until then the line still reads high with no interrupt pending.
    while (npuIrq.read() && r.statusBits.irqRaised.read(readFree(r.status)) == 0) {
      wait(sc_core::SC_ZERO_TIME);
    }
  }
  wait(hostPeriod_ * double(params_.host.irqOverheadCycles));
  writeFree(pmu.controlRegister, 0);
}

void CortexM55::run() {
  for (const HostStep& step : steps_) {
    HostRecord rec;
    rec.networkOp = step.networkOp;
    rec.start = sc_core::sc_time_stamp() / npuPeriod_;
    if (!step.npu) {
      // The kernel's compute, then its activation traffic through the data port.
      sc_core::sc_time delay = hostPeriod_ * double(step.cpuCycles);
      dataTransfer(step.dataAddress, step.readBytes, false, delay);
      dataTransfer(step.dataAddress, step.writeBytes, true, delay);
      wait(delay);
    } else {
      runNpu(step);
    }
    rec.end = sc_core::sc_time_stamp() / npuPeriod_;
    records_.push_back(rec);
  }
  finished_ = true;
}

} // namespace npusim::cpu
