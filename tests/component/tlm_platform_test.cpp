// SPDX-License-Identifier: Apache-2.0
// The TLM-2.0 base protocol on the NPU's standard ports. npusim's platform with them
// (sim.transport=tlm): a base-protocol checker between every NPU socket and the memory system, on
// one model of every fixture family: no breach, and one transaction per AXI burst the PMU counts.
// And the checker catches what it should: a test initiator sends transactions through it to
// targets that break one rule each (blocking and non-blocking), and the NPU's own sockets, bound
// through it to a memory whose answers go back in time, are caught too. Each TEST_CASE is its
// own process (one SystemC elaboration).

#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/mem/memory_system.h"
#include "models/npu/ethos_u.h"
#include "models/platform/base_protocol_checker.h"
#include "models/platform/platform.h"
#include "sim/io/decoded_network.h"
#include "sim/io/demo_network.h"
#include "support/fixtures.h"

namespace npusim {
namespace {

// Puts a BaseProtocolChecker between each NPU port and the memory system's socket for it.
class CheckedPorts : public platform::PortBinder {
public:
  void bind(arch::PortId port, npu::EthosU& npu, mem::MemorySystem& memory) override {
    checkers_.push_back(std::make_unique<platform::BaseProtocolChecker>(
        ("checker_" + std::string(npu.ports[port.index].basename())).c_str()));
    npu.ports[port.index].bind(checkers_.back()->target);
    checkers_.back()->initiator.bind(memory.npuPorts[port.index]);
  }
  std::vector<std::string> violations() const {
    std::vector<std::string> all;
    for (const auto& c : checkers_) all.insert(all.end(), c->violations().begin(), c->violations().end());
    return all;
  }
  uint64_t transactions() const {
    uint64_t n = 0;
    for (const auto& c : checkers_) n += c->transactions();
    return n;
  }
  size_t size() const { return checkers_.size(); }

private:
  std::vector<std::unique_ptr<platform::BaseProtocolChecker>> checkers_;
};

// Runs the fixture `relative` (under the fixtures root) with the standard ports behind checkers.
void checkFamily(const std::string& relative, const std::string& systemConfig = "") {
  const auto path = test::fixtureOrSkip(relative);
  if (!path) return;
  const io::CompiledNetwork net = io::loadNetwork(path->string());
  const std::vector<io::DecodedNpuOp> decoded = io::decodeAll(net);
  config::ConfigRequest request;
  request.systemConfig = systemConfig;
  request.overrides = {"sim.transport=tlm"};
  const config::SystemParams params = platform::resolveForModel(request, net);
  CheckedPorts ports;
  platform::RunObservers observers;
  observers.binder = &ports;
  const platform::RunResult r = platform::simulate(net, decoded, params, observers);
  CHECK(ports.size() == params.ports.size());
  CHECK(r.npuActive > 0);
  for (const std::string& v : ports.violations()) {
    FAIL_CHECK(v);
  }
  CHECK(ports.violations().empty());
  // Every AXI burst is one transaction through a checker: the PMU's transactions, port by port summed.
  uint64_t bursts = 0;
  for (const platform::PortReport& p : r.ports) bursts += p.readBursts + p.writeBursts;
  CHECK(bursts > 0);
  CHECK(ports.transactions() == bursts);
}


using platform::BaseProtocolChecker;

// True when one of the checker's reports names `rule`.
bool reported(const BaseProtocolChecker& c, const std::string& rule) {
  for (const std::string& v : c.violations()) {
    if (v.find(": " + rule + ": ") != std::string::npos) return true;
  }
  return false;
}

// A target whose b_transport does what `answer` says (a memory of 64 bytes otherwise), and whose
// nb_transport_fw answers with `nbAnswer`.
struct Target : sc_core::sc_module {
  tlm_utils::simple_target_socket<Target> socket{"socket"};
  std::function<void(tlm::tlm_generic_payload&, sc_core::sc_time&)> answer;
  std::function<tlm::tlm_sync_enum(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_core::sc_time&)> nbAnswer;
  unsigned char bytes[64] = {};
  explicit Target(sc_core::sc_module_name n) : sc_module(n) {
    socket.register_b_transport(this, &Target::b_transport);
    socket.register_nb_transport_fw(this, &Target::nb_transport_fw);
  }
  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    delay += sc_core::sc_time(10, sc_core::SC_NS);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    if (answer) answer(t, delay);
  }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    return nbAnswer(t, phase, delay);
  }
};

