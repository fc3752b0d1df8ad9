// `posbias serve` driven by the official OpenAI Node client (npm openai 4.104.0, pinned by
// scripts/fetch-openai-client.sh). Run by openai_client_conformance.sh, which serves a kv model
// ("kv") and a byte-tokenizer text model ("text"):
//   OPENAI_NODE_DIR=data/openai-node node openai_client_conformance.mjs MAIN_URL BUSY_URL
// MAIN_URL is a server with --max-body 4096; BUSY_URL one with --timeout 0.05 (overload).
// Every check runs, whatever failed before it, and prints PASS or FAIL with its message; the
// exit status is 1 when any failed.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [mainUrl, busyUrl] = process.argv.slice(2);
if (!mainUrl || !busyUrl) {
  console.error('usage: node openai_client_conformance.mjs MAIN_BASE_URL BUSY_BASE_URL');
  process.exit(2);
}
const clientDir = process.env.OPENAI_NODE_DIR;
if (!clientDir) {
  console.error('OPENAI_NODE_DIR must name the folder holding node_modules/openai');
  process.exit(2);
}
const pkg = path.join(path.resolve(clientDir), 'node_modules', 'openai');
const { default: OpenAI, APIError, NotFoundError, BadRequestError } = await import(
  pathToFileURL(path.join(pkg, 'index.mjs')).href
);
const { VERSION } = await import(pathToFileURL(path.join(pkg, 'version.mjs')).href);
if (VERSION !== '4.104.0') {
  console.error(`the OpenAI client in ${pkg} is ${VERSION}, not the pinned 4.104.0`);
  process.exit(1);
}

// maxRetries 0: the client retries 429 and 5xx by itself, which would hide what serve answered.
const client = new OpenAI({ baseURL: mainUrl, apiKey: 'x', maxRetries: 0, timeout: 30000 });
const busy = new OpenAI({ baseURL: busyUrl, apiKey: 'x', maxRetries: 0, timeout: 30000 });

// A kv example as `posbias tasks --task kv` writes it (two pairs, then the query), and text.
const KV = '_ _ A B C 4 0 7 D E F 1 2 3 ? A B C';
const TEXT = 'The jury said';
const MODELS = { kv: KV, text: TEXT };

class CheckFailure extends Error {}
function assert(condition, message) {
  if (!condition) throw new CheckFailure(message);
}
const show = (v) => JSON.stringify(v);
function equal(got, want, what) {
  assert(show(got) === show(want), `${what}: got ${show(got)}, expected ${show(want)}`);
}

const results = [];
async function check(name, body) {
  const begin = Date.now();
  try {
    await Promise.race([
      body(),
      new Promise((_, reject) =>
        setTimeout(() => reject(new CheckFailure('did not finish within 30 s')), 30000).unref()),
    ]);
    results.push({ name, ok: true });
    console.log(`PASS ${name} (${Date.now() - begin} ms)`);
  } catch (e) {
    const message = e instanceof CheckFailure ? e.message
      : e instanceof APIError ? `unexpected ${e.constructor.name} ${e.status}: ${e.message}`
        : `unexpected ${e?.name}: ${e?.message}`;
    results.push({ name, ok: false, message });
    console.log(`FAIL ${name}: ${message}`);
  }
}

// OpenAI's error body: {"error": {"message", "type", "param", "code"}}, as the client reads it.
function errorShape(e, what) {
  assert(e instanceof APIError, `${what}: expected an APIError, got ${e?.name}: ${e?.message}`);
  const body = e.error;
  assert(body && typeof body === 'object',
    `${what}: the error body has no "error" object (client saw ${show(body)})`);
  assert(typeof body.message === 'string' && body.message.length > 0,
    `${what}: error.message is not a non-empty string: ${show(body)}`);
  assert(typeof body.type === 'string' && body.type.length > 0,
    `${what}: error.type is not a non-empty string: ${show(body)}`);
  assert('param' in body, `${what}: error has no "param" field (null when none): ${show(body)}`);
  assert('code' in body, `${what}: error has no "code" field (null when none): ${show(body)}`);
}
// Runs `call`, which must throw an APIError of `status` (and `cls`, `param`, `code` if given).
async function expectError(what, call, { status, cls, param, code }) {
  let thrown;
  try {
    const r = await call();
    if (r && typeof r[Symbol.asyncIterator] === 'function') for await (const _ of r);
  } catch (e) {
    thrown = e;
  }
  assert(thrown, `${what}: expected HTTP ${status}, the request succeeded`);
  assert(thrown instanceof APIError,
    `${what}: expected HTTP ${status}, got ${thrown?.name}: ${thrown?.message}`);
  equal(thrown.status, status, `${what}: status`);
  if (cls) assert(thrown instanceof cls, `${what}: expected a ${cls.name}, got ${thrown.constructor.name}`);
  errorShape(thrown, what);
  if (param !== undefined) equal(thrown.param, param, `${what}: error.param`);
  if (code !== undefined) equal(thrown.code, code, `${what}: error.code`);
  return thrown;
}

