// The harness's parts against independent references: Wilson intervals against Newcombe
// (1998) and the score equation they solve, answer extraction, the OpenAI wire format both
// ways, backoff and rate limit, the probe suites against the task generators, and the SQLite
// store's keys, replacement rules and refusal of foreign files.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "posbias/llm/answer.h"
#include "posbias/llm/http_client.h"
#include "posbias/llm/llm_summary.h"
#include "posbias/llm/openai.h"
#include "posbias/llm/openai_request.h"
#include "posbias/llm/openai_response.h"
#include "posbias/llm/probe.h"
#include "posbias/llm/result_store.h"
#include "posbias/llm/retry.h"
#include "posbias/stats/wilson.h"
#include "posbias/tasks/hop_task.h"

namespace {

using namespace posbias;
namespace fs = std::filesystem;
constexpr double kZ = 1.959963984540054;

fs::path scratch(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("posbias_llm_unit_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::remove(dir / name);
  return dir / name;
}

TEST(Wilson, MatchesNewcombesWorkedExamples) {
  // Newcombe (1998), Stat. Med. 17:857, Table I: 81/263 -> 0.2553 to 0.3662.
  const Interval a = wilson_interval(81, 263);
  EXPECT_NEAR(a.low, 0.2553, 5e-5);
  EXPECT_NEAR(a.high, 0.3662, 5e-5);
  const Interval b = wilson_interval(5, 10);
  EXPECT_NEAR(b.low, 0.2366, 5e-5);
  EXPECT_NEAR(b.high, 0.7634, 5e-5);
}

TEST(Wilson, EndsHaveClosedFormsAndBoundsSolveTheScoreEquation) {
  for (std::int64_t n : {1, 2, 7, 10, 100, 5000}) {
    const double nn = static_cast<double>(n);
    const Interval none = wilson_interval(0, n), all = wilson_interval(n, n);
    EXPECT_EQ(none.low, 0.0);
    EXPECT_NEAR(none.high, kZ * kZ / (nn + kZ * kZ), 1e-12);
    EXPECT_NEAR(all.low, nn / (nn + kZ * kZ), 1e-12);
    EXPECT_EQ(all.high, 1.0);
    for (std::int64_t k = 1; k < n; k += std::max<std::int64_t>(1, n / 7)) {
      const Interval w = wilson_interval(k, n);
      const double p = static_cast<double>(k) / nn;
      for (double bound : {w.low, w.high}) {  // (p̂ - p)² = z² p (1 - p) / n
        EXPECT_NEAR((p - bound) * (p - bound), kZ * kZ * bound * (1 - bound) / nn, 1e-12);
      }
      EXPECT_LT(w.low, p);
      EXPECT_GT(w.high, p);
    }
  }
  EXPECT_EQ(wilson_interval(0, 0).low, 0.0);
  EXPECT_EQ(wilson_interval(0, 0).high, 1.0);
  EXPECT_THROW(wilson_interval(3, 2), std::invalid_argument);
  EXPECT_THROW(wilson_interval(-1, 2), std::invalid_argument);
}

TEST(Answer, StrictIsTheWholeResponseLenientTheLastAnswerShapedWord) {
  auto check = [](const std::string& suite, const std::string& response, const std::string& answer,
                  bool strict, bool lenient) {
    const Score s = score_answer(suite, response, answer);
    EXPECT_EQ(s.strict, strict) << suite << ": '" << response << "'";
    EXPECT_EQ(s.lenient, lenient) << suite << ": '" << response << "'";
  };
  check("number", "b", "b", true, true);
  check("number", "  b\n", "b", true, true);
  check("number", "The answer is **b**.", "b", false, true);
  check("number", "b, then 3 back to c", "b", false, false);  // the last letter is c
  check("number", "12", "b", false, false);
  check("number", "ab", "ab", true, true);
  check("letter", "c:4", "c:4", true, true);
  check("letter", "Following a:b then b:c we reach `c:4`.", "c:4", false, true);
  check("letter", "c:4 or d:5", "c:4", false, false);
  check("letter", "c:b", "c:4", false, false);
  const std::string id = "0f8e2a4c-1b2d-4e3f-8a9b-0c1d2e3f4a5b";
  check("needle", id, id, true, true);
  check("needle", "The value is \"" + id + "\".", id, false, true);
  std::string upper = id;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  check("needle", upper, id, false, true);
  check("needle", "I cannot find it", id, false, false);
  // passkey: strict is the number alone; lenient its first run of digits.
  check("passkey", "48213", "48213", true, true);
  check("passkey", "4821.", "48213", false, false);
  check("passkey", "48213.\nThe", "48213", false, true);
  check("passkey", "It is 48213", "48213", false, true);
  check("passkey", "482139", "48213", false, false);
  check("passkey", "4821 3", "48213", false, false);
  check("passkey", "no digits", "48213", false, false);
}

TEST(OpenAi, RequestUrlsFollowTheBase) {
  EXPECT_EQ(request_url("http://127.0.0.1:8000", Api::kChat),
            "http://127.0.0.1:8000/v1/chat/completions");
  EXPECT_EQ(request_url("https://api.openai.com/v1/", Api::kCompletions),
            "https://api.openai.com/v1/completions");
  EXPECT_EQ(request_url("http://h/v1/chat/completions", Api::kChat),
            "http://h/v1/chat/completions");
  EXPECT_THROW(parse_api("embeddings"), std::invalid_argument);
}

TEST(OpenAi, WhatTheHarnessSendsTheServerReadsAndBack) {
  for (Api api : {Api::kChat, Api::kCompletions}) {
    const std::string prompt = "line one\nä b:c \"quoted\" {input}";
    const CompletionRequest r = parse_request(api, request_body(api, "m-1", prompt, 7));
    EXPECT_EQ(r.model, "m-1");
    EXPECT_EQ(r.prompt, prompt);
    EXPECT_EQ(r.max_tokens, 7);
    Completion c;
    c.model = "m-1";
    c.text = "c:4 ü";
    c.prompt_tokens = 10;
    c.completion_tokens = 1;
    const std::string body = completion_response(api, r, "id-1", {c});
    const ParsedCompletion parsed = parse_completion(api, body);
    EXPECT_EQ(parsed.text, "c:4 ü");
    EXPECT_FALSE(parsed.logprob);  // not asked for: null
    EXPECT_EQ(parsed.tokens, 1);   // usage.completion_tokens
    EXPECT_EQ(nlohmann::json::parse(body)["usage"]["total_tokens"], 11);
  }
  // A prompt of token ids goes out as OpenAI's array of integers and comes back as ids.
  const CompletionRequest ids =
      parse_request(Api::kCompletions, request_body(Api::kCompletions, "m", "", 5, {7, 0, 255}));
  EXPECT_EQ(ids.prompt_ids, (std::vector<std::int64_t>{7, 0, 255}));
  EXPECT_EQ(ids.prompt, "");
  EXPECT_EQ(parse_request(Api::kCompletions, R"({"prompt": [[3, 4]]})").prompt_ids,
            (std::vector<std::int64_t>{3, 4}));
  EXPECT_THROW(request_body(Api::kChat, "m", "", 5, {1}), std::invalid_argument);
  // Invalid UTF-8 in a user's template is replaced, not thrown on.
  EXPECT_NO_THROW(request_body(Api::kChat, "m", std::string("bad \xff byte"), 4));
}

TEST(OpenAi, MalformedResponsesAreOneLineErrors) {
  for (const std::string body :
       {"", "{", "[]", "{}", R"({"choices": []})", R"({"choices": [1]})",
        R"({"choices": [{"message": {"content": 3}}]})", R"({"choices": [{"text": null}]})",
        R"({"error": {"message": "quota exceeded"}})"}) {
    try {
      parse_completion(body.find("text") != std::string::npos ? Api::kCompletions : Api::kChat,
                       body);
      ADD_FAILURE() << "accepted: " << body;
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("malformed response: ", 0), 0u) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos);
    }
  }
  EXPECT_EQ(parse_completion(Api::kChat, R"({"choices":[{"message":{"content":null}}]})").text, "");
  EXPECT_NE(std::string([] {
              try {
                parse_completion(Api::kChat, R"({"error": {"message": "quota exceeded"}})");
              } catch (const std::runtime_error& e) {
                return std::string(e.what());
              }
              return std::string();
            }())
                .find("quota exceeded"),
            std::string::npos);
}

