// SPDX-License-Identifier: Apache-2.0
#include "models/npu/socket_target.h"

#include <algorithm>

namespace npusim::npu {

SocketTarget::SocketTarget(tlm::tlm_initiator_socket<>& socket, sc_core::sc_time period)
    : socket_(socket), period_(period) {
  payload_.set_extension(&exact_);
}

// The payload would delete the extensions still set on it: this one is a member.
SocketTarget::~SocketTarget() { payload_.clear_extension(&exact_); }

mem::BurstAnswer SocketTarget::burst(mem::Direction dir, uint64_t address, uint64_t bytes, uint64_t beats,
                                     uint8_t* data, double issue, uint32_t lane, double minLatency) {
  if (fault_) {
    return {issue, issue, 0, 0};  // after a bus abort the NPU moves nothing more
  }
  payload_.set_command(dir == mem::Direction::Read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
  payload_.set_address(address);
  payload_.set_data_ptr(data);
  payload_.set_data_length(static_cast<unsigned int>(bytes));
  payload_.set_streaming_width(static_cast<unsigned int>(bytes));
  payload_.set_byte_enable_ptr(nullptr);
  payload_.set_byte_enable_length(0);
  payload_.set_dmi_allowed(false);
  payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  exact_.issue = issue;
  exact_.minLatency = minLatency;
  exact_.lane = lane;
  exact_.beats = beats;
  exact_.answered = false;
  // The address is accepted at `issue`: the annotated delay from now (the NPU runs a stream ahead
  // of SystemC's time, temporally decoupled). The target adds its latency and data time (and may
  // wait); the burst completes at the local time it answers.
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  sc_core::sc_time delay = period_ * std::max(0.0, issue - now / period_);
  const sc_core::sc_time requested = now + delay;
  socket_->b_transport(payload_, delay);
  const sc_core::sc_time answered = sc_core::sc_time_stamp() + delay;
  if (payload_.is_response_error()) {
    fault_ = Fault{address, payload_.get_response_status()};
    return {issue, issue, 0, 0};
  }
  if (exact_.answered) {
    return {exact_.dataStart, exact_.done, exact_.memory, exact_.contention};
  }
  // A target whose answer lies before the request (time going back) is taken as answering at
  // once; its data is taken as its last beats, a beat per cycle.
  const double end = issue + (answered > requested ? (answered - requested) / period_ : 0.0);
  return {std::max(issue, end - double(beats)), end, 0, 0};
}

} // namespace npusim::npu