// An initiator that runs `body` once, with a payload for a 4-byte read at address 0.
struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket{"socket"};
  std::function<void(Initiator&)> body;
  unsigned char data[4] = {};
  tlm::tlm_generic_payload trans;
  SC_HAS_PROCESS(Initiator);
  explicit Initiator(sc_core::sc_module_name n) : sc_module(n) {
    socket.register_nb_transport_bw(this, &Initiator::nb_transport_bw);
    SC_THREAD(run);
  }
  void prepare() {
    trans.set_command(tlm::TLM_READ_COMMAND);
    trans.set_address(0);
    trans.set_data_ptr(data);
    trans.set_data_length(4);
    trans.set_streaming_width(4);
    trans.set_byte_enable_ptr(nullptr);
    trans.set_byte_enable_length(0);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  }
  tlm::tlm_sync_enum blocking() {
    sc_core::sc_time delay(5, sc_core::SC_NS);
    socket->b_transport(trans, delay);
    return tlm::TLM_COMPLETED;
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase& phase, sc_core::sc_time&) {
    if (phase == tlm::BEGIN_RESP) {
      phase = tlm::END_RESP;
      return tlm::TLM_COMPLETED;
    }
    return tlm::TLM_ACCEPTED;
  }
  void run() {
    prepare();
    body(*this);
  }
};

// Initiator -> checker -> target; runs the simulation and returns the checker's reports.
struct Bench {
  Initiator initiator{"initiator"};
  BaseProtocolChecker checker{"checker"};
  Target target{"target"};
  Bench() {
    initiator.socket.bind(checker.target);
    checker.initiator.bind(target.socket);
  }
  const BaseProtocolChecker& run() {
    sc_core::sc_start();
    return checker;
  }
};

} // namespace

TEST_CASE("tlm: no base-protocol breach on any NPU socket: vela (U55-128, Shared_Sram)") {
  checkFamily("vela/kws_ref_model/ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram/kws_ref_model_vela.tflite");
}

TEST_CASE("tlm: no base-protocol breach on any NPU socket: vela-u65 (U65-256, Dedicated_Sram)") {
  checkFamily("vela-u65/kws_ref_model/ethos-u65-256_Ethos_U65_Client_Server_Dedicated_Sram/kws_ref_model_vela.tflite");
}

TEST_CASE("tlm: no base-protocol breach on any NPU socket: vela-u85 (U85-256, Dedicated_Sram_384KB)") {
  checkFamily("vela-u85/kws_ref_model/ethos-u85-256_Ethos_U85_SYS_DRAM_Mid_Dedicated_Sram_384KB/kws_ref_model_vela.tflite");
}

TEST_CASE("tlm: no base-protocol breach on any NPU socket: vela5 (U55-128, Sram_Only)") {
  checkFamily("vela5/kws_ref_model/ethos-u55-128_Ethos_U55_Deep_Embedded_Sram_Only/kws_ref_model_vela.tflite");
}

TEST_CASE("tlm: no base-protocol breach on any NPU socket: vela-rnn (U55-64, Deep_Embedded)") {
  checkFamily("vela-rnn/rnnoise_INT8/ethos-u55-64_Ethos_U55_Deep_Embedded_Shared_Sram/rnnoise_INT8_vela.tflite");
}

TEST_CASE("tlm: no base-protocol breach on any NPU socket: vela-extra (U55-64, YOLOv8n-pose)") {
  checkFamily(
      "vela-extra/yolov8n_pose_192_int8/ethos-u55-64_Ethos_U55_High_End_Embedded_Shared_Sram/yolov8n_pose_192_int8_vela.tflite");
}

TEST_CASE("tlm: no base-protocol breach on any NPU socket: vela-u85-extra (U85-256, dnn_s)") {
  checkFamily(
      "vela-u85-extra/dnn_s_quantized/ethos-u85-256_Ethos_U85_SYS_DRAM_Mid_Dedicated_Sram_384KB/dnn_s_quantized_vela.tflite");
}

TEST_CASE("tlm: no base-protocol breach on any NPU socket: fvp (U55-128 behind the Corstone-300's adapters)") {
  checkFamily("fvp/vela5/kws_micronet_m/ethos-u55-128/kws_micronet_m_vela.tflite", "Corstone_300_FVP");
}

TEST_CASE("tlm: no base-protocol breach on any NPU socket: fvp (U85-256 behind the Corstone-320's shared adapters)") {
  checkFamily("fvp/vela5/rnnoise_INT8/ethos-u85-256/rnnoise_INT8_vela.tflite", "Corstone_320_FVP");
}

TEST_CASE("tlm: no base-protocol breach on any NPU socket: mlek (U55-128, Vela 3.2)") {
  checkFamily("mlek/compiled/kws_micronet_m_vela-3.2.0_mlek-76a15808/kws_micronet_m_vela.tflite");
}

TEST_CASE("checker: a well-behaved blocking target passes") {
  Bench b;
  b.initiator.body = [](Initiator& i) { i.blocking(); };
  const BaseProtocolChecker& c = b.run();
  CHECK(c.transactions() == 1);
  CHECK(c.violations().empty());
}

TEST_CASE("checker: a target that leaves the response incomplete is caught") {
  Bench b;
  b.target.answer = [](tlm::tlm_generic_payload& t, sc_core::sc_time&) {
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  };
  b.initiator.body = [](Initiator& i) { i.blocking(); };
  CHECK(reported(b.run(), "response status attribute"));
}