// The message of the runtime_error `f` throws ("" when it throws none).
template <typename F>
std::string error_of(F f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

// Server-sent events as OpenAI, vLLM and llama.cpp send them: `data: {json}` events separated
// by blank lines, ending with `data: [DONE]`.
// A chunk that is JSON goes on one line, as servers send it.
std::string events(const std::vector<std::string>& chunks) {
  std::string out;
  for (const std::string& c : chunks) {
    const nlohmann::json j = nlohmann::json::parse(c, nullptr, false);
    out += "data: " + (j.is_discarded() ? c : j.dump()) + "\n\n";
  }
  return out;
}

TEST(OpenAi, RequestsAskForAStreamAndLogprobsOnlyWhenTold) {
  for (Api api : {Api::kChat, Api::kCompletions}) {
    const nlohmann::json plain = nlohmann::json::parse(request_body(api, "m", "p", 5));
    EXPECT_FALSE(plain.contains("stream"));
    EXPECT_FALSE(plain.contains("stream_options"));
    EXPECT_FALSE(plain.contains("logprobs"));
    const nlohmann::json both = nlohmann::json::parse(
        request_body(api, "m", "p", 5, {}, RequestOptions{.stream = true, .logprobs = true}));
    EXPECT_EQ(both["stream"], true);
    EXPECT_EQ(both["stream_options"], nlohmann::json({{"include_usage", true}}));
    // Completions: the number of alternatives (0, the chosen token only); chat: a switch.
    EXPECT_EQ(both["logprobs"], api == Api::kChat ? nlohmann::json(true) : nlohmann::json(0));
    EXPECT_FALSE(both.contains("top_logprobs"));
    const nlohmann::json streamed =
        nlohmann::json::parse(request_body(api, "m", "p", 5, {}, RequestOptions{.stream = true}));
    EXPECT_EQ(streamed["stream"], true);
    EXPECT_FALSE(streamed.contains("logprobs"));
    const nlohmann::json scored =
        nlohmann::json::parse(request_body(api, "m", "p", 5, {}, RequestOptions{.logprobs = true}));
    EXPECT_FALSE(scored.contains("stream"));
    EXPECT_TRUE(scored.contains("logprobs"));
    // What `serve` reads of them.
    const CompletionRequest r = parse_request(
        api, request_body(api, "m", "p", 5, {}, RequestOptions{.stream = true, .logprobs = true}));
    EXPECT_TRUE(r.stream);
    EXPECT_TRUE(r.include_usage);
    EXPECT_EQ(r.logprobs, 0);
  }
}

TEST(OpenAi, PlainLogprobsAreSummedOverTheCompletionsTokens) {
  // Completions: choices[0].logprobs.token_logprobs (OpenAI's legacy parallel arrays).
  const ParsedCompletion c = parse_completion(Api::kCompletions, R"({"choices": [{"text": " c:4",
      "logprobs": {"tokens": [" c", ":", "4"], "token_logprobs": [-0.25, -0.5, -1.125],
                   "top_logprobs": null, "text_offset": [0, 2, 3]}}],
      "usage": {"prompt_tokens": 9, "completion_tokens": 7}})");
  EXPECT_EQ(c.text, " c:4");
  ASSERT_TRUE(c.logprob);
  EXPECT_EQ(*c.logprob, -1.875);  // exact in binary
  EXPECT_EQ(c.tokens, 3);         // the tokens summed, not usage's 7
  // Chat: choices[0].logprobs.content[i].logprob.
  const ParsedCompletion chat = parse_completion(Api::kChat, R"({"choices": [{"message":
      {"role": "assistant", "content": "ab"}, "logprobs": {"content": [
        {"token": "a", "logprob": -2, "bytes": [97], "top_logprobs": []},
        {"token": "b", "logprob": -0.0625, "bytes": [98], "top_logprobs": []}]}}]})");
  EXPECT_EQ(chat.text, "ab");
  ASSERT_TRUE(chat.logprob);
  EXPECT_EQ(*chat.logprob, -2.0625);
  EXPECT_EQ(chat.tokens, 2);
  // Not a number where a log-probability stands is malformed.
  EXPECT_NE(error_of([] {
              parse_completion(
                  Api::kCompletions,
                  R"({"choices": [{"text": "a", "logprobs": {"token_logprobs": ["x"]}}]})");
            }).find("malformed response: "),
            std::string::npos);
  EXPECT_NE(error_of([] {
              parse_completion(Api::kChat, R"({"choices": [{"message": {"content": "a"},
                  "logprobs": {"content": [{"token": "a"}]}}]})");
            }).find("malformed response: "),
            std::string::npos);
}

