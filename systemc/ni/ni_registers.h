// The NI register map (docs/ni-registers.md is the reference; keep the two in step). All
// registers are 32 bits wide and little-endian; data windows take burst accesses of any
// length. Channel c of the TX/RX register blocks is an injection/ejection channel of the
// router's port model (one-port: 1, k-port: k, all-port: one per network port).
#pragma once

#include <cstdint>

#include "config.h"

namespace wormsim::ni {

// Global registers.
inline constexpr std::uint64_t kNodeId = 0x0000;      // RO this node's id
inline constexpr std::uint64_t kNodeCount = 0x0004;   // RO nodes in the network
inline constexpr std::uint64_t kTxChannels = 0x0008;  // RO injection channels
inline constexpr std::uint64_t kRxChannels = 0x000C;  // RO ejection channels
inline constexpr std::uint64_t kCycleLo = 0x0010;     // RO current cycle, low word
inline constexpr std::uint64_t kCycleHi = 0x0014;     // RO current cycle, high word
inline constexpr std::uint64_t kIrqStatus =
    0x0018;  // RO bit0 RX message pending, bit1 TX slot freed or message sent
inline constexpr std::uint64_t kIrqEnable = 0x001C;   // RW same bits
inline constexpr std::uint64_t kIrqAck = 0x0020;      // WO write 1s to clear IRQ_STATUS bit1
inline constexpr std::uint64_t kMaxMessage = 0x0024;  // RO largest message in bytes
// RO data bytes per packet (node.max_packet_bytes - node.header_bytes; 0: a message is one
// packet), so firmware can charge its per-packet software cost.
inline constexpr std::uint64_t kPacketPayload = 0x0028;

inline constexpr std::uint32_t kIrqRx = 1u << 0;
inline constexpr std::uint32_t kIrqTx = 1u << 1;

// Per-channel register blocks: base + stride * channel + offset.
inline constexpr std::uint64_t kTxBase = 0x0100;
inline constexpr std::uint64_t kRxBase = 0x0800;
inline constexpr std::uint64_t kChannelStride = 0x40;
inline constexpr int kMaxChannels = 16;

// TX channel block.
inline constexpr std::uint64_t kTxDst = 0x00;       // RW destination node id
inline constexpr std::uint64_t kTxLen = 0x04;       // RW message length in bytes
inline constexpr std::uint64_t kTxTag = 0x08;       // RW firmware tag
inline constexpr std::uint64_t kTxDoorbell = 0x0C;  // WO write 1: queue the descriptor
inline constexpr std::uint64_t kTxStatus =
    0x10;  // RO [15:0] free descriptor slots, bit16 busy (firmware DMA or queue)
inline constexpr std::uint64_t kTxSeq = 0x14;  // RO sequence number given to the last doorbell
// Multidestination worms (network.router.multidest path or tree): destinations appended to
// DLIST make the next doorbell send one worm to all of them (DST is then ignored).
inline constexpr std::uint64_t kTxDlist = 0x18;   // WO append a destination node id
inline constexpr std::uint64_t kTxDcount = 0x1C;  // RW destinations in the list; write 0 to clear
// RO the sequence number of the last message of this channel whose last flit has left the NI
// (0: none yet); IRQ_STATUS bit1 is raised then too. A blocking send waits for it.
inline constexpr std::uint64_t kTxDone = 0x20;

// RX channel block (the message at the head of the channel's receive queue).
inline constexpr std::uint64_t kRxCount = 0x00;  // RO complete messages queued
inline constexpr std::uint64_t kRxSrc = 0x04;    // RO source node
inline constexpr std::uint64_t kRxTag = 0x08;    // RO tag
inline constexpr std::uint64_t kRxLen = 0x0C;    // RO length in bytes
inline constexpr std::uint64_t kRxPop = 0x10;    // WO write 1: drop the head message
inline constexpr std::uint64_t kRxSeq =
    0x14;  // RO the head message's sequence number at its source

// Data windows, 16 MiB each: the message buffer in node memory that channel c's DMA engine
// reads (TX, write-only to the processor) and the head received message the RX DMA engine has
// written (read-only). Messages up to one window (16 MiB) long; the DMA engine packetises them
// by node.max_packet_bytes.
inline constexpr std::uint64_t kTxWindow = 0x1000'0000;
inline constexpr std::uint64_t kRxWindow = 0x2000'0000;
inline constexpr std::uint64_t kWindowStride = 0x0100'0000;
inline constexpr std::uint32_t kMaxMessageBytes = wormsim::kMaxMessageBytes;  // one window
static_assert(kMaxMessageBytes <= kWindowStride);

}  // namespace wormsim::ni
