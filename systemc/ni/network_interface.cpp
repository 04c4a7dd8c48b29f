#include "network_interface.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "multicast_route.h"

#include "ni_registers.h"
#include "prefetch.h"

namespace wormsim {

namespace {
std::uint64_t message_key(NodeId src, std::uint32_t seq) {
  return (static_cast<std::uint64_t>(src) << 32) | seq;
}
constexpr int kHeaderFields = 16;  // seq, tag, message bytes, offset: 4 bytes each
}  // namespace

NetworkInterface::NetworkInterface(const sc_core::sc_module_name& name, const NiParams& params,
                                   const RouteCompute& route_compute, MulticastTable& multicast,
                                   Scoreboard& scoreboard, Statistics& stats, EndpointHost& host,
                                   MessageLog& log, const Topology* topology)
    : sc_core::sc_module(name),
      socket("socket"),
      params_(params),
      per_flit_(addresses_per_header_flit(params.header_encoding, params.path_ir, params.nodes,
                                          params.flit_bytes)),
      route_compute_(route_compute),
      multicast_(multicast),
      scoreboard_(scoreboard),
      stats_(stats),
      host_(host),
      log_(log),
      tx_(static_cast<std::size_t>(params.layout.injection)),
      ejection_(static_cast<std::size_t>(params.layout.ejection), nullptr),
      reassembly_(params.id, params.layout.ejection, params.vcs, true),
      rx_(static_cast<std::size_t>(params.layout.ejection)) {
  if (params.layout.injection > ni::kMaxChannels || params.layout.ejection > ni::kMaxChannels)
    throw std::invalid_argument(
        fmt::format("{}: more than {} NI channels", sc_core::sc_module::name(), ni::kMaxChannels));
  for (TxChannel& ch : tx_) ch.wire = InjectionChannel(params.vcs, params.buffer_depth);
  socket.register_b_transport(this, &NetworkInterface::b_transport);
  if (params.background_load > 0) {
    if (topology == nullptr)
      throw std::invalid_argument(
          fmt::format("{}: background traffic needs the topology", sc_core::sc_module::name()));
    TrafficConfig traffic;
    traffic.pattern = params.background_pattern;
    picker_ = std::make_unique<DestinationPicker>(*topology, traffic);
    background_rng_ = std::make_unique<std::mt19937_64>(
        params.background_seed * 0x9e3779b97f4a7c15ull + params.id);
    background_probability_ =
        std::min(1.0, params.background_load / params.background_packet_length);
  }
}

void NetworkInterface::start(ActivityCalendar& calendar) {
  background_source_ = picker_ != nullptr && picker_->injects(params_.id);
  if (!background_source_) return;
  background_next_ = background_gap();
  if (background_next_ < background_stop_) calendar.wake(params_.component, background_next_);
}

Cycle NetworkInterface::background_gap() {
  // A Bernoulli arrival in every cycle with probability p: geometric gaps, drawn by inversion
  // (log1p keeps tiny p accurate), as the synthetic terminal draws them.
  const double p = background_probability_;
  if (p >= 1.0) return 0;
  const double u = 1.0 - std::generate_canonical<double, 53>(*background_rng_);  // (0, 1]
  const double gap = std::floor(std::log(u) / std::log1p(-p));
  return gap >= 1e18 ? Cycle{1} << 60 : static_cast<Cycle>(gap);
}

void NetworkInterface::create_background(Cycle now) {
  const NodeId dst = picker_->pick(params_.id, *background_rng_);
  if (dst == kNoNode) return;
  BackgroundPacket b;
  b.id = packet_sequence_++ * static_cast<PacketId>(params_.nodes) + params_.id;
  b.dst = dst;
  b.flits = params_.background_packet_length;
  PacketRecord record;
  record.src = params_.id;
  record.dst = dst;
  record.length = static_cast<std::uint32_t>(b.flits);
  record.created = now;
  record.measured = true;
  std::uint64_t h = kChecksumSeed;
  Flit scratch;
  for (int i = 0; i < b.flits; ++i) {
    fill_payload(b.id, static_cast<std::uint32_t>(i), params_.flit_bytes, scratch);
    h = checksum_update(h, scratch);
  }
  record.checksum = h;
  scoreboard_.on_created(b.id, record);
  stats_.on_created(b.flits, now);
  ++background_counts_.created;
  // The queue of the channel the packet leaves on (see the header).
  std::size_t c = 0;
  if (params_.layout.model == PortModel::kAllPort) {
    c = static_cast<std::size_t>(route_compute_.first_hop_port(params_.id, dst));
  } else if (params_.layout.model == PortModel::kKPort) {
    const auto work = [](const TxChannel& ch) {
      return ch.background.size() + ch.packets.size() + ch.queue.size() + (ch.wire.busy() ? 1 : 0);
    };
    for (std::size_t i = 1; i < tx_.size(); ++i)
      if (work(tx_[i]) < work(tx_[c])) c = i;
  }
  tx_[c].background.push_back(b);
  tx_work_ |= std::uint64_t{1} << c;
}

bool NetworkInterface::background_done(const Flit& tail, const PacketRecord& rec, Cycle now) {
  if (tail.message != kBackgroundMessage) return false;
  ++background_counts_.delivered;
  if (rec.created >= params_.background_warmup) {
    ++background_counts_.measured;
    background_counts_.latency_sum += now - rec.created;
    background_counts_.network_latency_sum += now - rec.injected;
  }
  return true;
}

void NetworkInterface::attach_injection(int channel, Link* link) {
  tx_[static_cast<std::size_t>(channel)].wire.attach(link);
  link->credit_watch = &tx_credits_pending_;
  link->credit_watch_bit = std::uint64_t{1} << channel;
}
void NetworkInterface::attach_ejection(int channel, Link* link) {
  ejection_[static_cast<std::size_t>(channel)] = link;
  link->flit_watch = &eject_pending_;
  link->flit_watch_bit = std::uint64_t{1} << channel;
}

int NetworkInterface::packet_payload_bytes() const {
  return params_.max_packet_bytes > 0 ? params_.max_packet_bytes - params_.header_bytes
                                      : static_cast<int>(ni::kMaxMessageBytes);
}

std::uint64_t NetworkInterface::message_flits(std::uint64_t bytes, const NiParams& p) {
  const std::uint64_t per_packet =
      p.max_packet_bytes > 0 ? static_cast<std::uint64_t>(p.max_packet_bytes - p.header_bytes)
                             : std::max<std::uint64_t>(bytes, 1);
  const std::uint64_t fb = static_cast<std::uint64_t>(p.flit_bytes);
  const std::uint64_t h = static_cast<std::uint64_t>(p.header_bytes);
  std::uint64_t flits = 0;
  std::uint64_t left = bytes;
  do {
    const std::uint64_t b = std::min(left, per_packet);
    flits += std::max<std::uint64_t>(1, (h + b + fb - 1) / fb);
    left -= b;
  } while (left > 0);
  return flits;
}

std::size_t NetworkInterface::queued_packets() const {
  std::size_t n = 0;
  for (const TxChannel& ch : tx_)
    n += ch.queue.size() + ch.packets.size() + ch.background.size() + (ch.wire.busy() ? 1 : 0);
  return n;
}

std::size_t NetworkInterface::unread_messages() const {
  std::size_t n = 0;
  for (const auto& q : rx_) n += q.size();
  return n;
}

// ---------------------------------------------------------------------------------------------
// Register interface

std::string NetworkInterface::register_name(std::uint64_t addr) const {
  auto channel_name =
      [&](std::uint64_t base, const char* prefix,
          std::initializer_list<std::pair<std::uint64_t, const char*>> regs) -> std::string {
    const std::uint64_t c = (addr - base) / ni::kChannelStride;
    const std::uint64_t off = (addr - base) % ni::kChannelStride;
    for (const auto& [o, n] : regs)
      if (o == off) return fmt::format("{}{}_{}", prefix, c, n);
    return fmt::format("{}{}+0x{:x}", prefix, c, off);
  };
  switch (addr) {
    case ni::kNodeId: return "NODE_ID";
    case ni::kNodeCount: return "NODE_COUNT";
    case ni::kTxChannels: return "TX_CHANNELS";
    case ni::kRxChannels: return "RX_CHANNELS";
    case ni::kCycleLo: return "CYCLE_LO";
    case ni::kCycleHi: return "CYCLE_HI";
    case ni::kIrqStatus: return "IRQ_STATUS";
    case ni::kIrqEnable: return "IRQ_ENABLE";
    case ni::kIrqAck: return "IRQ_ACK";
    case ni::kMaxMessage: return "MAX_MESSAGE";
    case ni::kPacketPayload: return "PACKET_PAYLOAD";
    default: break;
  }
  if (addr >= ni::kTxBase && addr < ni::kTxBase + ni::kChannelStride * ni::kMaxChannels)
    return channel_name(ni::kTxBase, "TX",
                        {{ni::kTxDst, "DST"},
                         {ni::kTxLen, "LEN"},
                         {ni::kTxTag, "TAG"},
                         {ni::kTxDoorbell, "DOORBELL"},
                         {ni::kTxStatus, "STATUS"},
                         {ni::kTxSeq, "SEQ"},
                         {ni::kTxDlist, "DLIST"},
                         {ni::kTxDcount, "DCOUNT"},
                         {ni::kTxDone, "DONE"}});
  if (addr >= ni::kRxBase && addr < ni::kRxBase + ni::kChannelStride * ni::kMaxChannels)
    return channel_name(ni::kRxBase, "RX",
                        {{ni::kRxCount, "COUNT"},
                         {ni::kRxSrc, "SRC"},
                         {ni::kRxTag, "TAG"},
                         {ni::kRxLen, "LEN"},
                         {ni::kRxPop, "POP"},
                         {ni::kRxSeq, "SEQ"}});
  if (addr >= ni::kTxWindow && addr < ni::kTxWindow + ni::kWindowStride * ni::kMaxChannels)
    return fmt::format("TX{}_WINDOW+0x{:x}", (addr - ni::kTxWindow) / ni::kWindowStride,
                       (addr - ni::kTxWindow) % ni::kWindowStride);
  if (addr >= ni::kRxWindow && addr < ni::kRxWindow + ni::kWindowStride * ni::kMaxChannels)
    return fmt::format("RX{}_WINDOW+0x{:x}", (addr - ni::kRxWindow) / ni::kWindowStride,
                       (addr - ni::kRxWindow) % ni::kWindowStride);
  return "unmapped";
}

void NetworkInterface::fault(std::uint64_t addr, const std::string& what, Cycle now) const {
  throw std::runtime_error(fmt::format("node {}, cycle {}: register {} (0x{:x}): {}", params_.id,
                                       now, register_name(addr), addr, what));
}

void NetworkInterface::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time&) {
  const Cycle now = host_.current_cycle();
  const std::uint64_t addr = trans.get_address();
  const std::size_t len = trans.get_data_length();
  unsigned char* data = trans.get_data_ptr();
  const bool write = trans.get_command() == tlm::TLM_WRITE_COMMAND;
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  try {
    if (trans.get_byte_enable_ptr() != nullptr) fault(addr, "byte enables are not supported", now);
    const int tx_channels = params_.layout.injection;
    const int rx_channels = params_.layout.ejection;
    if (addr >= ni::kTxWindow && addr < ni::kTxWindow + ni::kWindowStride * ni::kMaxChannels) {
      const int c = static_cast<int>((addr - ni::kTxWindow) / ni::kWindowStride);
      const std::uint64_t off = (addr - ni::kTxWindow) % ni::kWindowStride;
      if (c >= tx_channels)
        fault(addr, fmt::format("TX channel {} does not exist ({} channels)", c, tx_channels), now);
      if (!write) fault(addr, "the TX window is write-only", now);
      if (off + len > ni::kMaxMessageBytes)
        fault(
            addr,
            fmt::format("a {}-byte write runs past the {}-byte window", len, ni::kMaxMessageBytes),
            now);
      std::vector<std::uint8_t>& w = tx_[static_cast<std::size_t>(c)].window;
      if (w.size() < off + len) w.resize(off + len);
      std::memcpy(w.data() + off, data, len);
      return;
    }
    if (addr >= ni::kRxWindow && addr < ni::kRxWindow + ni::kWindowStride * ni::kMaxChannels) {
      const int c = static_cast<int>((addr - ni::kRxWindow) / ni::kWindowStride);
      const std::uint64_t off = (addr - ni::kRxWindow) % ni::kWindowStride;
      if (c >= rx_channels)
        fault(addr, fmt::format("RX channel {} does not exist ({} channels)", c, rx_channels), now);
      if (write) fault(addr, "the RX window is read-only", now);
      if (visible_count(c, now) == 0) fault(addr, "read with an empty receive queue", now);
      const auto& msg = rx_[static_cast<std::size_t>(c)].front().message;
      if (off + len > msg.data->size())
        fault(addr,
              fmt::format("a {}-byte read at offset {} runs past the {}-byte message", len, off,
                          msg.data->size()),
              now);
      std::memcpy(data, msg.data->data() + off, len);
      return;
    }
    if (len != 4 || addr % 4 != 0)
      fault(addr, fmt::format("registers take aligned 4-byte accesses (got {} bytes)", len), now);
    std::uint32_t value = 0;
    if (write) {
      std::memcpy(&value, data, 4);
      write_register(addr, value, now);
    } else {
      read_register(addr, value, now);
      std::memcpy(data, &value, 4);
    }
  } catch (const std::runtime_error& e) {
    auto* ext = new NiFault;
    ext->message = e.what();
    trans.set_extension(ext);  // freed by the initiator (clear_extension + delete)
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  }
}

