#include "activity_calendar.h"

#include <algorithm>
#include <stdexcept>

namespace wormsim {

ActivityCalendar::ActivityCalendar(int components)
    : wheel_(kWheel),
      components_(static_cast<std::size_t>(components)),
      stamp_(static_cast<std::size_t>(components), kNever),
      taken_(static_cast<std::size_t>(components), kNever) {}

void ActivityCalendar::wake_slow(int component, Cycle at) {
  if (at < now_ || (taken_any_ && at == now_))
    throw std::logic_error("activity calendar: wake-up for a cycle already taken");
  if (!stamp_.empty() && static_cast<std::size_t>(component) >= stamp_.size())
    throw std::logic_error("activity calendar: unknown component");
  if (at - now_ < kWheel) {
    // Most wake-ups repeat the previous one (every flit of a worm wakes the same router);
    // the stamp drops those duplicates early. take() removes any that remain.
    if (static_cast<std::size_t>(component) < stamp_.size()) {
      Cycle& stamp = stamp_[static_cast<std::size_t>(component)];
      if (stamp == at) return;
      stamp = at;
    }
    wheel_[at % kWheel].push(component);
    ++wheel_items_;
  } else {
    far_.push({at, component});
  }
}

Cycle ActivityCalendar::next_cycle(Cycle after) const {
  Cycle best = far_.empty() ? kNever : far_.top().at;
  if (visit_ > after && visit_ < best) best = visit_;
  if (wheel_items_ > 0) {
    for (Cycle c = std::max(after + 1, now_); c < now_ + kWheel && c < best; ++c)
      if (wheel_[c % kWheel].count != 0) return c;
  }
  return best;
}

void ActivityCalendar::take(Cycle now, std::vector<int>& out) {
  if (now < now_) throw std::logic_error("activity calendar: time went backwards");
  if (taken_any_ && now <= now_) throw std::logic_error("activity calendar: cycle taken twice");
  now_ = now;
  next_ = now + 1;
  next_bucket_ = &wheel_[next_ % kWheel];
  taken_any_ = true;
  while (!far_.empty() && far_.top().at < now_ + kWheel) {
    const Far f = far_.top();
    if (static_cast<std::size_t>(f.component) < stamp_.size())
      stamp_[static_cast<std::size_t>(f.component)] = f.at;
    wheel_[f.at % kWheel].push(f.component);
    ++wheel_items_;
    far_.pop();
  }
  Bucket& slot = wheel_[now % kWheel];
  out.assign(slot.items.begin(), slot.items.begin() + static_cast<std::ptrdiff_t>(slot.count));
  slot.count = 0;
  wheel_items_ -= out.size();
  if (taken_.empty()) {
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return;
  }
  std::size_t kept = 0;
  for (int c : out) {
    Cycle& taken = taken_[static_cast<std::size_t>(c)];
    if (taken == now) continue;
    taken = now;
    out[kept++] = c;
  }
  out.resize(kept);
}

}  // namespace wormsim