TEST(OpenAi, NullLogprobsGiveNoValueAndNoError) {
  // Endpoints that do not return them: null, a missing field, a null list, a null token.
  for (const std::string body :
       {R"({"choices": [{"text": "a", "logprobs": null}], "usage": {"completion_tokens": 4}})",
        R"({"choices": [{"text": "a"}], "usage": {"completion_tokens": 4}})",
        R"({"choices": [{"text": "a", "logprobs": {"token_logprobs": null}}],
            "usage": {"completion_tokens": 4}})",
        R"({"choices": [{"text": "ab", "logprobs": {"token_logprobs": [null, -1]}}],
            "usage": {"completion_tokens": 4}})"}) {
    const ParsedCompletion c = parse_completion(Api::kCompletions, body);
    EXPECT_EQ(c.text.substr(0, 1), "a");
    EXPECT_FALSE(c.logprob) << body;
    EXPECT_EQ(c.tokens, 4) << body;  // from usage
  }
  const ParsedCompletion chat = parse_completion(
      Api::kChat, R"({"choices": [{"message": {"content": "a"}, "logprobs": null}]})");
  EXPECT_EQ(chat.text, "a");
  EXPECT_FALSE(chat.logprob);
  EXPECT_FALSE(chat.tokens);  // no usage either
  // A stream whose text chunks carry none.
  const ParsedCompletion streamed = parse_completion(
      Api::kChat,
      events({R"({"choices": [{"index": 0, "delta": {"content": "a"}, "logprobs": null}]})",
              "[DONE]"}));
  EXPECT_EQ(streamed.text, "a");
  EXPECT_FALSE(streamed.logprob);
  // One text chunk without them leaves tokens out of the sum: no sum at all.
  const ParsedCompletion partial = parse_completion(
      Api::kCompletions,
      events({R"({"choices": [{"index": 0, "text": "a", "logprobs": {"token_logprobs": [-1]}}]})",
              R"({"choices": [{"index": 0, "text": "b", "logprobs": null}]})", "[DONE]"}));
  EXPECT_EQ(partial.text, "ab");
  EXPECT_FALSE(partial.logprob);
}

TEST(OpenAi, ACompletionsStreamIsItsChunksJoined) {
  // As vLLM streams /v1/completions with logprobs: 0 and include_usage.
  const std::string body = events(
      {R"({"id": "cmpl-1", "object": "text_completion", "choices": [{"index": 0, "text": " c",
          "logprobs": {"tokens": [" c"], "token_logprobs": [-0.5], "top_logprobs": null,
          "text_offset": [0]}, "finish_reason": null}], "usage": null})",
       R"({"id": "cmpl-1", "object": "text_completion", "choices": [{"index": 0, "text": ":4",
          "logprobs": {"tokens": [":", "4"], "token_logprobs": [-0.25, -2],
          "top_logprobs": null, "text_offset": [2, 3]}, "finish_reason": "stop"}],
          "usage": null})",
       R"({"id": "cmpl-1", "object": "text_completion", "choices": [],
          "usage": {"prompt_tokens": 12, "completion_tokens": 3, "total_tokens": 15}})",
       "[DONE]"});
  const ParsedCompletion c = parse_completion(Api::kCompletions, body);
  EXPECT_EQ(c.text, " c:4");
  ASSERT_TRUE(c.logprob);
  EXPECT_EQ(*c.logprob, -2.75);
  EXPECT_EQ(c.tokens, 3);
  // CRLF line ends, a comment and an event name are the same stream.
  std::string crlf = ": keep-alive\r\n\r\nevent: message\r\n";
  for (char ch : body) crlf += ch == '\n' ? std::string("\r\n") : std::string(1, ch);
  EXPECT_EQ(parse_completion(Api::kCompletions, crlf).text, " c:4");
  EXPECT_EQ(parse_completion(Api::kCompletions, crlf).logprob, -2.75);
  // Without logprobs, the token count is usage's.
  const ParsedCompletion bare =
      parse_completion(Api::kCompletions,
                       events({R"({"choices": [{"index": 0, "text": "x"}]})",
                               R"({"choices": [], "usage": {"completion_tokens": 1}})", "[DONE]"}));
  EXPECT_EQ(bare.text, "x");
  EXPECT_FALSE(bare.logprob);
  EXPECT_EQ(bare.tokens, 1);
}

TEST(OpenAi, AChatStreamSkipsItsRoleAndUsageChunks) {
  // As OpenAI streams chat with logprobs: true and include_usage: a role chunk with empty
  // content, content chunks, a finish chunk with an empty delta, a usage chunk.
  const std::string body =
      events({R"({"id": "c-1", "object": "chat.completion.chunk", "choices": [{"index": 0,
          "delta": {"role": "assistant", "content": ""}, "logprobs": null,
          "finish_reason": null}], "usage": null})",
              R"({"id": "c-1", "object": "chat.completion.chunk", "choices": [{"index": 0,
          "delta": {"content": "The key"}, "logprobs": {"content": [
          {"token": "The", "logprob": -0.125, "bytes": [84, 104, 101], "top_logprobs": []},
          {"token": " key", "logprob": -1, "bytes": [32, 107, 101, 121], "top_logprobs": []}]},
          "finish_reason": null}], "usage": null})",
              R"({"id": "c-1", "object": "chat.completion.chunk", "choices": [{"index": 0,
          "delta": {"content": " is 7"}, "logprobs": {"content": [
          {"token": " is", "logprob": -0.5, "bytes": [], "top_logprobs": []},
          {"token": " 7", "logprob": -3.25, "bytes": [], "top_logprobs": []}]},
          "finish_reason": null}], "usage": null})",
              R"({"id": "c-1", "object": "chat.completion.chunk", "choices": [{"index": 0,
          "delta": {}, "logprobs": null, "finish_reason": "stop"}], "usage": null})",
              R"({"id": "c-1", "object": "chat.completion.chunk", "choices": [],
          "usage": {"prompt_tokens": 30, "completion_tokens": 4, "total_tokens": 34}})",
              "[DONE]"});
  const ParsedCompletion c = parse_completion(Api::kChat, body);
  EXPECT_EQ(c.text, "The key is 7");
  ASSERT_TRUE(c.logprob);
  EXPECT_EQ(*c.logprob, -4.875);
  EXPECT_EQ(c.tokens, 4);
  // Another choice's chunks (index 1) are not choice 0's.
  const ParsedCompletion first = parse_completion(
      Api::kChat,
      events({R"({"choices": [{"index": 1, "delta": {"content": "no"}}]})",
              R"({"choices": [{"index": 0, "delta": {"content": "yes"}}]})", "[DONE]"}));
  EXPECT_EQ(first.text, "yes");
}

