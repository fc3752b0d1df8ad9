// A refusal as a user sees it: std::runtime_error whose message is one line holding every
// expected part.
#pragma once

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace posbias_test {

// Expects `f` to throw std::runtime_error with one line holding every needle.
template <class F>
void expect_refused(F&& f, const std::vector<std::string>& needles) {
  try {
    f();
    ADD_FAILURE() << "accepted; expected an error with '" << needles.front() << "'";
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    for (const std::string& n : needles)
      EXPECT_NE(message.find(n), std::string::npos) << "'" << n << "' not in: " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

}  // namespace posbias_test
