// SPDX-License-Identifier: Apache-2.0
#include "models/platform/base_protocol_checker.h"

#include <sstream>

namespace npusim::platform {
namespace {

std::string phaseName(const tlm::tlm_phase& phase) {
  std::ostringstream os;
  os << phase;
  return os.str();
}

std::string timeText(const sc_core::sc_time& t) { return t.to_string(); }

bool ended(tlm::tlm_phase phase) { return phase == tlm::END_RESP; }

} // namespace

BaseProtocolChecker::BaseProtocolChecker(sc_core::sc_module_name name)
    : sc_module(name), target("target"), initiator("initiator") {
  target.bind(*this);
  initiator.bind(*this);
}

BaseProtocolChecker::Request BaseProtocolChecker::Request::of(const tlm::tlm_generic_payload& trans) {
  Request r;
  r.command = trans.get_command();
  r.data = trans.get_data_ptr();
  r.length = trans.get_data_length();
  r.streamingWidth = trans.get_streaming_width();
  r.byteEnables = trans.get_byte_enable_ptr();
  r.byteEnableLength = trans.get_byte_enable_length();
  return r;
}

void BaseProtocolChecker::violation(const std::string& rule, const std::string& what) {
  violations_.push_back(std::string(name()) + ": " + rule + ": " + what);
}

void BaseProtocolChecker::checkRequest(const tlm::tlm_generic_payload& trans, const char* call) {
  const std::string where = std::string(call) + " at address " + std::to_string(trans.get_address());
  const tlm::tlm_command c = trans.get_command();
  if (c != tlm::TLM_READ_COMMAND && c != tlm::TLM_WRITE_COMMAND && c != tlm::TLM_IGNORE_COMMAND) {
    violation("command attribute", where + ": command " + std::to_string(static_cast<int>(c)));
  }
  if (c != tlm::TLM_IGNORE_COMMAND && trans.get_data_ptr() == nullptr) {
    violation("data pointer attribute", where + ": no data pointer");
  }
  if (trans.get_data_length() == 0) {
    violation("data length attribute", where + ": data length 0");
  }
  if (trans.get_streaming_width() == 0) {
    violation("streaming width attribute", where + ": streaming width 0");
  }
  if (trans.get_byte_enable_ptr() != nullptr && trans.get_byte_enable_length() == 0) {
    violation("byte enable attribute", where + ": byte enables of length 0");
  }
  if (trans.get_response_status() != tlm::TLM_INCOMPLETE_RESPONSE) {
    violation("response status attribute", where + ": the initiator sent " + trans.get_response_string() +
                                               " instead of TLM_INCOMPLETE_RESPONSE");
  }
}

void BaseProtocolChecker::checkResponse(const tlm::tlm_generic_payload& trans, const Request& asked, const char* call) {
  const std::string where = std::string(call) + " at address " + std::to_string(trans.get_address());
  if (trans.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE) {
    violation("response status attribute", where + ": the target left TLM_INCOMPLETE_RESPONSE");
  }
  const Request now = Request::of(trans);
  if (now.command != asked.command || now.data != asked.data || now.length != asked.length ||
      now.streamingWidth != asked.streamingWidth || now.byteEnables != asked.byteEnables ||
      now.byteEnableLength != asked.byteEnableLength) {
    violation("unmodifiable attributes", where + ": the target changed the command, data pointer, data length, "
                                                 "streaming width or byte enables");
  }
}

void BaseProtocolChecker::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  ++transactions_;
  checkRequest(trans, "b_transport");
  if (inFlight_.count(&trans) != 0) {
    violation("transaction object", "b_transport with a transaction still in an nb_transport exchange");
  }
  const Request asked = Request::of(trans);
  const sc_core::sc_time asking = sc_core::sc_time_stamp() + delay;
  blocking_ = &trans;
  initiator->b_transport(trans, delay);
  blocking_ = nullptr;
  const sc_core::sc_time answered = sc_core::sc_time_stamp() + delay;
  if (answered < asking) {
    violation("time", "b_transport at address " + std::to_string(trans.get_address()) + " answered at " +
                          timeText(answered) + ", before it was asked at " + timeText(asking));
  }
  checkResponse(trans, asked, "b_transport");
}

