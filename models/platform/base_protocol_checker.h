// SPDX-License-Identifier: Apache-2.0
#pragma once
// A TLM-2.0 base-protocol checker: a pass-through module bound between an initiator's socket and
// a target's that forwards every call unchanged and records each breach of the base protocol's
// rules (IEEE 1666-2011, clauses 14 and 15) by either side:
//
//  * request attributes, on b_transport, BEGIN_REQ and transport_dbg: a read, write or ignore
//    command; a data pointer and a data length above 0; a streaming width above 0; byte enables
//    with a length; the response status TLM_INCOMPLETE_RESPONSE and the DMI hint false as the
//    initiator must set them;
//  * responses: the target sets a response status other than TLM_INCOMPLETE_RESPONSE, and leaves
//    the command, data pointer, data length, byte enables and streaming width as they were (only
//    an interconnect's address translation may change the address);
//  * phases of nb_transport: BEGIN_REQ and END_RESP forward, END_REQ and BEGIN_RESP backward, in
//    the order BEGIN_REQ, END_REQ, BEGIN_RESP, END_RESP (BEGIN_RESP may end the request, a
//    TLM_COMPLETED return ends the transaction), an unchanged phase with TLM_ACCEPTED, one
//    request and one response in progress per socket at a time, no transaction on both paths;
//  * time never going back: a b_transport answers no earlier than it was asked (the local time
//    sc_time_stamp() + delay), and the phases of one transaction happen at non-decreasing local
//    times.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

namespace npusim::platform {

class BaseProtocolChecker : public sc_core::sc_module,
                            public tlm::tlm_fw_transport_if<>,
                            public tlm::tlm_bw_transport_if<> {
public:
  tlm::tlm_target_socket<> target;        // bind the initiator's socket to it
  tlm::tlm_initiator_socket<> initiator;  // bind it to the target's socket

  explicit BaseProtocolChecker(sc_core::sc_module_name name);

  // Every breach so far, one line each ("<checker>: <rule>: <what>"), in the order they happened.
  const std::vector<std::string>& violations() const { return violations_; }
  // Transactions seen (b_transport calls and nb_transport BEGIN_REQs).
  uint64_t transactions() const { return transactions_; }

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) override;
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans) override;
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) override;

private:
  // The attributes a target must leave alone.
  struct Request {
    tlm::tlm_command command = tlm::TLM_IGNORE_COMMAND;
    unsigned char* data = nullptr;
    unsigned int length = 0, streamingWidth = 0, byteEnableLength = 0;
    unsigned char* byteEnables = nullptr;
    static Request of(const tlm::tlm_generic_payload& trans);
  };
  // An nb_transport transaction in progress: its last phase and the local time it happened.
  struct InFlight {
    Request request;
    tlm::tlm_phase phase = tlm::UNINITIALIZED_PHASE;
    sc_core::sc_time at;
  };
  void violation(const std::string& rule, const std::string& what);
  // The initiator's duties on a new request.
  void checkRequest(const tlm::tlm_generic_payload& trans, const char* call);
  // The target's duties on the response.
  void checkResponse(const tlm::tlm_generic_payload& trans, const Request& asked, const char* call);
  // A phase of nb transaction `trans` (`forward`: from the initiator) with the call's return `status`.
  void checkPhase(tlm::tlm_generic_payload& trans, tlm::tlm_phase phase, const sc_core::sc_time& delay, bool forward);
  void checkReturn(tlm::tlm_generic_payload& trans, tlm::tlm_phase sent, tlm::tlm_phase now,
                   tlm::tlm_sync_enum status, const sc_core::sc_time& delay, bool forward);

  std::vector<std::string> violations_;
  uint64_t transactions_ = 0;
  std::map<const tlm::tlm_generic_payload*, InFlight> inFlight_;
  const tlm::tlm_generic_payload* requestInProgress_ = nullptr;   // BEGIN_REQ not yet ended
  const tlm::tlm_generic_payload* responseInProgress_ = nullptr;  // BEGIN_RESP not yet ended
  const tlm::tlm_generic_payload* blocking_ = nullptr;            // in b_transport now
};

} // namespace npusim::platform