std::uint32_t NetworkInterface::visible_count(int channel, Cycle now) const {
  std::uint32_t n = 0;
  for (const RxEntry& e : rx_[static_cast<std::size_t>(channel)]) {
    if (e.visible > now) break;
    ++n;
  }
  return n;
}

void NetworkInterface::read_register(std::uint64_t addr, std::uint32_t& value, Cycle now) {
  switch (addr) {
    case ni::kNodeId: value = params_.id; return;
    case ni::kNodeCount: value = static_cast<std::uint32_t>(params_.nodes); return;
    case ni::kTxChannels: value = static_cast<std::uint32_t>(params_.layout.injection); return;
    case ni::kRxChannels: value = static_cast<std::uint32_t>(params_.layout.ejection); return;
    case ni::kCycleLo: value = static_cast<std::uint32_t>(now); return;
    case ni::kCycleHi: value = static_cast<std::uint32_t>(now >> 32); return;
    case ni::kIrqStatus: {
      value = 0;
      for (int c = 0; c < params_.layout.ejection; ++c)
        if (visible_count(c, now) > 0) value |= ni::kIrqRx;
      if ((irq_status_ & ni::kIrqTx) && tx_irq_visible_ <= now) value |= ni::kIrqTx;
      return;
    }
    case ni::kIrqEnable: value = irq_enable_; return;
    case ni::kMaxMessage: value = ni::kMaxMessageBytes; return;
    case ni::kPacketPayload:
      value = params_.max_packet_bytes > 0
                  ? static_cast<std::uint32_t>(params_.max_packet_bytes - params_.header_bytes)
                  : 0;
      return;
    default: break;
  }
  if (addr >= ni::kTxBase && addr < ni::kTxBase + ni::kChannelStride * ni::kMaxChannels) {
    const int c = static_cast<int>((addr - ni::kTxBase) / ni::kChannelStride);
    if (c >= params_.layout.injection)
      fault(addr,
            fmt::format("TX channel {} does not exist ({} channels)", c, params_.layout.injection),
            now);
    const TxChannel& ch = tx_[static_cast<std::size_t>(c)];
    switch ((addr - ni::kTxBase) % ni::kChannelStride) {
      case ni::kTxDst: value = ch.dst; return;
      case ni::kTxLen: value = ch.len; return;
      case ni::kTxTag: value = ch.tag; return;
      case ni::kTxStatus:
        value =
            static_cast<std::uint32_t>(params_.tx_queue_depth - static_cast<int>(ch.queue.size())) |
            (ch.firmware_busy() ? (1u << 16) : 0u);
        return;
      case ni::kTxSeq: value = ch.last_seq; return;
      case ni::kTxDcount: value = static_cast<std::uint32_t>(ch.dlist.size()); return;
      case ni::kTxDone: value = now > ch.done_at ? ch.done_seq : ch.done_before; return;
      default: fault(addr, "not readable", now);
    }
  }
  if (addr >= ni::kRxBase && addr < ni::kRxBase + ni::kChannelStride * ni::kMaxChannels) {
    const int c = static_cast<int>((addr - ni::kRxBase) / ni::kChannelStride);
    if (c >= params_.layout.ejection)
      fault(addr,
            fmt::format("RX channel {} does not exist ({} channels)", c, params_.layout.ejection),
            now);
    const std::uint64_t off = (addr - ni::kRxBase) % ni::kChannelStride;
    if (off == ni::kRxCount) {
      value = visible_count(c, now);
      return;
    }
    if (off != ni::kRxSrc && off != ni::kRxTag && off != ni::kRxLen && off != ni::kRxSeq)
      fault(addr, "not readable", now);
    if (visible_count(c, now) == 0) fault(addr, "read with an empty receive queue", now);
    const Message& m = rx_[static_cast<std::size_t>(c)].front().message;
    value = off == ni::kRxSrc   ? m.src
            : off == ni::kRxTag ? m.tag
            : off == ni::kRxLen ? static_cast<std::uint32_t>(m.data->size())
                                : m.seq;
    return;
  }
  fault(addr, "not a readable register", now);
}