TEST(OpenAi, AStreamCutShortIsMalformed) {
  const std::string body =
      events({R"({"choices": [{"index": 0, "text": "ab", "logprobs": {"token_logprobs": [-1]}}]})",
              R"({"choices": [{"index": 0, "text": "cd", "logprobs": {"token_logprobs": [-2]}}]})",
              "[DONE]"});
  EXPECT_EQ(parse_completion(Api::kCompletions, body).text, "abcd");
  // Every cut before the [DONE] is complete is malformed: retried like a truncated body.
  const std::size_t done = body.find("[DONE]");
  for (std::size_t cut = 5; cut < done + 6; ++cut) {
    const std::string what =
        error_of([&] { parse_completion(Api::kCompletions, body.substr(0, cut)); });
    EXPECT_EQ(what.rfind("malformed response: ", 0), 0u) << cut << ": " << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  EXPECT_NE(error_of([&] {
              parse_completion(Api::kCompletions, body.substr(0, body.find("data: [DONE]")));
            }).find("without data: [DONE]"),
            std::string::npos);
  // The body ends with [DONE] even without its blank line.
  EXPECT_EQ(parse_completion(Api::kCompletions, body.substr(0, done + 6)).text, "abcd");
  // A [DONE] without a choice before it is no answer either.
  EXPECT_NE(error_of([] { parse_completion(Api::kChat, events({"[DONE]"})); }), "");
  // Other malformed streams.
  for (const std::string& bad :
       {events({"{", "[DONE]"}), events({"[1]", "[DONE]"}), events({R"({"choices": 3})", "[DONE]"}),
        events({R"({"choices": [{"index": 0, "delta": {"content": 3}}]})", "[DONE]"})}) {
    EXPECT_EQ(error_of([&] { parse_completion(Api::kChat, bad); }).rfind("malformed response: ", 0),
              0u)
        << bad;
  }
}

TEST(OpenAi, AnErrorEventIsTheEndpointsError) {
  const std::string body =
      events({R"({"choices": [{"index": 0, "delta": {"content": "a"}}]})",
              R"({"error": {"message": "the model ran out of memory", "type": "server_error"}})",
              "[DONE]"});
  const std::string what = error_of([&] { parse_completion(Api::kChat, body); });
  EXPECT_EQ(what, "malformed response: the endpoint answered the model ran out of memory");
  // The same error as a plain body reads the same.
  EXPECT_EQ(error_of([] {
              parse_completion(Api::kChat,
                               R"({"error": {"message": "the model ran out of memory"}})");
            }),
            what);
}

// What `serve` streams, read back: the chunks' text and log-probabilities, both APIs.
TEST(OpenAi, WhatServeStreamsTheHarnessReadsBack) {
  for (Api api : {Api::kChat, Api::kCompletions}) {
    const CompletionRequest r = parse_request(
        api, request_body(api, "m", "p", 5, {}, RequestOptions{.stream = true, .logprobs = true}));
    std::vector<std::string> chunks;
    StreamDelta role;
    role.role = api == Api::kChat;
    if (role.role) chunks.push_back(stream_chunk(api, r, "id", "m", role));
    StreamDelta a;
    a.text = "c:";
    a.logprobs = {TokenLogprob{"c", -0.5, {}}, TokenLogprob{":", -0.25, {}}};
    chunks.push_back(stream_chunk(api, r, "id", "m", a));
    StreamDelta b;
    b.text = "4";
    b.logprobs = {TokenLogprob{"4", -1.5, {}}};
    b.finish_reason = "stop";
    chunks.push_back(stream_chunk(api, r, "id", "m", b));
    chunks.push_back(usage_chunk(api, "id", "m", 7, 3));
    chunks.push_back("[DONE]");
    const ParsedCompletion c = parse_completion(api, events(chunks));
    EXPECT_EQ(c.text, "c:4");
    ASSERT_TRUE(c.logprob);
    EXPECT_EQ(*c.logprob, -2.25);
    EXPECT_EQ(c.tokens, 3);
    // And not streamed.
    Completion whole;
    whole.text = "c:4";
    whole.completion_tokens = 3;
    whole.logprobs = {a.logprobs[0], a.logprobs[1], b.logprobs[0]};
    CompletionRequest plain = r;
    plain.stream = false;
    const ParsedCompletion p =
        parse_completion(api, completion_response(api, plain, "id", {whole}));
    EXPECT_EQ(p.text, "c:4");
    EXPECT_EQ(p.logprob, -2.25);
    EXPECT_EQ(p.tokens, 3);
  }
}

TEST(OpenAi, BadRequestsAreRefused) {
  const Api c = Api::kCompletions, chat = Api::kChat;
  for (const auto& [api, body] : std::vector<std::pair<Api, std::string>>{
           {c, "not json"},
           {c, "[1]"},
           {c, R"({"model": "m"})"},
           {c, R"({"prompt": 5})"},
           {c, R"({"prompt": "x", "max_tokens": 0})"},
           {c, R"({"prompt": "x", "max_tokens": 1000000000})"},
           {c, R"({"prompt": "x", "max_tokens": 18446744073709551615})"},
           {c, R"({"prompt": "x", "max_tokens": -3})"},
           {c, R"({"prompt": "x", "max_tokens": 2.5})"},
           {c, R"({"prompt": "x", "max_tokens": "5"})"},
           {c, R"({"prompt": "x", "model": 3})"},
           {c, R"({"prompt": []})"},
           {c, R"({"prompt": [1, -1]})"},
           {c, R"({"prompt": [1, 2147483648]})"},
           {c, R"({"prompt": [1, 1.5]})"},
           {c, R"({"prompt": [1, "a"]})"},
           {c, R"({"prompt": [[]]})"},
           {c, R"({"prompt": [[1], [2]]})"},
           {chat, R"({"messages": []})"},
           {chat, R"({"messages": [{"role": "system", "content": "x"}]})"},
           {chat, R"({"messages": [{"role": "user"}]})"},
           {chat, R"({"messages": "hi"})"}}) {
    EXPECT_THROW(parse_request(api, body), std::invalid_argument) << body;
  }
  EXPECT_EQ(parse_request(c, R"({"prompt": ["only"], "max_tokens": 4096})").max_tokens, 4096);
  EXPECT_EQ(parse_request(chat, R"({"messages": [{"role": "user", "content": "a"},
             {"role": "assistant", "content": "b"}, {"role": "user", "content": "c"}]})")
                .prompt,
            "c");
}

