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

void VcAllocator::input_first(const std::vector<VcRequest>& requests, const std::vector<int>& owner,
                              std::vector<VcGrant>& grants) {
  // The rules of router/separable_input_first.h on this allocator's arbiters.
  choice_.resize(requests.size());
  vc_input_first(
      requests.data(), static_cast<int>(requests.size()), static_cast<int>(input_arbiters_.size()),
      [&](const RouteResult& r, int from) {
        return first_free_output_vc(r, vcs_, owner.data(), from);
      },
      [&](int ivc) { return input_arbiters_[static_cast<std::size_t>(ivc)].pointer(); },
      [&](int o) { return output_arbiters_[static_cast<std::size_t>(o)].pointer(); },
      [&](int ivc, int o) { input_arbiters_[static_cast<std::size_t>(ivc)].update(o); },
      [&](int o, int ivc) { output_arbiters_[static_cast<std::size_t>(o)].update(ivc); },
      choice_.data(), mark_.data(),
      [&](int ivc, int o) {
        grants.push_back({ivc, o / vcs_, o % vcs_});
      });
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