void NetworkInterface::write_register(std::uint64_t addr, std::uint32_t value, Cycle now) {
  switch (addr) {
    case ni::kIrqEnable: irq_enable_ = value & (ni::kIrqRx | ni::kIrqTx); return;
    case ni::kIrqAck: irq_status_ &= ~(value & ni::kIrqTx); return;
    default: break;
  }
  if (addr >= ni::kTxBase && addr < ni::kTxBase + ni::kChannelStride * ni::kMaxChannels) {
    const int c = static_cast<int>((addr - ni::kTxBase) / ni::kChannelStride);
    if (c >= params_.layout.injection)
      fault(addr,
            fmt::format("TX channel {} does not exist ({} channels)", c, params_.layout.injection),
            now);
    TxChannel& ch = tx_[static_cast<std::size_t>(c)];
    switch ((addr - ni::kTxBase) % ni::kChannelStride) {
      case ni::kTxDst: ch.dst = value; return;
      case ni::kTxLen: ch.len = value; return;
      case ni::kTxTag: ch.tag = value; return;
      case ni::kTxDlist:
        if (params_.multidest == MultidestMode::kNone)
          fault(addr, "this network has no multidestination worms (network.router.multidest: none)",
                now);
        if (ch.dlist.size() >= static_cast<std::size_t>(params_.nodes))
          fault(addr, fmt::format("more destinations than the {} nodes", params_.nodes), now);
        ch.dlist.push_back(value);
        return;
      case ni::kTxDcount:
        if (value != 0) fault(addr, fmt::format("write 0 to clear the list (got {})", value), now);
        ch.dlist.clear();
        return;
      case ni::kTxDoorbell:
        if (value != 1)
          fault(addr, fmt::format("write 1 to ring the doorbell (got {})", value), now);
        doorbell(c, now);
        return;
      default: fault(addr, "read-only", now);
    }
  }
  if (addr >= ni::kRxBase && addr < ni::kRxBase + ni::kChannelStride * ni::kMaxChannels) {
    const int c = static_cast<int>((addr - ni::kRxBase) / ni::kChannelStride);
    if (c >= params_.layout.ejection)
      fault(addr,
            fmt::format("RX channel {} does not exist ({} channels)", c, params_.layout.ejection),
            now);
    if ((addr - ni::kRxBase) % ni::kChannelStride != ni::kRxPop) fault(addr, "read-only", now);
    if (value != 1) fault(addr, fmt::format("write 1 to pop (got {})", value), now);
    if (visible_count(c, now) == 0) fault(addr, "pop from an empty receive queue", now);
    rx_[static_cast<std::size_t>(c)].pop_front();
    return;
  }
  fault(addr, "not a writable register", now);
}

