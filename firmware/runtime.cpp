#include "runtime.h"

#include "multicast_route.h"
#include "ni_registers.h"

namespace wormsim::fw {

namespace {
std::uint64_t tx_reg(int channel, std::uint64_t offset) {
  return ni::kTxBase + ni::kChannelStride * static_cast<std::uint64_t>(channel) + offset;
}
std::uint64_t rx_reg(int channel, std::uint64_t offset) {
  return ni::kRxBase + ni::kChannelStride * static_cast<std::uint64_t>(channel) + offset;
}
}  // namespace

Runtime::Runtime(ProcessorBus& bus, const Topology& topology, const RouteCompute& routing,
                 const PortLayout& layout)
    : bus_(bus), topology_(topology), routing_(routing), layout_(layout) {
  id_ = bus_.read32(ni::kNodeId);
  nodes_ = static_cast<int>(bus_.read32(ni::kNodeCount));
  tx_channels_ = static_cast<int>(bus_.read32(ni::kTxChannels));
  rx_channels_ = static_cast<int>(bus_.read32(ni::kRxChannels));
  packet_payload_ = bus_.read32(ni::kPacketPayload);
  bus_.write32(ni::kIrqEnable, ni::kIrqRx | ni::kIrqTx);
}

Cycle Runtime::now() {
  const std::uint32_t lo = bus_.read32(ni::kCycleLo);
  const std::uint32_t hi = bus_.read32(ni::kCycleHi);
  return (static_cast<Cycle>(hi) << 32) | lo;
}

std::uint64_t Runtime::packets(std::size_t bytes) const {
  if (packet_payload_ == 0 || bytes == 0) return 1;
  return (bytes + packet_payload_ - 1) / packet_payload_;
}

Cycle Runtime::send_cost(std::size_t bytes) const {
  return bus_.alpha_cycles() + (packets(bytes) - 1) * bus_.send_packet_cycles();
}

void Runtime::wait_sent(int channel, std::uint32_t seq) {
  // Sequence numbers count up from 1 per NI and a channel sends its messages in order.
  for (;;) {
    bus_.write32(ni::kIrqAck, ni::kIrqTx);
    if (bus_.read32(tx_reg(channel, ni::kTxDone)) >= seq) return;
    bus_.wait_interrupt();
  }
}

std::uint32_t Runtime::free_slots(int channel) {
  return bus_.read32(tx_reg(channel, ni::kTxStatus)) & 0xffffu;
}

int Runtime::channel_for(NodeId dst) {
  for (;;) {
    if (layout_.model == PortModel::kAllPort && dst < static_cast<NodeId>(nodes_) && dst != id_) {
      const int c = first_hop(dst);
      if (free_slots(c) > 0) return c;
    } else if (layout_.model == PortModel::kKPort) {
      int with_room = -1;
      for (int c = 0; c < tx_channels_; ++c) {
        const std::uint32_t status = bus_.read32(tx_reg(c, ni::kTxStatus));
        if ((status & 0xffffu) == 0) continue;
        if ((status >> 16) == 0 && (status & 0xffffu) > 0) return c;  // idle DMA
        if (with_room < 0) with_room = c;
      }
      if (with_room >= 0) return with_room;
    } else {
      // One-port, or a destination the NI will reject (it reports the register error).
      if (free_slots(0) > 0 || layout_.model != PortModel::kOnePort) return 0;
    }
    bus_.write32(ni::kIrqAck, ni::kIrqTx);
    bus_.wait_interrupt();
  }
}

void Runtime::send(NodeId dst, const std::vector<std::uint8_t>& data, std::uint32_t tag) {
  const Cycle begin = now();
  bus_.busy(send_cost(data.size()));
  post(channel_for(dst), dst, data, tag, begin);
}

void Runtime::send_multicast(const std::vector<NodeId>& dests,
                             const std::vector<std::uint8_t>& data, std::uint32_t tag) {
  const Cycle begin = now();
  bus_.busy(send_cost(data.size()));
  const int c = channel_for(dests.empty() ? id_ : dests.front());
  bus_.write32(tx_reg(c, ni::kTxDcount), 0);
  for (NodeId d : dests) bus_.write32(tx_reg(c, ni::kTxDlist), d);
  post(c, dests.empty() ? id_ : dests.front(), data, tag, begin);
}

std::vector<std::vector<NodeId>> Runtime::conforming_paths(const std::vector<NodeId>& dests,
                                                           NodeId from) const {
  return split_into_paths(routing_, topology_, from == kNoNode ? id_ : from, dests);
}

void Runtime::post(int c, NodeId dst, const std::vector<std::uint8_t>& data, std::uint32_t tag,
                   Cycle begin) {
  bus_.write_block(ni::kTxWindow + ni::kWindowStride * static_cast<std::uint64_t>(c), data.data(),
                   data.size());
  bus_.write32(tx_reg(c, ni::kTxDst), dst);
  bus_.write32(tx_reg(c, ni::kTxLen), static_cast<std::uint32_t>(data.size()));
  bus_.write32(tx_reg(c, ni::kTxTag), tag);
  bus_.write32(tx_reg(c, ni::kTxDoorbell), 1);
  const std::uint32_t seq = bus_.read32(tx_reg(c, ni::kTxSeq));
  bus_.note_send(seq, begin);
  if (bus_.send_mode() == SendMode::kBlocking) wait_sent(c, seq);
}

Message Runtime::receive() {
  for (;;) {
    for (int c = 0; c < rx_channels_; ++c) {
      if (bus_.read32(rx_reg(c, ni::kRxCount)) == 0) continue;
      Message m;
      m.src = bus_.read32(rx_reg(c, ni::kRxSrc));
      m.tag = bus_.read32(rx_reg(c, ni::kRxTag));
      const std::uint32_t seq = bus_.read32(rx_reg(c, ni::kRxSeq));
      m.data.resize(bus_.read32(rx_reg(c, ni::kRxLen)));
      bus_.read_block(ni::kRxWindow + ni::kWindowStride * static_cast<std::uint64_t>(c),
                      m.data.data(), m.data.size());
      bus_.write32(rx_reg(c, ni::kRxPop), 1);
      const Cycle begin = now();
      const Cycle cost =
          bus_.gamma_cycles() + (packets(m.data.size()) - 1) * bus_.receive_packet_cycles();
      bus_.busy(cost);
      bus_.note_receive(m.src, seq, begin, begin + cost);
      return m;
    }
    bus_.wait_interrupt();
  }
}

}  // namespace wormsim::fw