// A model name is the user's text: a quote or comma in it must not shift the CSV's columns.
TEST(Summary, CsvQuotesTheModelName) {
  AccuracyRow row;
  row.length = 16;
  row.hops = 2;
  row.n = 10;
  row.strict = 0.5;
  row.strict_ci = {0.25, 0.75};
  row.lenient = 0.6;
  row.lenient_ci = {0.3, 0.8};
  SuiteSummary summary;
  summary.suite = "number";
  summary.model = "my \"model\", v2";
  summary.by_length = {row};
  const std::string csv = summary_csv({summary});
  const std::string line = csv.substr(csv.find('\n') + 1);
  // The log-probability columns are empty: the row has none.
  EXPECT_EQ(line,
            "number,\"my \"\"model\"\", v2\",length,16,2,,10,0.5,0.25,0.75,0.6,0.3,0.8,,,,\n");
}

// The mean completion log-probability per depth with its Student-t interval, against a hand
// computation: df = 2 has the closed-form quantile t = (2p − 1) / √(2p(1 − p)).
TEST(Summary, LogprobMeanAndStudentTIntervalByDepth) {
  std::vector<Probe> probes;
  std::vector<std::string> hashes;
  std::map<std::string, ResultRow> rows;
  auto add = [&](double depth, bool ok, std::optional<double> logprob) {
    Probe p;
    p.suite = "needle";
    p.length = 10;
    p.depth = depth;
    p.chance = 0.1;
    probes.push_back(p);
    hashes.push_back("h" + std::to_string(hashes.size()));
    ResultRow r;
    r.ok = ok;
    r.logprob = logprob;
    rows[hashes.back()] = r;
  };
  add(0.5, true, -1);
  add(0.5, true, -2);
  add(0.5, true, -4);
  add(0.5, true, std::nullopt);  // answered without one: not in the mean
  add(0.5, false, -100);         // failed: not in the mean
  add(1.0, true, -0.5);          // one prompt: a mean, no interval
  add(0.0, true, std::nullopt);  // none
  const SuiteSummary s = summarize_suite("needle", "m", probes, hashes, rows);
  ASSERT_TRUE(s.has_logprobs());
  ASSERT_EQ(s.by_depth.size(), 3u);
  const AccuracyRow& none = s.by_depth[0];
  const AccuracyRow& mid = s.by_depth[1];
  const AccuracyRow& end = s.by_depth[2];
  ASSERT_EQ(mid.depth, 50);
  EXPECT_EQ(mid.n, 4);
  EXPECT_EQ(mid.logprob_n, 3);
  EXPECT_NEAR(mid.logprob, -7.0 / 3, 1e-15);
  const double p = 0.975, t2 = (2 * p - 1) / std::sqrt(2 * p * (1 - p));
  const double half = t2 * std::sqrt((16.0 + 1.0 + 25.0) / 9.0 / 2.0 / 3.0);  // t·s/√n
  EXPECT_NEAR(mid.logprob_ci.low, -7.0 / 3 - half, 1e-9);
  EXPECT_NEAR(mid.logprob_ci.high, -7.0 / 3 + half, 1e-9);
  EXPECT_EQ(end.logprob_n, 1);
  EXPECT_EQ(end.logprob, -0.5);
  EXPECT_TRUE(std::isnan(end.logprob_ci.low));
  EXPECT_EQ(none.logprob_n, 0);
  // by_length: all answered prompts with one.
  ASSERT_EQ(s.by_length.size(), 1u);
  EXPECT_EQ(s.by_length[0].logprob_n, 4);
  EXPECT_NEAR(s.by_length[0].logprob, -7.5 / 4, 1e-15);

  const nlohmann::json j = to_json(s);
  EXPECT_NEAR(j["by_depth"][1]["logprob"].get<double>(), -7.0 / 3, 1e-15);
  EXPECT_NEAR(j["by_depth"][1]["logprob_ci"][0].get<double>(), -7.0 / 3 - half, 1e-9);
  EXPECT_EQ(j["by_depth"][1]["logprob_n"], 3);
  EXPECT_TRUE(j["by_depth"][2]["logprob_ci"].is_null());
  EXPECT_TRUE(j["by_depth"][0]["logprob"].is_null());
  EXPECT_EQ(j["by_depth"][0]["logprob_n"], 0);
  EXPECT_EQ(j["by_length"][0]["logprob_n"], 4);
  // The CSV: the depth-50 row's four new columns, and the empty ones of the row without.
  const std::string csv = summary_csv({s});
  EXPECT_NE(csv.find(",logprob,logprob_low,logprob_high,logprob_n\n"), std::string::npos);
  std::istringstream lines(csv);
  std::vector<std::string> depth_rows;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("needle,\"m\",depth,", 0) == 0) depth_rows.push_back(line);
  }
  ASSERT_EQ(depth_rows.size(), 3u);
  EXPECT_EQ(depth_rows[0].substr(depth_rows[0].size() - 4), ",,,,") << depth_rows[0];
  EXPECT_NE(depth_rows[1].find("," + nlohmann::json(-7.0 / 3).dump() + ","), std::string::npos)
      << depth_rows[1];
  EXPECT_EQ(depth_rows[1].substr(depth_rows[1].size() - 2), ",3") << depth_rows[1];
  EXPECT_EQ(depth_rows[2].substr(depth_rows[2].size() - 9), ",-0.5,,,1") << depth_rows[2];

  // Without any log-probability the JSON keeps its keys as they were.
  for (auto& [hash, row] : rows) row.logprob.reset();
  const SuiteSummary bare = summarize_suite("needle", "m", probes, hashes, rows);
  EXPECT_FALSE(bare.has_logprobs());
  const nlohmann::json b = to_json(bare);
  EXPECT_FALSE(b["by_depth"][1].contains("logprob"));
  EXPECT_FALSE(b["by_depth"][1].contains("logprob_ci"));
  EXPECT_FALSE(b["by_length"][0].contains("logprob_n"));
}