function usageAdds(usage, what) {
  assert(usage && typeof usage === 'object', `${what}: no usage`);
  for (const k of ['prompt_tokens', 'completion_tokens', 'total_tokens']) {
    assert(Number.isInteger(usage[k]) && usage[k] >= 0, `${what}: usage.${k} is ${show(usage[k])}`);
  }
  assert(usage.prompt_tokens > 0, `${what}: usage.prompt_tokens is 0`);
  assert(usage.completion_tokens > 0, `${what}: usage.completion_tokens is 0`);
  assert(usage.total_tokens === usage.prompt_tokens + usage.completion_tokens,
    `${what}: usage.total_tokens ${usage.total_tokens} != prompt ${usage.prompt_tokens} + completion ${usage.completion_tokens}`);
}

const complete = (model, extra = {}) =>
  client.completions.create({ model, prompt: MODELS[model], max_tokens: 8, ...extra });
const chat = (model, extra = {}) =>
  client.chat.completions.create({
    model, messages: [{ role: 'user', content: MODELS[model] }], max_tokens: 8, ...extra,
  });
const chatText = (r) => r.choices[0].message.content;

// Collects a stream: the texts of choice 0 in order, every chunk, and chat's deltas.
async function collect(stream, api) {
  const chunks = [];
  let text = '';
  for await (const chunk of stream) {
    chunks.push(chunk);
    for (const c of chunk.choices ?? []) {
      if (c.index !== 0) continue;
      text += api === 'chat' ? (c.delta?.content ?? '') : (c.text ?? '');
    }
  }
  return { chunks, text };
}

// ---- models
await check('models.list lists kv and text', async () => {
  const ids = [];
  for await (const m of client.models.list()) {
    equal(m.object, 'model', `models.list: ${m.id}'s object`);
    ids.push(m.id);
  }
  equal(ids.slice().sort(), ['kv', 'text'], 'models.list ids');
});
await check("models.retrieve('kv') is {id: 'kv', object: 'model'}", async () => {
  const m = await client.models.retrieve('kv');
  equal(m.id, 'kv', 'models.retrieve(kv).id');
  equal(m.object, 'model', 'models.retrieve(kv).object');
});
await check("models.retrieve('nope') is 404 model_not_found", async () => {
  await expectError("models.retrieve('nope')", () => client.models.retrieve('nope'),
    { status: 404, cls: NotFoundError, code: 'model_not_found' });
});

