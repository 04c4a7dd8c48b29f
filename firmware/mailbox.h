// Receiving a particular message when others may come first: algorithms whose messages from
// different senders or rounds can arrive in any order (barrier rounds, reduction trees) take
// them by source and tag; messages that come early wait here (their receive overhead gamma is
// charged when they leave the NI, as with every receive).
#pragma once

#include <cstdint>
#include <vector>

#include "runtime.h"

namespace wormsim::fw {

class Mailbox {
 public:
  explicit Mailbox(Runtime& rt) : rt_(rt) {}
  // The message from `src` with `tag`, waiting for it if it has not arrived.
  Message take(NodeId src, std::uint32_t tag) {
    for (auto it = early_.begin(); it != early_.end(); ++it)
      if (it->src == src && it->tag == tag) {
        Message m = std::move(*it);
        early_.erase(it);
        return m;
      }
    for (;;) {
      Message m = rt_.receive();
      if (m.src == src && m.tag == tag) return m;
      early_.push_back(std::move(m));
    }
  }
  // Messages taken from the NI that nobody asked for (an algorithm ends with none).
  std::size_t unclaimed() const { return early_.size(); }

 private:
  Runtime& rt_;
  std::vector<Message> early_;
};

}  // namespace wormsim::fw