TEST(Retry, BackoffDoublesWithJitterUpToTheCap) {
  const RetryPolicy p{5, 0.1, 1.0};
  Rng rng(3);
  for (int retry = 1; retry <= 8; ++retry) {
    const double full = std::min(1.0, 0.1 * std::pow(2.0, retry - 1));
    for (int i = 0; i < 50; ++i) {
      const double w = backoff_seconds(p, retry, rng);
      EXPECT_GE(w, 0.5 * full);
      EXPECT_LE(w, full);
    }
  }
  EXPECT_NEAR(backoff_seconds(p, 1, rng, 0.7), 0.7, 1e-12);  // Retry-After raises the wait
  EXPECT_EQ(backoff_seconds(p, 1, rng, 99), 1.0);            // still capped
  EXPECT_EQ(backoff_seconds(p, 1, rng, 1e15), 1.0);          // however large
  Rng a(9), b(9);
  EXPECT_EQ(backoff_seconds(p, 3, a), backoff_seconds(p, 3, b));
  for (long s : {0L, 408L, 429L, 500L, 502L, 503L}) EXPECT_TRUE(retriable_status(s)) << s;
  for (long s : {400L, 401L, 404L, 413L, 422L}) EXPECT_FALSE(retriable_status(s)) << s;
}

TEST(Http, ControlCharactersInAHeaderValueAreRefused) {
  EXPECT_NO_THROW(check_header_value("the key", "sk-proj-AZaz09_-.~+/="));
  const std::vector<std::string> bad_values{
      "sk\r\nX-Injected: 1", "sk\n", "sk\r", std::string("s\0k", 3), "s\x01k", "s\x7fk", "s\tk"};
  for (const std::string& bad : bad_values) {
    try {
      check_header_value("the key", bad);
      ADD_FAILURE() << "accepted a value with a control character";
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("the key holds a control character", 0), 0u) << what;
      EXPECT_EQ(what.find("sk"), std::string::npos) << "the message shows the value: " << what;
    }
  }
  // The client refuses such a header itself, before anything is sent.
  HttpClient client;
  EXPECT_THROW(client.post_json("http://127.0.0.1:1/v1/completions", "{}",
                                {"Authorization: Bearer sk\r\nX-Injected: 1"}, 1),
               std::invalid_argument);
}

TEST(Retry, RateLimiterSpacesRequests) {
  RateLimiter limiter(200);
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 41; ++i) limiter.acquire();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_GE(s, 0.2 - 1e-3);  // 40 gaps of 5 ms
}

TEST(Probes, HopSuitesAreEvalsExamplesInTheTemplate) {
  SuiteOptions o;
  o.lengths = {17, 40};
  o.hops = {1, 3};
  o.count = 3;
  o.seed = 11;
  for (const std::string suite : {"number", "letter"}) {
    const std::vector<Probe> probes = make_probes(suite, o);
    ASSERT_EQ(probes.size(), 12u);
    std::size_t i = 0;
    std::set<std::string> ids;
    for (int len : o.lengths) {
      const std::vector<Example> ex =
          make_dataset({parse_task(suite), o.hops, len, 6, 11, Variant::kStandard});
      for (const Example& e : ex) {
        const Probe& p = probes[i++];
        EXPECT_EQ(p.answer, e.answer);
        EXPECT_EQ(p.hops, e.hops);
        EXPECT_EQ(p.length, len);
        EXPECT_DOUBLE_EQ(p.depth, static_cast<double>(e.chain.back()) / (len - 1));
        // What `serve` reads back is exactly the example's tokens.
        EXPECT_EQ(extract_task_input(p.prompt, Vocabulary::of(parse_task(suite))), e.tokens);
        ids.insert(p.id);
      }
    }
    EXPECT_EQ(ids.size(), probes.size());
  }
}

// Chance is counted here from the prompt's own tokens (the distinct answer-shaped ones: Number's
// letters, Letter's "l:digit" targets), not from the generator's answer_candidates.
TEST(Summary, ChanceIsTheMeanOfEachPromptsUniformGuess) {
  SuiteOptions o;
  o.lengths = {17, 40};
  o.hops = {1, 3};
  o.count = 3;
  o.seed = 5;
  for (const std::string suite : {"number", "letter"}) {
    const std::vector<Probe> probes = make_probes(suite, o);
    std::vector<std::string> hashes;
    std::map<std::string, ResultRow> rows;
    std::map<int, double> sum;  // by length
    for (std::size_t i = 0; i < probes.size(); ++i) {
      std::set<std::string> candidates;
      for (const std::string& t :
           extract_task_input(probes[i].prompt, Vocabulary::of(parse_task(suite)))) {
        const bool letter = !t.empty() && !std::isdigit(static_cast<unsigned char>(t[0]));
        const bool target = t.size() == 3 && t[1] == ':' && std::isdigit(t[2]);
        if (suite == "number" ? letter : target) candidates.insert(t);
      }
      ASSERT_FALSE(candidates.empty());
      const double expected = 1.0 / static_cast<double>(candidates.size());
      EXPECT_DOUBLE_EQ(probes[i].chance, expected) << probes[i].id;
      if (suite == "number") {
        EXPECT_DOUBLE_EQ(probes[i].chance, 0.125) << probes[i].id;
      }
      sum[probes[i].length] += expected;
      hashes.push_back("h" + std::to_string(i));
      ResultRow row;
      row.ok = true;
      rows[hashes.back()] = row;
    }
    const SuiteSummary s = summarize_suite(suite, "m", probes, hashes, rows);
    int checked = 0;
    for (const AccuracyRow& r : s.by_length) {
      if (r.hops != 0) continue;
      EXPECT_NEAR(r.chance, sum[r.length] / static_cast<double>(r.n), 1e-15) << r.length;
      ++checked;
    }
    EXPECT_EQ(checked, 2);
    const nlohmann::json j = to_json(s);
    EXPECT_DOUBLE_EQ(j["by_length"][0]["chance"].get<double>(), s.by_length[0].chance);
  }
}

TEST(Probes, NeedleHidesTheKeyAtItsDepth) {
  SuiteOptions o;
  o.lengths = {1, 11, 40};
  o.depths = {0, 30, 50, 100};
  o.count = 2;
  const std::vector<Probe> probes = make_probes("needle", o);
  ASSERT_EQ(probes.size(), 3u * 4u * 2u);
  std::set<std::string> answers;
  for (const Probe& p : probes) {
    const std::size_t open = p.prompt.find("{\"");
    const std::size_t close = p.prompt.find("}\n", open);
    ASSERT_NE(open, std::string::npos);
    const auto obj = nlohmann::ordered_json::parse(p.prompt.substr(open, close + 1 - open));
    ASSERT_EQ(static_cast<int>(obj.size()), p.length);  // keys are distinct
    const std::size_t key_at = p.prompt.find("Key: \"");
    const std::string key = p.prompt.substr(key_at + 6, 36);
    int index = 0, found = -1;
    for (const auto& [k, v] : obj.items()) {
      if (k == key) {
        found = index;
        EXPECT_EQ(v.get<std::string>(), p.answer);
      }
      ++index;
    }
    const int depth = std::stoi(p.id.substr(p.id.find("/d") + 2));
    EXPECT_EQ(found, static_cast<int>(std::lround(depth / 100.0 * (p.length - 1)))) << p.id;
    EXPECT_TRUE(score_answer("needle", p.answer, p.answer).strict);
    answers.insert(p.answer);
  }
  EXPECT_EQ(answers.size(), probes.size());
  EXPECT_EQ(make_probes("needle", o)[5].prompt, probes[5].prompt);  // deterministic
  o.seed = 2;
  EXPECT_NE(make_probes("needle", o)[5].prompt, probes[5].prompt);
}

