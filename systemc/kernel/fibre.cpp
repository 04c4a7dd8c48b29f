#include "fibre.h"

#include <boost/context/detail/fcontext.hpp>

#include <utility>

namespace wormsim {

namespace bctx = boost::context::detail;

struct FibreEntry {
  // The first frame on the fibre's stack: `t.data` is the Fibre, `t.fctx` the context of the
  // resume() that started it. Runs the body, keeps what it threw, and switches back for good
  // (an fcontext entry function must never return).
  static void run(bctx::transfer_t t) {
    Fibre* self = static_cast<Fibre*>(t.data);
    self->caller_ = t.fctx;
    try {
      self->body_();
    } catch (...) {
      self->error_ = std::current_exception();
    }
    self->finished_ = true;
    bctx::jump_fcontext(self->caller_, nullptr);
  }
};

Fibre::Fibre(StackArena::Stack stack, std::function<void()> body)
    : stack_(stack), body_(std::move(body)) {
  context_ = bctx::make_fcontext(stack_.low + stack_.bytes, stack_.bytes, &FibreEntry::run);
}

void Fibre::resume() {
  if (finished_) return;
  const bctx::transfer_t t = bctx::jump_fcontext(context_, this);
  context_ = t.fctx;
}

void Fibre::suspend() {
  const bctx::transfer_t t = bctx::jump_fcontext(caller_, nullptr);
  caller_ = t.fctx;
}

}  // namespace wormsim
