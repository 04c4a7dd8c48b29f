// A user-level fibre: a function that runs on its own stack (from a StackArena) and can suspend
// itself in the middle and be resumed later, switched by Boost.Context's fcontext layer
// (make_fcontext / jump_fcontext: a register save and restore, no system call, no signal mask).
// The node processor (ni/processor.h) runs its firmware on one, driven by a SystemC method, so a
// node costs no SystemC thread, no mapping of its own, only the stack pages its firmware touches.
//
// Contract:
//  - resume() is called from outside the fibre; it runs the body from where it last suspended
//    until it calls suspend() or returns. suspend() is called from inside the body only.
//  - Exceptions never unwind across a switch: whatever the body throws is caught at the fibre's
//    entry and kept (error()); the owner rethrows it on its own stack if it wants to.
//  - A fibre destroyed before its body returned is abandoned: its stack is not unwound (as a
//    SystemC thread left suspended when the simulation stops).
//  - The body must not suspend inside a catch handler (the C++ runtime keeps the exceptions
//    being handled per OS thread, not per fibre; the same holds for SystemC's own threads).
//  - stack_intact() says whether the canary below the stack's low end survived; the owner
//    checks it after every resume() (docs/architecture.md, "Firmware fibres").
#pragma once

#include <exception>
#include <functional>

#include "stack_arena.h"

namespace wormsim {

class Fibre {
 public:
  Fibre(StackArena::Stack stack, std::function<void()> body);
  Fibre(const Fibre&) = delete;
  Fibre& operator=(const Fibre&) = delete;

  void resume();
  void suspend();

  bool finished() const { return finished_; }
  bool stack_intact() const { return StackArena::intact(stack_); }
  const std::exception_ptr& error() const { return error_; }
  const StackArena::Stack& stack() const { return stack_; }

 private:
  friend struct FibreEntry;  // the fibre's first frame (fibre.cpp)

  StackArena::Stack stack_;
  std::function<void()> body_;
  void* context_ = nullptr;  // the fibre's suspended context (boost fcontext_t)
  void* caller_ = nullptr;   // the context of the resume() that runs it
  bool finished_ = false;
  std::exception_ptr error_;
};

}  // namespace wormsim