// The suites' table: each name, in order, with its default lengths (passkey's come from the run);
// an unknown name is refused listing them all, in the words docs/llm.md shows.
TEST(Probes, EverySuiteRowHasItsNameAndLengths) {
  const std::vector<std::pair<std::string, std::vector<int>>> want = {
      {"number", {16, 32, 64, 100, 200, 400, 850}},
      {"letter", {16, 32, 64, 100, 200, 400, 850}},
      {"needle", {10, 30, 75, 140, 300}},
      {"kv", {128, 256, 512}},
      {"passkey", {}}};
  ASSERT_EQ(suite_names().size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(suite_names()[i], want[i].first);
    EXPECT_NO_THROW(validate_suite(want[i].first));
    EXPECT_EQ(default_lengths(want[i].first), want[i].second) << want[i].first;
  }
  try {
    validate_suite("bogus");
    ADD_FAILURE() << "accepted 'bogus'";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unknown suite 'bogus' (known: number, letter, needle, kv, passkey)");
  }
}

TEST(Probes, TemplatesAreFilesAUserCanEdit) {
  const fs::path dir = scratch("templates");
  fs::remove_all(dir);
  write_templates(dir.string());
  for (const std::string& s : suite_names()) {
    std::ifstream in(dir / (s + ".txt"));
    const std::string text{std::istreambuf_iterator<char>(in), {}};
    EXPECT_EQ(text, builtin_template(s));
    // The shipped file is the built-in one.
    std::ifstream shipped(std::string(POSBIAS_SOURCE_DIR) + "/templates/" + s + ".txt");
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(shipped), {}), text);
  }
  std::ofstream(dir / "letter.txt") << "Solve:\n{input}\n";
  SuiteOptions o;
  o.lengths = {17};
  o.hops = {1};
  o.count = 1;
  o.template_dir = dir.string();
  const Probe p = make_probes("letter", o).at(0);
  EXPECT_EQ(p.prompt.rfind("Solve:\n", 0), 0u);
  std::ofstream(dir / "letter.txt") << "no placeholder";
  EXPECT_THROW(make_probes("letter", o), std::invalid_argument);
  std::ofstream(dir / "needle.txt") << "{input} without the key";
  EXPECT_THROW(make_probes("needle", o), std::invalid_argument);
  o.template_dir = (dir / "missing").string();
  EXPECT_THROW(make_probes("number", o), std::invalid_argument);
  EXPECT_THROW(make_probes("bogus", SuiteOptions{}), std::invalid_argument);
  EXPECT_THROW(extract_task_input("no tokens here\nat all", Vocabulary::of(Task::kLetter)),
               std::invalid_argument);
}

// A template is read only when it is a regular file of at most 1 MiB, checked before reading:
// a link to /dev/zero or a FIFO is refused in one line (bad usage), never read without end.
TEST(Probes, TemplatesThatAreNotRegularFilesAreRefusedBeforeReading) {
  const fs::path dir = scratch("device_templates");
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::create_symlink("/dev/zero", dir / "letter.txt");
  ASSERT_EQ(::mkfifo((dir / "number.txt").c_str(), 0600), 0);
  SuiteOptions o;
  o.lengths = {17};
  o.hops = {1};
  o.count = 1;
  o.template_dir = dir.string();
  for (const char* suite : {"letter", "number"}) {
    try {
      make_probes(suite, o);
      ADD_FAILURE() << suite << ": a template that is not a regular file was read";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
  }
  // Larger than 1 MiB: refused by its size, before it is read.
  fs::remove(dir / "letter.txt");
  std::ofstream(dir / "letter.txt") << std::string((1u << 20) + 1, 'x') << "{input}";
  EXPECT_THROW(make_probes("letter", o), std::invalid_argument);
}

TEST(Probes, BadSuiteOptionsAreRefused) {
  SuiteOptions o;
  o.lengths = {5};  // shorter than 8 targets + hops
  EXPECT_THROW(make_probes("letter", o), std::invalid_argument);
  o.lengths = {17};
  o.count = 0;
  EXPECT_THROW(make_probes("number", o), std::invalid_argument);
  o.count = 1;
  o.depths = {101};
  EXPECT_THROW(make_probes("needle", o), std::invalid_argument);
  o.depths = {50};
  o.lengths = {20000};
  EXPECT_THROW(make_probes("needle", o), std::invalid_argument);
  // Within every per-option limit, but about 80 GiB of prompts in all: refused up front.
  o.lengths = {10000};
  o.depths = {0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100};
  o.count = 10000;
  EXPECT_THROW(make_probes("needle", o), std::invalid_argument);
  SuiteOptions hop;
  hop.lengths = {100000};
  hop.count = 100000;
  EXPECT_THROW(make_probes("letter", hop), std::invalid_argument);
  // A 160 kB template of {input} placeholders repeats the input 23 000 times per prompt:
  // counted, and refused before one prompt is built.
  const fs::path templates = scratch("many_inputs");
  fs::create_directories(templates);
  {
    std::ofstream t(templates / "letter.txt");
    for (int i = 0; i < 22000; ++i) t << "{input}";
    t << " {key}";
  }
  SuiteOptions many;
  many.template_dir = templates.string();
  many.lengths = {1000};
  many.count = 100;
  try {
    make_probes("letter", many);
    ADD_FAILURE() << "built prompts of 22000 inputs each";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("the template's 22000 {input} placeholders"),
              std::string::npos)
        << e.what();
  }
}

ResultRow row(const std::string& hash, bool ok, const std::string& response) {
  ResultRow r;
  r.suite = "letter";
  r.model = "m";
  r.prompt_hash = hash;
  r.probe_id = "letter/L17/#" + hash;
  r.length = 17;
  r.hops = 2;
  r.depth = 0.25;
  r.prompt = "p " + hash;
  r.answer = "c:4";
  r.ok = ok;
  r.response = response;
  r.error = ok ? "" : "HTTP 500: x";
  r.attempts = 5;
  r.latency_ms = 12.5;
  r.strict = ok && response == "c:4";
  r.lenient = r.strict;
  return r;
}