int NetworkInterface::list_header_bytes(std::size_t destinations) const {
  if (destinations == 0) return 0;
  const int extra = header_flits(params_.header_encoding, destinations, params_.nodes,
                                 params_.flit_bytes, params_.path_ir) -
                    1;
  return extra * params_.flit_bytes;
}

void NetworkInterface::doorbell(int c, Cycle now) {
  TxChannel& ch = tx_[static_cast<std::size_t>(c)];
  const std::uint64_t reg = ni::kTxBase + ni::kChannelStride * static_cast<std::uint64_t>(c);
  const bool multicast = !ch.dlist.empty();
  if (multicast) {
    // The error names TXc_DLIST and the offending destination.
    const std::string why = multicast_list_violation(route_compute_, params_.multidest, params_.id,
                                                     ch.dlist, params_.nodes);
    if (!why.empty()) fault(reg + ni::kTxDlist, why, now);
    ch.dst = ch.dlist.front();
  }
  if (ch.dst >= static_cast<std::uint32_t>(params_.nodes))
    fault(reg + ni::kTxDst,
          fmt::format("destination node {} does not exist ({} nodes)", ch.dst, params_.nodes), now);
  if (ch.dst == params_.id)
    fault(reg + ni::kTxDst, fmt::format("destination {} is this node", ch.dst), now);
  if (ch.len > ni::kMaxMessageBytes)
    fault(reg + ni::kTxLen,
          fmt::format("{} bytes exceed the {}-byte maximum message", ch.len, ni::kMaxMessageBytes),
          now);
  if (ch.len > ch.window.size())
    fault(
        reg + ni::kTxLen,
        fmt::format("{} bytes, but only {} were written to the TX{} window since the last doorbell",
                    ch.len, ch.window.size(), c),
        now);
  if (static_cast<int>(ch.queue.size()) >= params_.tx_queue_depth)
    fault(reg + ni::kTxDoorbell,
          fmt::format("descriptor queue full ({} entries); wait for a free slot (TX{}_STATUS)",
                      params_.tx_queue_depth, c),
          now);
  if (params_.layout.model == PortModel::kAllPort) {
    const int first = route_compute_.first_hop_port(params_.id, ch.dst);
    if (first != c)
      fault(reg + ni::kTxDoorbell,
            fmt::format("all-port: a message to node {} leaves on TX channel {} (its first hop), "
                        "not {}",
                        ch.dst, first, c),
            now);
  }
  Descriptor d;
  d.message.dests = std::move(ch.dlist);
  ch.dlist.clear();
  d.message.src = params_.id;
  d.message.dst = ch.dst;
  d.message.seq = ++message_sequence_;
  d.message.tag = ch.tag;
  // The DMA engine takes the buffer as it is (no copy of up to 16 MiB); bytes staged past LEN
  // are dropped with it.
  ch.window.resize(ch.len);
  d.message.data = std::make_shared<std::vector<std::uint8_t>>(std::move(ch.window));
  d.ready = now + 1;
  ch.window = {};
  ch.last_seq = d.message.seq;
  MessageRecord rec;
  rec.src = params_.id;
  rec.dst = ch.dst;
  rec.seq = d.message.seq;
  rec.tag = ch.tag;
  rec.bytes = ch.len;
  rec.tx_channel = c;
  rec.doorbell = now;
  if (multicast)
    log_.on_doorbell_multicast(rec, d.message.dests);
  else
    log_.on_doorbell(rec);
  ch.queue.push_back(std::move(d));
  tx_work_ |= std::uint64_t{1} << c;
  host_.external_wake(params_.component, now + 1);
}