TEST_CASE("checker: a target whose answer goes back in time is caught") {
  Bench b;
  b.target.answer = [](tlm::tlm_generic_payload&, sc_core::sc_time& delay) { delay = sc_core::SC_ZERO_TIME; };
  b.initiator.body = [](Initiator& i) { i.blocking(); };
  CHECK(reported(b.run(), "time"));
}

TEST_CASE("checker: a target that changes the data length is caught") {
  Bench b;
  b.target.answer = [](tlm::tlm_generic_payload& t, sc_core::sc_time&) { t.set_data_length(2); };
  b.initiator.body = [](Initiator& i) { i.blocking(); };
  CHECK(reported(b.run(), "unmodifiable attributes"));
}

TEST_CASE("checker: an initiator that sends a response status, or no data, is caught") {
  Bench b;
  b.initiator.body = [](Initiator& i) {
    i.trans.set_response_status(tlm::TLM_OK_RESPONSE);
    i.blocking();
    i.prepare();
    i.trans.set_data_ptr(nullptr);
    i.trans.set_streaming_width(0);
    i.blocking();
  };
  const BaseProtocolChecker& c = b.run();
  CHECK(reported(c, "response status attribute"));
  CHECK(reported(c, "data pointer attribute"));
  CHECK(reported(c, "streaming width attribute"));
}

TEST_CASE("checker: non-blocking phases out of order, request exclusion and a phase changed with TLM_ACCEPTED are caught") {
  Bench b;
  int call = 0;
  b.target.nbAnswer = [&call](tlm::tlm_generic_payload& t, tlm::tlm_phase& phase, sc_core::sc_time&) {
    ++call;
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    if (call == 1) {  // a correct answer: the request completes at once
      return tlm::TLM_COMPLETED;
    }
    if (call == 2) {  // TLM_ACCEPTED, but the phase argument changed
      phase = tlm::END_REQ;
      return tlm::TLM_ACCEPTED;
    }
    if (call == 3) {  // answers a request with END_RESP, a phase of the initiator
      phase = tlm::END_RESP;
      return tlm::TLM_UPDATED;
    }
    return tlm::TLM_ACCEPTED;  // holds the request: the next BEGIN_REQ breaks request exclusion
  };
  b.initiator.body = [](Initiator& i) {
    for (int k = 0; k < 5; ++k) {
      tlm::tlm_generic_payload* t = new tlm::tlm_generic_payload;
      t->set_command(tlm::TLM_WRITE_COMMAND);
      t->set_address(0);
      t->set_data_ptr(i.data);
      t->set_data_length(4);
      t->set_streaming_width(4);
      t->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      tlm::tlm_phase phase = tlm::BEGIN_REQ;
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      i.socket->nb_transport_fw(*t, phase, delay);
      // Kept alive: the checker tracks transactions by address until they end.
      static std::vector<std::unique_ptr<tlm::tlm_generic_payload>> keep;
      keep.emplace_back(t);
    }
  };
  const BaseProtocolChecker& c = b.run();
  CHECK(c.transactions() == 5);
  CHECK(reported(c, "return"));
  CHECK(reported(c, "phase"));
  CHECK(reported(c, "request exclusion"));
}

TEST_CASE("checker: the NPU's sockets bound through it to a memory whose answers go back in time are caught") {
  // The demo network on npusim's platform with standard ports; between each checker and the
  // memory system a pass-through that rewinds the annotated delay of every answer.
  struct Rewind : sc_core::sc_module {
    tlm_utils::simple_target_socket<Rewind> in{"in"};
    tlm_utils::simple_initiator_socket<Rewind> out{"out"};
    explicit Rewind(sc_core::sc_module_name n) : sc_module(n) { in.register_b_transport(this, &Rewind::b_transport); }
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
      out->b_transport(t, delay);
      delay = sc_core::SC_ZERO_TIME;
    }
  };
  struct Binder : platform::PortBinder {
    std::vector<std::unique_ptr<BaseProtocolChecker>> checkers;
    std::vector<std::unique_ptr<Rewind>> rewinds;
    void bind(arch::PortId port, npu::EthosU& npu, mem::MemorySystem& memory) override {
      const std::string name = npu.ports[port.index].basename();
      checkers.push_back(std::make_unique<BaseProtocolChecker>(("checker_" + name).c_str()));
      rewinds.push_back(std::make_unique<Rewind>(("rewind_" + name).c_str()));
      npu.ports[port.index].bind(checkers.back()->target);
      checkers.back()->initiator.bind(rewinds.back()->in);
      rewinds.back()->out.bind(memory.npuPorts[port.index]);
    }
  };
  const io::CompiledNetwork net = io::loadNetworkFromBytes(io::buildDemoNetworkTflite(), "<demo>");
  config::ConfigRequest request;
  request.overrides = {"sim.transport=tlm"};
  const config::SystemParams params = platform::resolveForModel(request, net);
  Binder binder;
  platform::RunObservers observers;
  observers.binder = &binder;
  platform::simulate(net, io::decodeAll(net), params, observers);
  bool caught = false;
  for (const auto& c : binder.checkers) caught = caught || reported(*c, "time");
  CHECK(caught);
}


} // namespace npusim