// ---- plain answers, usage, finish_reason
for (const model of ['kv', 'text']) {
  await check(`completions.create on ${model}: an answer, usage adds up`, async () => {
    const r = await complete(model);
    equal(r.object, 'text_completion', 'object');
    equal(r.model, model, 'model');
    equal(r.choices.length, 1, 'choices');
    assert(r.choices[0].text.length > 0, `empty completion: ${show(r.choices[0])}`);
    assert(['stop', 'length'].includes(r.choices[0].finish_reason),
      `finish_reason ${show(r.choices[0].finish_reason)}`);
    usageAdds(r.usage, 'usage');
    assert(r.usage.completion_tokens <= 8, `completion_tokens ${r.usage.completion_tokens} > max_tokens 8`);
  });
  await check(`chat.completions.create on ${model}: an answer, usage adds up`, async () => {
    const r = await chat(model);
    equal(r.object, 'chat.completion', 'object');
    equal(r.model, model, 'model');
    equal(r.choices.length, 1, 'choices');
    equal(r.choices[0].message.role, 'assistant', 'message.role');
    assert(typeof chatText(r) === 'string' && chatText(r).length > 0,
      `empty message: ${show(r.choices[0])}`);
    usageAdds(r.usage, 'usage');
  });
  await check(`model 'nope' instead of ${model}: 404 model_not_found on both endpoints`, async () => {
    await expectError('completions, model nope',
      () => client.completions.create({ model: 'nope', prompt: MODELS[model], max_tokens: 4 }),
      { status: 404, cls: NotFoundError, code: 'model_not_found' });
    await expectError('chat, model nope',
      () => client.chat.completions.create({
        model: 'nope', messages: [{ role: 'user', content: MODELS[model] }], max_tokens: 4,
      }), { status: 404, cls: NotFoundError, code: 'model_not_found' });
  });
}

await check("finish_reason 'length' when max_tokens cuts (kv: 2 of its 3 tokens; text: 5)", async () => {
  const kv = await complete('kv', { max_tokens: 2 });
  equal(kv.choices[0].finish_reason, 'length', 'kv, max_tokens 2: finish_reason');
  equal(kv.usage.completion_tokens, 2, 'kv, max_tokens 2: completion_tokens');
  const kvChat = await chat('kv', { max_tokens: 2 });
  equal(kvChat.choices[0].finish_reason, 'length', 'kv chat, max_tokens 2: finish_reason');
  const text = await complete('text', { max_tokens: 5 });
  equal(text.choices[0].finish_reason, 'length', 'text, max_tokens 5: finish_reason');
  equal(text.usage.completion_tokens, 5, 'text, max_tokens 5: completion_tokens');
  const full = await complete('kv', { max_tokens: 16 });
  equal(full.choices[0].finish_reason, 'stop', 'kv, max_tokens 16 (it ends after 3): finish_reason');
});

// A stop string taken from the greedy answer: the first character that did not occur before it.
async function stopCase(model, api) {
  const call = api === 'chat' ? chat : complete;
  const get = (r) => (api === 'chat' ? chatText(r) : r.choices[0].text);
  const answer = get(await call(model, { max_tokens: 12 }));
  let k = 1;
  while (k < answer.length && answer.indexOf(answer[k]) !== k) ++k;
  assert(k < answer.length, `${model} ${api}: the greedy answer ${show(answer)} has no character to stop at`);
  const r = await call(model, { max_tokens: 12, stop: [answer[k]] });
  equal(get(r), answer.slice(0, k), `${model} ${api}, stop ${show(answer[k])} in ${show(answer)}: text`);
  equal(r.choices[0].finish_reason, 'stop', `${model} ${api}, stop ${show(answer[k])}: finish_reason`);
}
await check("stop strings cut the answer, finish_reason 'stop' (text, both endpoints; kv)", async () => {
  await stopCase('text', 'completions');
  await stopCase('text', 'chat');
  await stopCase('kv', 'completions');
});