void NetworkInterface::raise(std::uint32_t bits, Cycle visible) {
  if ((irq_enable_ & bits) == 0) return;
  const Cycle now = host_.current_cycle();
  irq_event_.notify(host_.clock_period() * static_cast<double>(visible - now));
}

// ---------------------------------------------------------------------------------------------
// DMA engines

void NetworkInterface::packetise(TxChannel& ch, const Descriptor& d, Cycle now) {
  auto message = std::make_shared<const Message>(d.message);
  const std::uint32_t total = static_cast<std::uint32_t>(message->data->size());
  const std::uint32_t per_packet = static_cast<std::uint32_t>(packet_payload_bytes());
  std::uint32_t offset = 0;
  do {
    Packet p;
    p.id = packet_sequence_++ * static_cast<PacketId>(params_.nodes) + params_.id;
    p.message = message;
    p.src = message->src;
    p.dst = message->dst;
    p.seq = message->seq;
    p.tag = message->tag;
    p.message_bytes = total;
    p.data = message->data->data();
    p.offset = offset;
    p.bytes = std::min(per_packet, total - offset);
    if (address_flit_layout() && !message->dests.empty()) {
      p.address_flits = list_header_bytes(message->dests.size()) / params_.flit_bytes;
      p.header = params_.header_bytes;
    } else {
      p.header = params_.header_bytes + list_header_bytes(message->dests.size());
    }
    const int wire = p.header + static_cast<int>(p.bytes);
    p.flits = p.address_flits + std::max(1, (wire + params_.flit_bytes - 1) / params_.flit_bytes);
    if (p.flits > 65535)
      throw std::runtime_error(
          fmt::format("node {}: a {}-byte packet needs {} flits (> 65535); "
                      "set node.max_packet_bytes",
                      params_.id, wire, p.flits));
    PacketRecord record;
    record.src = params_.id;
    record.dst = message->dst;
    if (!message->dests.empty()) {
      record.multidestination = true;
      record.remaining = message->dests;
      if (params_.path_ir == PathIr::kMinimal) {
        record.strip_path = message->dests;
        record.strip_per_flit = per_flit();
      }
      p.mcast = multicast_.add(params_.multidest, params_.id, message->dests, p.flits);
    }
    record.length = static_cast<std::uint32_t>(p.flits);
    record.created = now;
    record.measured = true;
    std::uint64_t h = kChecksumSeed;
    Flit scratch;
    for (int i = 0; i < p.flits; ++i) {
      fill_flit(p, i, scratch);
      h = checksum_update(h, scratch);
    }
    record.checksum = h;
    scoreboard_.on_created(p.id, record);
    stats_.on_created(p.flits, now, record.multidestination);
    log_.map_packet(p.id, params_.id, message->seq);
    if (p.mcast != 0)
      if (MessageRecord* first = log_.find(params_.id, message->seq)) {
        first->flit_hops += params_.path_ir == PathIr::kMinimal
                                ? stripped_path_flit_hops(route_compute_, params_.id,
                                                          message->dests, p.flits, per_flit())
                                : static_cast<std::uint64_t>(p.flits) *
                                      multicast_links(route_compute_, params_.multidest, params_.id,
                                                      message->dests);
        first->list_header_flits += static_cast<std::uint64_t>(
            list_header_bytes(message->dests.size()) / params_.flit_bytes);
      }
    ch.packets.push_back(std::move(p));
    offset += ch.packets.back().bytes;
  } while (offset < total);
}