void BaseProtocolChecker::checkPhase(tlm::tlm_generic_payload& trans, tlm::tlm_phase phase,
                                     const sc_core::sc_time& delay, bool forward) {
  const sc_core::sc_time local = sc_core::sc_time_stamp() + delay;
  const std::string what = phaseName(phase) + (forward ? " on the forward path" : " on the backward path");
  const auto it = inFlight_.find(&trans);
  if (phase == tlm::BEGIN_REQ) {
    if (!forward) violation("phase", what + ": a request comes from the initiator");
    if (it != inFlight_.end()) violation("phase", what + ": the transaction is already in progress");
    if (blocking_ == &trans) violation("transaction object", what + ": the transaction is in b_transport");
    if (requestInProgress_ != nullptr) {
      violation("request exclusion", what + ": the previous request has not ended (END_REQ or BEGIN_RESP)");
    }
    inFlight_[&trans] = {Request::of(trans), phase, local};
    requestInProgress_ = &trans;
    return;
  }
  if (it == inFlight_.end()) {
    violation("phase", what + ": no such transaction is in progress");
    return;
  }
  InFlight& f = it->second;
  if (local < f.at) {
    violation("time", what + " at " + timeText(local) + ", before its previous phase at " + timeText(f.at));
  }
  if (phase == tlm::END_REQ) {
    if (forward) violation("phase", what + ": END_REQ comes from the target");
    if (f.phase != tlm::BEGIN_REQ) violation("phase", what + " after " + phaseName(f.phase));
    if (requestInProgress_ == &trans) requestInProgress_ = nullptr;
  } else if (phase == tlm::BEGIN_RESP) {
    if (forward) violation("phase", what + ": BEGIN_RESP comes from the target");
    if (f.phase != tlm::BEGIN_REQ && f.phase != tlm::END_REQ) violation("phase", what + " after " + phaseName(f.phase));
    if (requestInProgress_ == &trans) requestInProgress_ = nullptr;
    if (responseInProgress_ != nullptr && responseInProgress_ != &trans) {
      violation("response exclusion", what + ": the previous response has not ended (END_RESP)");
    }
    responseInProgress_ = &trans;
    checkResponse(trans, f.request, "BEGIN_RESP");
  } else if (phase == tlm::END_RESP) {
    if (!forward) violation("phase", what + ": END_RESP comes from the initiator");
    if (f.phase != tlm::BEGIN_RESP) violation("phase", what + " after " + phaseName(f.phase));
    if (responseInProgress_ == &trans) responseInProgress_ = nullptr;
  } else {
    violation("phase", what + ": not a phase of the base protocol");
  }
  f.phase = phase;
  f.at = local;
  if (ended(phase)) {
    inFlight_.erase(it);
  }
}

void BaseProtocolChecker::checkReturn(tlm::tlm_generic_payload& trans, tlm::tlm_phase sent, tlm::tlm_phase now,
                                      tlm::tlm_sync_enum status, const sc_core::sc_time& delay, bool forward) {
  switch (status) {
  case tlm::TLM_ACCEPTED:
    if (now != sent) violation("return", "TLM_ACCEPTED with the phase changed to " + phaseName(now));
    return;
  case tlm::TLM_UPDATED:
    if (now == sent) {
      violation("return", "TLM_UPDATED without a new phase");
      return;
    }
    checkPhase(trans, now, delay, !forward);  // the callee's answer, on the other path
    return;
  case tlm::TLM_COMPLETED: {
    const auto it = inFlight_.find(&trans);
    if (it == inFlight_.end()) return;  // ended by the phase just sent (END_RESP)
    const sc_core::sc_time local = sc_core::sc_time_stamp() + delay;
    if (local < it->second.at) {
      violation("time", "TLM_COMPLETED at " + timeText(local) + ", before the previous phase at " +
                            timeText(it->second.at));
    }
    checkResponse(trans, it->second.request, "TLM_COMPLETED");
    if (requestInProgress_ == &trans) requestInProgress_ = nullptr;
    if (responseInProgress_ == &trans) responseInProgress_ = nullptr;
    inFlight_.erase(it);
    return;
  }
  }
  violation("return", "not a tlm_sync_enum value");
}

tlm::tlm_sync_enum BaseProtocolChecker::nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                                        sc_core::sc_time& delay) {
  const tlm::tlm_phase sent = phase;
  if (sent == tlm::BEGIN_REQ) {
    ++transactions_;
    checkRequest(trans, "nb_transport_fw");
  }
  checkPhase(trans, sent, delay, true);
  const tlm::tlm_sync_enum status = initiator->nb_transport_fw(trans, phase, delay);
  checkReturn(trans, sent, phase, status, delay, true);
  return status;
}

tlm::tlm_sync_enum BaseProtocolChecker::nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                                        sc_core::sc_time& delay) {
  const tlm::tlm_phase sent = phase;
  checkPhase(trans, sent, delay, false);
  const tlm::tlm_sync_enum status = target->nb_transport_bw(trans, phase, delay);
  checkReturn(trans, sent, phase, status, delay, false);
  return status;
}

bool BaseProtocolChecker::get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  return initiator->get_direct_mem_ptr(trans, dmi);
}

unsigned int BaseProtocolChecker::transport_dbg(tlm::tlm_generic_payload& trans) {
  const tlm::tlm_command c = trans.get_command();
  if (c != tlm::TLM_READ_COMMAND && c != tlm::TLM_WRITE_COMMAND && c != tlm::TLM_IGNORE_COMMAND) {
    violation("command attribute", "transport_dbg: command " + std::to_string(static_cast<int>(c)));
  }
  return initiator->transport_dbg(trans);
}

void BaseProtocolChecker::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  target->invalidate_direct_mem_ptr(start, end);
}

} // namespace npusim::platform