// ---- streaming
for (const [model, api] of [['kv', 'completions'], ['text', 'completions'], ['kv', 'chat'], ['text', 'chat']]) {
  await check(`stream on ${api} (${model}): chunks concatenate to the greedy answer`, async () => {
    const call = api === 'chat' ? chat : complete;
    const whole = await call(model, { max_tokens: 10 });
    const want = api === 'chat' ? chatText(whole) : whole.choices[0].text;
    const { chunks, text } = await collect(await call(model, { max_tokens: 10, stream: true }), api);
    assert(chunks.length > 0, 'no chunks');
    equal(text, want, 'concatenated chunks vs the non-streamed answer');
    const object = api === 'chat' ? 'chat.completion.chunk' : 'text_completion';
    for (const c of chunks) equal(c.object, object, 'chunk object');
    const ids = new Set(chunks.map((c) => c.id));
    equal(ids.size, 1, 'every chunk carries the same id');
    const last = chunks.filter((c) => c.choices?.length).at(-1);
    equal(last.choices[0].finish_reason, whole.choices[0].finish_reason, 'the last choice chunk\'s finish_reason');
    if (api === 'chat') {
      const first = chunks.find((c) => c.choices?.length);
      equal(first.choices[0].delta.role, 'assistant', "the first delta's role");
    }
  });
}
for (const api of ['completions', 'chat']) {
  await check(`stream on ${api} with include_usage: the last chunk has usage and no choices`, async () => {
    const call = api === 'chat' ? chat : complete;
    const whole = await call('text', { max_tokens: 6 });
    const { chunks, text } = await collect(
      await call('text', { max_tokens: 6, stream: true, stream_options: { include_usage: true } }), api);
    const last = chunks.at(-1);
    assert(last, 'no chunks');
    equal(last.choices, [], 'the last chunk\'s choices');
    usageAdds(last.usage, 'the last chunk\'s usage');
    equal(last.usage, whole.usage, 'the streamed usage vs the non-streamed');
    for (const c of chunks.slice(0, -1)) {
      assert(c.usage == null, `a chunk before the last has usage: ${show(c)}`);
    }
    equal(text, api === 'chat' ? chatText(whole) : whole.choices[0].text, 'streamed text');
  });
}
// The client ends its iteration at [DONE] but also at a closed connection: read the wire too.
await check('stream: server-sent events end with data: [DONE] (raw fetch, both endpoints)', async () => {
  for (const [route, body] of [
    ['/completions', { model: 'kv', prompt: KV, max_tokens: 4, stream: true }],
    ['/chat/completions', { model: 'kv', messages: [{ role: 'user', content: KV }], max_tokens: 4, stream: true }],
  ]) {
    const r = await fetch(mainUrl + route, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    });
    equal(r.status, 200, `${route} stream: status`);
    assert((r.headers.get('content-type') ?? '').startsWith('text/event-stream'),
      `${route} stream: Content-Type is ${show(r.headers.get('content-type'))}, expected text/event-stream`);
    const data = (await r.text()).split('\n').filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).trim());
    assert(data.length >= 2, `${route} stream: ${data.length} data lines`);
    equal(data.at(-1), '[DONE]', `${route} stream: the last event`);
    for (const d of data.slice(0, -1)) JSON.parse(d);
  }
});