void NetworkInterface::fill_flit(const Packet& p, int index, Flit& flit) const {
  flit.packet_id = p.id;
  flit.src = p.src;
  flit.dst = p.dst;
  flit.index = static_cast<std::uint16_t>(index);
  const bool head = index == 0;
  const bool tail = index == p.flits - 1;
  flit.type = head ? (tail ? FlitType::kHeadTail : FlitType::kHead)
                   : (tail ? FlitType::kTail : FlitType::kBody);
  flit.mcast = p.mcast;
  if (p.mcast != 0 && address_flit_layout())
    flit.dst = address_flit_target(multicast_.at(p.mcast), index, per_flit());
  flit.message = p.seq;
  flit.tag = p.tag;
  flit.message_bytes = p.message_bytes;
  flit.offset = p.offset;
  // The packet on the wire: header_bytes of header (the four fields above, little-endian,
  // as far as they fit, then zeros), then the data bytes.
  const int fb = params_.flit_bytes;
  const int wire = p.header + static_cast<int>(p.bytes);
  // Address flits carry no payload bytes (their address is the worm's list, Flit::mcast).
  const int first = index < p.address_flits ? wire : (index - p.address_flits) * fb;
  const int n = std::max(0, std::min(fb, wire - first));
  flit.payload.fill(0);
  int i = 0;
  if (first < p.header) {
    std::uint8_t header[kHeaderFields];
    const std::uint32_t fields[4] = {flit.message, flit.tag, flit.message_bytes, flit.offset};
    for (int k = 0; k < kHeaderFields; ++k)
      header[k] = static_cast<std::uint8_t>(fields[k / 4] >> (8 * (k % 4)));
    for (; i < n && first + i < p.header; ++i) {
      const int w = first + i;
      flit.payload[static_cast<std::size_t>(i)] = w < kHeaderFields ? header[w] : 0;
    }
  }
  for (; i < n; ++i)
    flit.payload[static_cast<std::size_t>(i)] =
        p.data[p.offset + static_cast<std::uint32_t>(first + i - p.header)];
  flit.payload_bytes = static_cast<std::uint8_t>(n);
}

NetworkEndpoint::StepResult NetworkInterface::step(Cycle now, ActivityCalendar& calendar,
                                                   bool measuring) {
  StepResult result;
  result.moved = eject(now);
  collect_watched_credits(tx_credits_pending_, now, [this](int c) -> InjectionChannel& {
    return tx_[static_cast<std::size_t>(c)].wire;
  });
  if (background_source_ && background_next_ == now && now < background_stop_) {
    create_background(now);
    background_next_ = now + 1 + background_gap();
    if (background_next_ < background_stop_) calendar.wake(params_.component, background_next_);
  }
  const int injected = inject(now, calendar, measuring);
  result.moved += injected;
  result.busy = injected > 0 && tx_work_ != 0;
  return result;
}

