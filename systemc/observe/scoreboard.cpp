#include "scoreboard.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace wormsim {

namespace {
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
constexpr std::size_t kMaxReportedViolations = 20;
}  // namespace

void fill_payload(PacketId id, std::uint32_t index, int bytes, Flit& flit) {
  // Byte b is byte b % 8 (least significant first) of word b / 8; whole words are stored at
  // once on little-endian hosts, where that is their memory order.
  const std::uint64_t base = id * 0x10001ull + index * 0x1000193ull;
  int b = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  for (; b + 8 <= bytes; b += 8) {
    const std::uint64_t word = splitmix64(base + static_cast<std::uint64_t>(b));
    std::memcpy(flit.payload.data() + b, &word, sizeof word);
  }
#endif
  std::uint64_t word = 0;
  for (; b < bytes; ++b) {
    if (b % 8 == 0) word = splitmix64(base + static_cast<std::uint64_t>(b));
    flit.payload[static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(word >> (8 * (b % 8)));
  }
  flit.payload_bytes = static_cast<std::uint8_t>(bytes);
}

std::uint64_t checksum_update(std::uint64_t h, const Flit& flit) {
  for (std::size_t b = 0; b < flit.payload_bytes; ++b) {
    h ^= flit.payload[b];
    h *= 1099511628211ull;
  }
  return h;
}

Scoreboard::Scoreboard(int nodes, bool check_order) : nodes_(nodes), check_order_(check_order) {}

void Scoreboard::violation(std::string message) {
  if (violations_.size() < kMaxReportedViolations) violations_.push_back(std::move(message));
  ++violation_count_;
}

void Scoreboard::on_created(PacketId id, const PacketRecord& record) {
  if (!live_.emplace(id, record).second) violation(fmt::format("packet {} created twice", id));
}

void Scoreboard::on_injected(PacketId id, Cycle now) {
  auto it = live_.find(id);
  if (it != live_.end()) it->second.injected = now;
}

const PacketRecord* Scoreboard::on_delivered(PacketId id, NodeId at, std::uint32_t first,
                                             std::uint32_t flits, std::uint64_t checksum,
                                             Cycle now) {
  auto it = live_.find(id);
  if (it == live_.end()) {
    violation(
        fmt::format("cycle {}: node {} received packet {} which is not outstanding "
                    "(duplicate or never sent)",
                    now, at, id));
    return nullptr;
  }
  bool ok = true;
  const bool multicast = !it->second.remaining.empty();
  if (multicast) {  // multidestination: one delivery per destination
    std::vector<NodeId>& remaining = it->second.remaining;
    auto pos = std::find(remaining.begin(), remaining.end(), at);
    if (pos == remaining.end()) {
      violation(
          fmt::format("cycle {}: multidestination packet {} from {} delivered at node {}, "
                      "which is not one of its destinations or already received it",
                      now, id, it->second.src, at));
      return nullptr;
    }
    remaining.erase(pos);
    delivered_record_ = it->second;
    delivered_record_.dst = at;
    if (remaining.empty()) live_.erase(it);
  } else {
    delivered_record_ = it->second;
    live_.erase(it);
  }
  ++delivered_;
  const PacketRecord& r = delivered_record_;
  if (r.dst != at) {
    violation(
        fmt::format("cycle {}: packet {} for node {} delivered at node {}", now, id, r.dst, at));
    ok = false;
  }
  // Address flits stripped before this destination (minimal path-IR router).
  std::uint32_t stripped = 0;
  if (!r.strip_path.empty()) {
    const auto pos = std::find(r.strip_path.begin(), r.strip_path.end(), at);
    stripped = static_cast<std::uint32_t>(
        std::min<std::ptrdiff_t>(pos - r.strip_path.begin() + 1,
                                 static_cast<std::ptrdiff_t>(r.strip_path.size()) - 1) /
        r.strip_per_flit);
  }
  if (first != stripped || r.length != first + flits || r.checksum != checksum) {
    violation(fmt::format(
        "cycle {}: packet {} ({}->{}) corrupted: flits {}..{} of {} (expected from flit {}), "
        "checksum {:016x} expected {:016x}",
        now, id, r.src, r.dst, first, first + flits - 1, r.length, stripped, checksum, r.checksum));
    ok = false;
  }
  if (check_order_ && !multicast) {
    const std::uint64_t key =
        static_cast<std::uint64_t>(r.src) * static_cast<std::uint64_t>(nodes_) + r.dst;
    const std::uint64_t sequence = id / static_cast<std::uint64_t>(nodes_) + 1;
    std::uint64_t& last = last_sequence_[key];
    if (sequence < last) {
      violation(
          fmt::format("cycle {}: packet {} ({}->{}) overtook a later packet of the same "
                      "source and destination",
                      now, id, r.src, r.dst));
      ok = false;
    } else {
      last = sequence;  // a late packet must not lower the stream's high-water mark
    }
  }
  return ok ? &delivered_record_ : nullptr;
}

}  // namespace wormsim
