#include "activity_calendar.h"

#include <algorithm>
#include <stdexcept>

namespace wormsim {

ActivityCalendar::ActivityCalendar() : wheel_(kWheel) {}

void ActivityCalendar::wake(int component, Cycle at) {
  if (at < now_) throw std::logic_error("activity calendar: wake-up in the past");
  if (at - now_ < kWheel) {
    wheel_[at % kWheel].push_back(component);
    ++wheel_items_;
  } else {
    far_.push({at, component});
  }
}

Cycle ActivityCalendar::next_cycle(Cycle after) const {
  Cycle best = far_.empty() ? kNever : far_.top().at;
  if (wheel_items_ > 0) {
    for (Cycle c = std::max(after + 1, now_); c < now_ + kWheel && c < best; ++c)
      if (!wheel_[c % kWheel].empty()) return c;
  }
  return best;
}

void ActivityCalendar::take(Cycle now, std::vector<int>& out) {
  if (now < now_) throw std::logic_error("activity calendar: time went backwards");
  now_ = now;
  while (!far_.empty() && far_.top().at < now_ + kWheel) {
    wheel_[far_.top().at % kWheel].push_back(far_.top().component);
    ++wheel_items_;
    far_.pop();
  }
  std::vector<int>& slot = wheel_[now % kWheel];
  out.clear();
  out.swap(slot);
  wheel_items_ -= out.size();
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

}  // namespace wormsim