void NetworkInterface::prefetch(int stage) const {
  const auto fetch_range = [](const void* from, const void* to) { prefetch_between(from, to); };
  switch (stage) {
    case 1:
      fetch_range(&params_, &irq_event_);
      prefetch_line(&background_source_);
      return;
    case 2:
      prefetch_line(ejection_.data());
      for (std::uint64_t c = tx_work_ | tx_credits_pending_; c != 0; c &= c - 1) {
        const TxChannel& ch = tx_[static_cast<std::size_t>(__builtin_ctzll(c))];
        fetch_range(&ch, &ch.dst);
      }
      return;
    default:
      for (std::uint64_t c = eject_pending_; c != 0; c &= c - 1) {
        ejection_[static_cast<std::size_t>(__builtin_ctzll(c))]->flits.prefetch();
      }
      for (std::uint64_t c = tx_work_ | tx_credits_pending_; c != 0; c &= c - 1) {
        const TxChannel& ch = tx_[static_cast<std::size_t>(__builtin_ctzll(c))];
        ch.wire.prefetch();
        // The bytes of the packet's next flit.
        const Packet& p = ch.packet;
        if (p.data != nullptr && ch.wire.busy() && !ch.background_on_wire)
          prefetch_line(p.data + p.offset +
                        std::max(0, ch.wire.next_flit() * params_.flit_bytes - p.header));
      }
      return;
  }
}

int NetworkInterface::inject(Cycle now, ActivityCalendar& calendar, bool measuring) {
  int moved = 0;
  const RouteResult unicast = route_compute_.injection_vcs(TrafficClass::kUnicast);
  const RouteResult worms = route_compute_.injection_vcs(TrafficClass::kMultidest);
  // One channel's cycle; returns the flits it sent (0 or 1).
  const auto inject_channel = [&](TxChannel& ch) -> int {
    if (!ch.wire.busy()) {
      if (ch.packets.empty() && !ch.queue.empty() && ch.queue.front().ready <= now) {
        packetise(ch, ch.queue.front(), now);
        ch.queue.pop_front();
        // The freed descriptor slot is visible from the next cycle.
        irq_status_ |= ni::kIrqTx;
        tx_irq_visible_ = now + 1;
        raise(ni::kIrqTx, now + 1);
      }
      // Firmware and background packets take turns for a free wire (round-robin). The one
      // whose turn it is tries first; the other may start when it finds no free VC, which
      // happens only when their VC ranges differ (VCs reserved for a firmware worm).
      const bool background_first = ch.background_turn || ch.packets.empty();
      bool started = false;
      for (int k = 0; k < 2 && !started; ++k) {
        if ((k == 0) == background_first) {
          if (ch.background.empty() ||
              !ch.wire.start(ch.background.front().flits, unicast.vc_lo, unicast.vc_hi))
            continue;
          ch.background_packet = ch.background.front();
          ch.background.pop_front();
          ch.background_on_wire = true;
          ch.background_turn = false;
        } else {
          if (ch.packets.empty()) continue;
          const RouteResult& vcs = ch.packets.front().mcast != 0 ? worms : unicast;
          if (!ch.wire.start(ch.packets.front().flits, vcs.vc_lo, vcs.vc_hi)) continue;
          ch.packet = std::move(ch.packets.front());
          ch.packets.pop_front();
          ch.background_on_wire = false;
          ch.background_turn = true;
        }
        started = true;
      }
      if (!started) return 0;
    }
    if (!ch.wire.can_send()) return 0;
    if (ch.background_on_wire) {
      const BackgroundPacket& b = ch.background_packet;
      Flit flit;
      flit.packet_id = b.id;
      flit.src = params_.id;
      flit.dst = b.dst;
      flit.index = static_cast<std::uint16_t>(ch.wire.next_flit());
      const bool head = ch.wire.next_flit() == 0;
      const bool tail = ch.wire.next_is_tail();
      flit.type = head ? (tail ? FlitType::kHeadTail : FlitType::kHead)
                       : (tail ? FlitType::kTail : FlitType::kBody);
      flit.message = kBackgroundMessage;
      fill_payload(flit.packet_id, flit.index, params_.flit_bytes, flit);
      if (head) scoreboard_.on_injected(flit.packet_id, now);
      ch.wire.send(now, calendar, measuring, stats_, flit);
      if (tail) ch.background_on_wire = false;
      return 1;
    }
    Flit flit;
    fill_flit(ch.packet, ch.wire.next_flit(), flit);
    if (flit.head()) {
      scoreboard_.on_injected(flit.packet_id, now);
      for (MessageRecord& rec : log_.copies(params_.id, flit.message))
        if (rec.injected == MessageRecord::kNone) rec.injected = now;
    }
    ch.wire.send(now, calendar, measuring, stats_, flit);
    if (flit.tail()) {
      if (ch.packet.offset + ch.packet.bytes == ch.packet.message_bytes) {
        // The message's last flit is out: a blocking send may return (TXc_DONE).
        ch.done_before = now > ch.done_at ? ch.done_seq : ch.done_before;
        ch.done_seq = ch.packet.seq;
        ch.done_at = now;
        irq_status_ |= ni::kIrqTx;
        tx_irq_visible_ = now + 1;
        raise(ni::kIrqTx, now + 1);
      }
      ch.packet = Packet{};
    }
    return 1;
  };
  // Channels without work (tx_work_ clear) would do nothing: only the others are visited, in
  // channel order, and each keeps its bit only while it still has work.
  for (std::uint64_t work = tx_work_; work != 0; work &= work - 1) {
    const int c = __builtin_ctzll(work);
    TxChannel& ch = tx_[static_cast<std::size_t>(c)];
    moved += inject_channel(ch);
    if (!ch.wire.busy() && ch.packets.empty() && ch.queue.empty() && ch.background.empty())
      tx_work_ &= ~(std::uint64_t{1} << c);
  }
  return moved;
}

