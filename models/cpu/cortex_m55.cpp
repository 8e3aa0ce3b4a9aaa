// SPDX-License-Identifier: Apache-2.0
#include "models/cpu/cortex_m55.h"

#include "models/npu/npu_registers.h"

namespace npusim::cpu {
namespace {

// One APB register write from the M55 (bus bridge + two-phase APB transfer), host cycles.
constexpr double kApbWriteCycles = 4;

} // namespace

CortexM55::CortexM55(sc_core::sc_module_name name, const CortexM55Params& params, sc_core::sc_event& npuIrq)
    : sc_module(name), apb("apb"), axi("axi"), params_(params), npuIrq_(npuIrq),
      npuPeriod_(sc_core::sc_time(1.0 / params.npuClockHz, sc_core::SC_SEC)),
      hostPeriod_(sc_core::sc_time(1.0 / (params.host.clockHz > 0 ? params.host.clockHz : params.npuClockHz),
                                   sc_core::SC_SEC)) {
  SC_THREAD(run);
}

void CortexM55::writeRegister(uint64_t address, uint32_t value, sc_core::sc_time& delay) {
  delay += hostPeriod_ * kApbWriteCycles;
  transportRegister(address, value, delay);
}

void CortexM55::writePmuControl(uint32_t value) {
  sc_core::sc_time now = sc_core::SC_ZERO_TIME;
  transportRegister(params_.pmuControl, value, now);
}

void CortexM55::transportRegister(uint64_t address, uint32_t value, sc_core::sc_time& delay) {
  tlm::tlm_generic_payload trans;
  trans.set_command(tlm::TLM_WRITE_COMMAND);
  trans.set_address(address);
  trans.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
  trans.set_data_length(4);
  apb->b_transport(trans, delay);
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
      // 1. Driver: reserve, parse COP1, check config, power/reset (first use) and cache maintenance.
      wait(hostPeriod_ * double(params_.host.driverOverheadCycles));
      // 2. inference_begin callback starts the PMU; program QBASE, QSIZE, BASEP[i], then CMD.start.
      writePmuControl(1);
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      writeRegister(npu::reg::kQbase, static_cast<uint32_t>(step.qbase), delay);
      writeRegister(npu::reg::kQsize, step.qsize, delay);
      for (size_t r = 0; r < step.basep.size() && r < 8; ++r) {
        writeRegister(npu::reg::kBasep + 8 * r, static_cast<uint32_t>(step.basep[r]), delay);
      }
      writeRegister(npu::reg::kCmd, 1, delay);
      wait(delay);
      // 3. Wait for the interrupt; the ISR clears it, checks STATUS and wakes the driver, whose
      //    inference_end callback stops the PMU.
      wait(npuIrq_);
      wait(hostPeriod_ * double(params_.host.irqOverheadCycles));
      writePmuControl(0);
    }
    rec.end = sc_core::sc_time_stamp() / npuPeriod_;
    records_.push_back(rec);
  }
  finished_ = true;
}

} // namespace npusim::cpu