// ---- logprobs
function sortedDescending(values, what) {
  for (let i = 1; i < values.length; ++i) {
    assert(values[i - 1] >= values[i], `${what}: not sorted by log-probability: ${show(values)}`);
  }
}
function checkCompletionLogprobs(choice, what) {
  const lp = choice.logprobs;
  assert(lp && typeof lp === 'object', `${what}: choices[0].logprobs is ${show(lp)}`);
  assert(Array.isArray(lp.tokens) && lp.tokens.length > 0, `${what}: logprobs.tokens is ${show(lp.tokens)}`);
  const n = lp.tokens.length;
  equal(lp.token_logprobs?.length, n, `${what}: token_logprobs' length`);
  equal(lp.top_logprobs?.length, n, `${what}: top_logprobs' length`);
  equal(lp.tokens.join(''), choice.text, `${what}: the tokens joined vs the text`);
  for (let i = 0; i < n; ++i) {
    const chosen = lp.token_logprobs[i];
    assert(typeof chosen === 'number' && chosen <= 0, `${what}: token ${i}'s logprob is ${show(chosen)}`);
    const top = lp.top_logprobs[i] ?? {};
    const entries = Object.entries(top);
    equal(entries.length, 2, `${what}: token ${i}'s top_logprobs entries`);
    assert(lp.tokens[i] in top,
      `${what}: token ${i} ${show(lp.tokens[i])} is not among its top_logprobs ${show(top)}`);
    assert(Math.abs(top[lp.tokens[i]] - chosen) < 1e-5,
      `${what}: token ${i}'s logprob ${chosen} vs its top_logprobs entry ${top[lp.tokens[i]]}`);
    const best = Math.max(...entries.map(([, v]) => v));
    assert(top[lp.tokens[i]] === best,
      `${what}: token ${i} ${show(lp.tokens[i])} (greedy) is not the most likely of ${show(top)}`);
  }
  return lp;
}
// Completions' top_logprobs are JSON objects, in OpenAI's answers most likely first; JavaScript
// puts integer-like keys ("4", "0": kv tokens) first in ascending order whatever the JSON says,
// so the order is read from the body's text: each object's values, in the order written.
function rawTopLogprobValues(body) {
  const at = body.indexOf('"top_logprobs"');
  assert(at >= 0, `no top_logprobs in ${body.slice(0, 200)}`);
  let i = body.indexOf('[', at) + 1;
  const objects = [];
  let current = null;
  while (i < body.length) {
    const ch = body[i];
    if (ch === '"') {  // a key: skip the string, then read the number after the colon
      let j = i + 1;
      while (body[j] !== '"') j += body[j] === '\\' ? 2 : 1;
      const m = /^\s*:\s*(-?[0-9.eE+-]+)/.exec(body.slice(j + 1, j + 64));
      assert(m, `unexpected top_logprobs text near ${body.slice(i, i + 40)}`);
      current.push(Number(m[1]));
      i = j + 1 + m[0].length;
    } else if (ch === '{') { current = []; ++i; }
    else if (ch === '}') { objects.push(current); ++i; }
    else if (ch === ']') break;
    else ++i;
  }
  return objects;
}
function checkChatLogprobs(choice, what) {
  const content = choice.logprobs?.content;
  assert(Array.isArray(content) && content.length > 0,
    `${what}: choices[0].logprobs.content is ${show(choice.logprobs)}`);
  equal(content.map((t) => t.token).join(''), choice.message?.content ?? content.map((t) => t.token).join(''),
    `${what}: the tokens joined vs the message`);
  content.forEach((t, i) => {
    assert(typeof t.token === 'string', `${what}: content[${i}].token is ${show(t.token)}`);
    assert(typeof t.logprob === 'number' && t.logprob <= 0, `${what}: content[${i}].logprob is ${show(t.logprob)}`);
    equal(t.bytes, [...Buffer.from(t.token, 'utf8')], `${what}: content[${i}].bytes`);
    assert(Array.isArray(t.top_logprobs), `${what}: content[${i}].top_logprobs is ${show(t.top_logprobs)}`);
    equal(t.top_logprobs.length, 2, `${what}: content[${i}].top_logprobs' length`);
    sortedDescending(t.top_logprobs.map((a) => a.logprob), `${what}: content[${i}].top_logprobs`);
    for (const a of t.top_logprobs) {
      assert(typeof a.token === 'string' && typeof a.logprob === 'number' && Array.isArray(a.bytes),
        `${what}: content[${i}].top_logprobs entry ${show(a)}`);
    }
    equal(t.top_logprobs[0].token, t.token, `${what}: content[${i}] (greedy) vs its most likely alternative`);
  });
  return content;
}
for (const model of ['kv', 'text']) {
  await check(`completions logprobs: 2 on ${model}: tokens, token_logprobs, top_logprobs`, async () => {
    const r = await complete(model, { logprobs: 2, max_tokens: 6 });
    checkCompletionLogprobs(r.choices[0], `${model} completions`);
    const raw = await fetch(mainUrl + '/completions', {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ model, prompt: MODELS[model], max_tokens: 6, logprobs: 2 }),
    });
    rawTopLogprobValues(await raw.text()).forEach((values, i) =>
      sortedDescending(values, `${model} completions: token ${i}'s top_logprobs as written`));
  });
  await check(`chat logprobs: true, top_logprobs: 2 on ${model}: content with token, logprob, bytes, top_logprobs`, async () => {
    const r = await chat(model, { logprobs: true, top_logprobs: 2, max_tokens: 6 });
    checkChatLogprobs(r.choices[0], `${model} chat`);
  });
}
await check('streamed logprobs equal the non-streamed ones (text, both endpoints)', async () => {
  const whole = checkCompletionLogprobs((await complete('text', { logprobs: 2, max_tokens: 6 })).choices[0],
    'completions');
  const { chunks } = await collect(await complete('text', { logprobs: 2, max_tokens: 6, stream: true }), 'completions');
  const tokens = [];
  const values = [];
  for (const c of chunks) {
    for (const ch of c.choices ?? []) {
      if (!ch.logprobs) continue;
      tokens.push(...ch.logprobs.tokens);
      values.push(...ch.logprobs.token_logprobs);
    }
  }
  equal(tokens, whole.tokens, 'completions: streamed logprobs.tokens');
  values.forEach((v, i) => assert(Math.abs(v - whole.token_logprobs[i]) < 1e-3,
    `completions: streamed token_logprobs[${i}] ${v} vs ${whole.token_logprobs[i]}`));

  const wholeChat = checkChatLogprobs((await chat('text', { logprobs: true, top_logprobs: 2, max_tokens: 6 })).choices[0],
    'chat');
  const streamed = await collect(await chat('text', { logprobs: true, top_logprobs: 2, max_tokens: 6, stream: true }), 'chat');
  const content = streamed.chunks.flatMap((c) => (c.choices ?? []).flatMap((ch) => ch.logprobs?.content ?? []));
  equal(content.map((t) => t.token), wholeChat.map((t) => t.token), 'chat: streamed logprobs.content tokens');
  content.forEach((t, i) => assert(Math.abs(t.logprob - wholeChat[i].logprob) < 1e-3,
    `chat: streamed content[${i}].logprob ${t.logprob} vs ${wholeChat[i].logprob}`));
});

