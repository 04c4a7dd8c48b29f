#include "vc_allocator.h"

namespace wormsim {

VcAllocator::VcAllocator(AllocatorKind kind, int inputs, int outputs, int vcs)
    : kind_(kind),
      vcs_(vcs),
      input_arbiters_(static_cast<std::size_t>(inputs * vcs), RoundRobinArbiter(outputs * vcs)),
      output_arbiters_(static_cast<std::size_t>(outputs * vcs), RoundRobinArbiter(inputs * vcs)),
      offer_(static_cast<std::size_t>(outputs * vcs), -1),
      mark_(static_cast<std::size_t>(inputs * vcs), 0) {}

void VcAllocator::allocate(const std::vector<VcRequest>& requests, const std::vector<int>& owner,
                           std::vector<VcGrant>& grants) {
  if (requests.empty()) return;
  if (kind_ == AllocatorKind::kSeparableInputFirst)
    input_first(requests, owner, grants);
  else
    output_first(requests, owner, grants);
}

int VcAllocator::first_free_candidate(const RouteResult& r, const std::vector<int>& owner,
                                      int from) const {
  // Candidates are visited in increasing output-VC index, so the first one >= from is the
  // round-robin winner; failing that, the first one overall.
  int wrapped = -1;
  for (int port = r.port_lo; port < r.port_hi; ++port) {
    for (int vc = r.vc_lo; vc < r.vc_hi; ++vc) {
      const int o = port * vcs_ + vc;
      if (owner[static_cast<std::size_t>(o)] >= 0) continue;
      if (o >= from) return o;
      if (wrapped < 0) wrapped = o;
    }
  }
  return wrapped;
}

void VcAllocator::input_first(const std::vector<VcRequest>& requests, const std::vector<int>& owner,
                              std::vector<VcGrant>& grants) {
  if (requests.size() == 1) {  // the common case: a sole requester wins its first choice
    const VcRequest& r = requests.front();
    RoundRobinArbiter& in = input_arbiters_[static_cast<std::size_t>(r.input_vc)];
    const int o = first_free_candidate(r.route, owner, in.pointer());
    if (o < 0) return;
    in.update(o);
    output_arbiters_[static_cast<std::size_t>(o)].update(r.input_vc);
    grants.push_back({r.input_vc, o / vcs_, o % vcs_});
    return;
  }
  choice_.assign(requests.size(), -1);
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const VcRequest& r = requests[i];
    choice_[i] = first_free_candidate(
        r.route, owner, input_arbiters_[static_cast<std::size_t>(r.input_vc)].pointer());
  }
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const int o = choice_[i];
    if (o < 0) continue;
    RoundRobinArbiter& out = output_arbiters_[static_cast<std::size_t>(o)];
    bool contended = false;
    for (std::size_t j = i + 1; j < requests.size() && !contended; ++j) contended = choice_[j] == o;
    if (!contended) {  // the common case: a sole requester wins whatever the pointer says
      const int winner = requests[i].input_vc;
      input_arbiters_[static_cast<std::size_t>(winner)].update(o);
      out.update(winner);
      grants.push_back({winner, o / vcs_, o % vcs_});
      continue;
    }
    // Mark every requester that chose o, then let o's arbiter pick one.
    for (std::size_t j = i; j < requests.size(); ++j)
      if (choice_[j] == o) mark_[static_cast<std::size_t>(requests[j].input_vc)] = 1;
    const int winner = out.pick([&](int ivc) { return mark_[static_cast<std::size_t>(ivc)] != 0; });
    for (std::size_t j = i; j < requests.size(); ++j) {
      if (choice_[j] != o) continue;
      mark_[static_cast<std::size_t>(requests[j].input_vc)] = 0;
      if (requests[j].input_vc == winner)
        input_arbiters_[static_cast<std::size_t>(winner)].update(o);
      choice_[j] = -1;  // handled
    }
    out.update(winner);
    grants.push_back({winner, o / vcs_, o % vcs_});
  }
}

void VcAllocator::output_first(const std::vector<VcRequest>& requests,
                               const std::vector<int>& owner, std::vector<VcGrant>& grants) {
  // Stage 1: every free output VC that somebody requests offers itself to one requester.
  std::vector<int> offered;
  for (const VcRequest& r : requests) {
    for (int port = r.route.port_lo; port < r.route.port_hi; ++port) {
      for (int vc = r.route.vc_lo; vc < r.route.vc_hi; ++vc) {
        const int o = port * vcs_ + vc;
        if (owner[static_cast<std::size_t>(o)] >= 0 || offer_[static_cast<std::size_t>(o)] != -1)
          continue;
        for (const VcRequest& q : requests)
          if (candidate(q.route, o)) mark_[static_cast<std::size_t>(q.input_vc)] = 1;
        offer_[static_cast<std::size_t>(o)] = output_arbiters_[static_cast<std::size_t>(o)].pick(
            [&](int ivc) { return mark_[static_cast<std::size_t>(ivc)] != 0; });
        for (const VcRequest& q : requests) mark_[static_cast<std::size_t>(q.input_vc)] = 0;
        offered.push_back(o);
      }
    }
  }
  // Stage 2: every requester accepts one of the offers it received.
  for (const VcRequest& r : requests) {
    RoundRobinArbiter& in = input_arbiters_[static_cast<std::size_t>(r.input_vc)];
    const int o = in.pick([&](int out) {
      return offer_[static_cast<std::size_t>(out)] == r.input_vc && candidate(r.route, out);
    });
    if (o < 0) continue;
    in.update(o);
    output_arbiters_[static_cast<std::size_t>(o)].update(r.input_vc);
    grants.push_back({r.input_vc, o / vcs_, o % vcs_});
  }
  for (int o : offered) offer_[static_cast<std::size_t>(o)] = -1;
}

}  // namespace wormsim