int NetworkInterface::eject(Cycle now) {
  int moved = 0;
  for (std::uint64_t pending = eject_pending_; pending != 0; pending &= pending - 1) {
    const int c = __builtin_ctzll(pending);
    Link* link = ejection_[static_cast<std::size_t>(c)];
    while (link->flits.ready(now)) {
      consume(c, link->flits.front(), now);
      link->flits.pop();
      ++moved;
    }
    if (link->flits.empty()) eject_pending_ &= ~(std::uint64_t{1} << c);
  }
  return moved;
}

void NetworkInterface::consume(int channel, const Flit& flit, Cycle now) {
  if (const PacketReassembly::Packet* p =
          reassembly_.accept(channel, flit, now, scoreboard_, stats_))
    complete_packet(channel, flit, *p, now);
}

void NetworkInterface::complete_packet(int channel, const Flit& tail,
                                       const PacketReassembly::Packet& r, Cycle now) {
  const PacketRecord* rec =
      scoreboard_.on_delivered(tail.packet_id, params_.id, r.first, r.flits, r.checksum, now);
  if (rec == nullptr) return;  // a violation was recorded
  stats_.on_delivered(tail.packet_id, *rec, now, static_cast<int>(tail.hops));
  if (background_done(tail, *rec, now)) return;
  std::size_t header = static_cast<std::size_t>(params_.header_bytes);
  if (tail.mcast != 0) {
    if (!address_flit_layout())
      header += static_cast<std::size_t>(list_header_bytes(multicast_.at(tail.mcast).dests.size()));
    multicast_.consumed(tail.mcast);
  } else {
    log_.forget_packet(tail.packet_id);
  }
  if (r.bytes.size() < header) {
    scoreboard_.violation(fmt::format("cycle {}: node {}: packet {} is shorter than its header",
                                      now, params_.id, tail.packet_id));
    return;
  }
  const std::size_t data_bytes = r.bytes.size() - header;
  const std::uint64_t key = message_key(tail.src, tail.message);
  Assembly& a = assembly_[key];
  if (!a.data) a.data = std::make_shared<std::vector<std::uint8_t>>(tail.message_bytes);
  if (tail.offset + data_bytes > a.data->size()) {
    scoreboard_.violation(fmt::format("cycle {}: node {}: packet {} overruns message {}/{}", now,
                                      params_.id, tail.packet_id, tail.src, tail.message));
    return;
  }
  std::copy(r.bytes.begin() + static_cast<std::ptrdiff_t>(header), r.bytes.end(),
            a.data->begin() + tail.offset);
  a.received += static_cast<std::uint32_t>(data_bytes);
  MessageRecord* m = log_.find(tail.src, tail.message, params_.id);
  if (m != nullptr) {
    ++m->packets;
    m->flits += r.flits;
    m->hops = static_cast<int>(tail.hops);
    // Link usage: a unicast packet used its hops once per flit. A multidestination copy
    // counts only the links no earlier-delivered copy of this packet used: path copies add
    // the hops beyond the previous destination; tree copies are counted by the source (see
    // MessageRecord::flit_hops).
    if (tail.mcast == 0) m->flit_hops += static_cast<std::uint64_t>(r.flits) * tail.hops;
  }
  if (a.received < tail.message_bytes) return;
  RxEntry e;
  e.message.src = tail.src;
  e.message.dst = params_.id;
  e.message.seq = tail.message;
  e.message.tag = tail.tag;
  e.message.data = std::move(a.data);
  e.visible = now + 1;
  assembly_.erase(key);
  rx_[static_cast<std::size_t>(channel)].push_back(std::move(e));
  if (m != nullptr) {
    m->delivered = now;
    m->rx_channel = channel;
  }
  raise(ni::kIrqRx, now + 1);
}

}  // namespace wormsim