// ---- n, seed, echo, limits
await check('n: 3 gives 3 choices, indices 0, 1, 2, identical when greedy (both endpoints)', async () => {
  const r = await complete('text', { n: 3, max_tokens: 6 });
  equal(r.choices.map((c) => c.index), [0, 1, 2], 'completions choices\' indices');
  equal(new Set(r.choices.map((c) => c.text)).size, 1, `completions greedy texts ${show(r.choices.map((c) => c.text))} distinct count`);
  const c = await chat('text', { n: 3, max_tokens: 6 });
  equal(c.choices.map((x) => x.index), [0, 1, 2], 'chat choices\' indices');
  equal(new Set(c.choices.map((x) => x.message.content)).size, 1, 'chat greedy texts distinct count');
});
await check('temperature 1 with seed 5, twice: identical answers (both endpoints)', async () => {
  const a = await complete('text', { temperature: 1, seed: 5, max_tokens: 12 });
  const b = await complete('text', { temperature: 1, seed: 5, max_tokens: 12 });
  equal(b.choices[0].text, a.choices[0].text, 'completions, seed 5 twice');
  const c = await chat('text', { temperature: 1, seed: 5, max_tokens: 12 });
  const d = await chat('text', { temperature: 1, seed: 5, max_tokens: 12 });
  equal(chatText(d), chatText(c), 'chat, seed 5 twice');
});
await check('echo: true (completions): the text starts with the prompt', async () => {
  for (const model of ['kv', 'text']) {
    const plain = await complete(model, { max_tokens: 4 });
    const r = await complete(model, { echo: true, max_tokens: 4 });
    equal(r.choices[0].text, MODELS[model] + plain.choices[0].text, `${model}: echoed text`);
  }
});
await check('max_tokens 4097 (above the 4096 limit): 400 BadRequestError, param max_tokens', async () => {
  await expectError('completions max_tokens 4097', () => complete('text', { max_tokens: 4097 }),
    { status: 400, cls: BadRequestError, param: 'max_tokens' });
  await expectError('chat max_tokens 4097', () => chat('text', { max_tokens: 4097 }),
    { status: 400, cls: BadRequestError, param: 'max_tokens' });
});

// ---- unsupported options, unknown fields
await check('presence_penalty: 1 is 400 unsupported_parameter naming it (both endpoints)', async () => {
  await expectError('completions presence_penalty 1', () => complete('kv', { presence_penalty: 1 }),
    { status: 400, cls: BadRequestError, param: 'presence_penalty', code: 'unsupported_parameter' });
  await expectError('chat presence_penalty 1', () => chat('kv', { presence_penalty: 1 }),
    { status: 400, cls: BadRequestError, param: 'presence_penalty', code: 'unsupported_parameter' });
});
await check('tools on chat is 400 naming it', async () => {
  const tools = [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }];
  await expectError('chat tools', () => chat('kv', { tools }),
    { status: 400, cls: BadRequestError, param: 'tools', code: 'unsupported_parameter' });
});
await check('an unknown field is 400 naming it (both endpoints)', async () => {
  await expectError('completions bogus_field', () => complete('kv', { bogus_field: 1 }),
    { status: 400, cls: BadRequestError, param: 'bogus_field' });
  await expectError('chat bogus_field', () => chat('kv', { bogus_field: 1 }),
    { status: 400, cls: BadRequestError, param: 'bogus_field' });
});
await check('echo with logprobs is 400', async () => {
  await expectError('completions echo + logprobs', () => complete('text', { echo: true, logprobs: 1 }),
    { status: 400, cls: BadRequestError });
});