TEST(ResultStore, KeysRowsAndNeverReplacesAnAnswer) {
  EXPECT_EQ(prompt_hash("chat", 16, "hello"),
            "6fc58419d0e0404f9ed27416fe71805353f94366003f8fb2a5698702178cd8e8");  // sha256sum
  const fs::path db = scratch("store.db");
  {
    ResultStore s(db.string());
    s.put(row("h1", true, "c:4"));
    s.put(row("h2", false, ""));
    s.put(row("h1", false, ""));  // an answered row stays
    const auto st = s.statuses("letter", "m");
    ASSERT_EQ(st.size(), 2u);
    EXPECT_TRUE(st.at("h1"));
    EXPECT_FALSE(st.at("h2"));
    EXPECT_TRUE(s.statuses("letter", "other").empty());
  }
  ResultStore s(db.string());     // reopened
  s.put(row("h2", true, "d:5"));  // a failed row gives way, its attempts add up
  const auto rows = s.rows("letter", "m");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].prompt_hash, "h1");
  EXPECT_EQ(rows[0].response, "c:4");
  EXPECT_EQ(rows[0].attempts, 5);
  EXPECT_TRUE(rows[0].strict);
  EXPECT_EQ(rows[1].response, "d:5");
  EXPECT_TRUE(rows[1].ok);
  EXPECT_EQ(rows[1].attempts, 10);
  EXPECT_FALSE(rows[1].strict);
  EXPECT_DOUBLE_EQ(rows[1].depth, 0.25);
  EXPECT_EQ(s.count(), 2);
}

std::string slurp_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(ResultStore, AReadOnlyFileIsFoundBeforeAnyRequest) {
  // Root writes through file permissions, so the check runs as an unprivileged user.
  const fs::path db = scratch("readonly.db");
  { ResultStore s(db.string()); }
  fs::permissions(db, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  fs::permissions(db.parent_path(), fs::perms::all);  // the user may create the -wal file
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) _exit(3);
    try {
      ResultStore s(db.string());
    } catch (const std::invalid_argument& e) {
      _exit(std::string(e.what()).find("is read-only") != std::string::npos ? 0 : 4);
    } catch (...) {
      _exit(5);
    }
    _exit(6);  // opened for writing
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "3: cannot drop privileges, 4: another message, 5: "
                                       "another exception, 6: accepted";
}

// Another program's SQLite file: a new file in the scratch directory, made by `sql`.
fs::path sqlite_file(const std::string& name, const char* sql) {
  const fs::path path = scratch(name);
  sqlite3* h = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &h), SQLITE_OK);
  EXPECT_EQ(sqlite3_exec(h, sql, nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(h);
  return path;
}

TEST(ResultStore, ForeignFilesAreRefused) {
  const fs::path text = scratch("notes.db");
  std::ofstream(text) << std::string(4096, 'x');
  try {
    ResultStore s(text.string());
    ADD_FAILURE() << "opened a text file";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("not an SQLite database"), std::string::npos);
  }
  // Another program's SQLite file with its own `results` table.
  const fs::path other = sqlite_file("other.db", "CREATE TABLE results (x INT)");
  EXPECT_THROW(ResultStore(other.string()), std::invalid_argument);
  // Another program's SQLite file without a results table is not written into either.
  const fs::path app = sqlite_file("app.db", "CREATE TABLE users (name TEXT)");
  const std::string before = slurp_bytes(app);
  try {
    ResultStore s(app.string());
    ADD_FAILURE() << "took another application's file";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("another application's SQLite file (tables: users)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(slurp_bytes(app), before);
  // posbias's own file, once marked, opens again.
  const fs::path mine = scratch("mine.db");
  { ResultStore s(mine.string()); }
  EXPECT_NO_THROW(ResultStore s(mine.string()));
  EXPECT_THROW(ResultStore(""), std::invalid_argument);
  // A missing folder outside the working directory: refused as any output's (bad usage).
  EXPECT_THROW(ResultStore((fs::temp_directory_path() / "no/such/dir/x.db").string()),
               std::invalid_argument);
  EXPECT_FALSE(fs::exists(fs::temp_directory_path() / "no"));
}

}  // namespace

// The length figure draws hop counts as an ordered series (the sequential map, a "hops" colour
// bar), and all hops and chance beside them in colours of the named set that the map does not
// use; the legend names only those two.
TEST(LlmSummary, LengthFigureDrawsHopCountsAsAnOrderedSeries) {
  SuiteSummary s;
  s.suite = "number";
  s.model = "m";
  for (int length : {16, 32})
    for (int hops : {0, 1, 2, 3}) {
      AccuracyRow r;
      r.length = length;
      r.hops = hops;
      r.n = 10;
      r.lenient = 0.5;
      r.lenient_ci = {0.3, 0.7};
      r.chance = 0.125;
      s.by_length.push_back(r);
    }
  const fs::path dir = scratch("length_figure");
  plot_summary(s, (dir / "f").string(), ScoreRule::kLenient);
  std::ifstream in(dir / "f_number_length.gp");
  std::stringstream text;
  text << in.rdbuf();
  const std::string gp = text.str();
  EXPECT_NE(gp.find("set cblabel \"hops\""), std::string::npos) << gp;
  EXPECT_EQ(gp.find("title \"1-hop\""), std::string::npos) << gp;  // named on the bar instead
  EXPECT_NE(gp.find("title \"all hops\""), std::string::npos) << gp;
}

// The score rules' names, from one table: each parses back to itself, the CSV's columns and
// --score's help name them, and another name is refused in one line listing them.
TEST(LlmSummary, ScoreRuleNamesRoundTrip) {
  for (const ScoreRule rule : {ScoreRule::kStrict, ScoreRule::kLenient})
    EXPECT_EQ(parse_score_rule(to_string(rule)), rule) << to_string(rule);
  EXPECT_EQ(to_string(ScoreRule::kStrict), "strict");
  EXPECT_EQ(to_string(ScoreRule::kLenient), "lenient");
  EXPECT_EQ(score_rule_names(), "strict or lenient");
  try {
    parse_score_rule("exact");
    ADD_FAILURE() << "accepted 'exact'";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unknown --score 'exact' (use strict or lenient)");
  }
  SuiteSummary s;
  s.suite = "kv";
  s.model = "m";
  const std::string header = summary_csv({s});
  EXPECT_NE(header.find(",strict,strict_low,strict_high,lenient,"), std::string::npos) << header;
}
