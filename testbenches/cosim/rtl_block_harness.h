// Shared by the block-level RTL testbenches (testbenches/rtl_<block>_test.cpp): one Verilated
// block model (rtl/CMakeLists.txt, wormsim_verilate_block) in its own VerilatedContext.
// Assertion failures in the RTL ($error in an immediate assert) do not abort the process:
// they set gotError() on the context, which the tests check (a test that expects an assertion
// to fire checks that it did; every other test checks that none did).
#pragma once

#include <memory>

#include <verilated.h>

namespace wormsim::rtl_test {

template <typename Model>
class Block {
 public:
  Block() : context_(std::make_unique<VerilatedContext>()) {
    context_->fatalOnError(false);  // $error / $stop set gotError() instead of exiting
    context_->errorLimit(1);        // the first failure counts (vl_stop_maybe)
    model_ = std::make_unique<Model>(context_.get(), "top");
  }
  ~Block() {
    // Verilator 5.006 reports through the thread's context: make it ours while tearing down.
    Verilated::threadContextp(context_.get());
    model_->final();
    model_.reset();
  }
  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;

  Model* operator->() { return model_.get(); }
  Model& model() { return *model_; }
  VerilatedContext& context() { return *context_; }
  bool error() const { return context_->gotError(); }

  // Combinational settle with the clock low (after inputs change).
  void eval() { model_->eval(); }

 private:
  std::unique_ptr<VerilatedContext> context_;  // outlives the model
  std::unique_ptr<Model> model_;
};

// Clocked blocks (clk_i, rst_ni): asynchronous reset, then one cycle per tick().
template <typename Model>
class ClockedBlock : public Block<Model> {
 public:
  ClockedBlock() { reset(); }

  // rst_ni falls (the flops reset on its edge), one clock edge passes in reset, rst_ni rises.
  void reset() {
    Model& m = this->model();
    m.clk_i = 0;
    m.rst_ni = 1;
    m.eval();
    m.rst_ni = 0;
    m.eval();
    m.clk_i = 1;
    m.eval();
    m.clk_i = 0;
    m.eval();
    m.rst_ni = 1;
    m.eval();
  }
  // The rising edge with the current inputs (state updates, assertions sample), then the clock
  // falls again; outputs that depend on the inputs are settled for the next look.
  void tick() {
    Model& m = this->model();
    m.clk_i = 1;
    m.eval();
    m.clk_i = 0;
    m.eval();
    ++cycle_;
  }
  unsigned long cycle() const { return cycle_; }

 private:
  unsigned long cycle_ = 0;
};

}  // namespace wormsim::rtl_test