// ---- body too large, overload
await check('a body over --max-body (4096) is 413 with an OpenAI-shaped error', async () => {
  await expectError('completions, 10 kB prompt',
    () => client.completions.create({ model: 'text', prompt: 'x'.repeat(10000), max_tokens: 1 }),
    { status: 413 });
});

// Overload: a --timeout 0.05 server, many concurrent long prompts of distinct lengths (no two
// share a forward pass): some wait past the timeout and get 503 (or 429) with Retry-After.
async function overload(round) {
  const requests = [];
  for (let i = 0; i < 12; ++i) {
    const prompt = 'a'.repeat(3000 + 97 * i + round);
    requests.push(fetch(busyUrl + '/completions', {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'text', prompt, max_tokens: 8 }),
    }).then(async (r) => ({ status: r.status, retryAfter: r.headers.get('retry-after'), body: await r.text() })));
  }
  return Promise.all(requests);
}
await check('overload: 503 or 429 with Retry-After and an OpenAI-shaped error (raw fetch, then the client)', async () => {
  let refused = [];
  const seen = [];
  for (let round = 0; round < 4 && refused.length === 0; ++round) {
    const answers = await overload(round);
    seen.push(...answers.map((a) => a.status));
    refused = answers.filter((a) => a.status === 503 || a.status === 429);
  }
  assert(refused.length > 0, `no 503 or 429 under overload; statuses ${show(seen)}`);
  for (const a of refused) {
    assert(a.retryAfter !== null && /^\d+$/.test(a.retryAfter.trim()),
      `HTTP ${a.status} without a Retry-After of whole seconds (got ${show(a.retryAfter)})`);
    const body = JSON.parse(a.body);
    const e = body.error;
    assert(e && typeof e.message === 'string' && typeof e.type === 'string' && 'param' in e && 'code' in e,
      `HTTP ${a.status} body is not {error: {message, type, param, code}}: ${a.body}`);
  }
  const others = seen.filter((s) => s !== 200 && s !== 503 && s !== 429);
  assert(others.length === 0, `statuses other than 200/503/429 under overload: ${show(others)}`);
  // The client, without retries, reports the refusal as an APIError with the header.
  let clientSaw = null;
  for (let round = 0; round < 4 && !clientSaw; ++round) {
    const calls = [];
    for (let i = 0; i < 12; ++i) {
      calls.push(busy.completions.create({ model: 'text', prompt: 'b'.repeat(3000 + 89 * i + round), max_tokens: 8 })
        .then(() => null, (e) => e));
    }
    const errors = (await Promise.all(calls)).filter(Boolean);
    for (const e of errors) {
      assert(e instanceof APIError && (e.status === 503 || e.status === 429),
        `client under overload: ${e?.constructor?.name} ${e?.status}: ${e?.message}`);
    }
    clientSaw = errors[0] ?? null;
  }
  assert(clientSaw, 'the client saw no 503 or 429 under overload');
  errorShape(clientSaw, `client, HTTP ${clientSaw.status}`);
  assert(clientSaw.headers?.['retry-after'], `client, HTTP ${clientSaw.status}: no retry-after in err.headers`);
});

// ---- the server still answers
await check('serve still answers after all of the above', async () => {
  const r = await complete('kv', { max_tokens: 3 });
  assert(r.choices[0].text.length > 0, 'empty answer');
});

const failed = results.filter((r) => !r.ok);
console.log(`${results.length - failed.length} of ${results.length} checks passed`);
for (const f of failed) console.log(`  failed: ${f.name}: ${f.message}`);
process.exit(failed.length ? 1 : 0);
