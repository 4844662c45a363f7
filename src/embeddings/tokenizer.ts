/**
 * A model's `tokenizer.json` loaded with @huggingface/tokenizers (pure JS), plus a per-word id
 * cache. Tokenising is the cost that dominates a static model, and real text repeats its words
 * (Zipf), so for tokenizers that split on whitespace before anything else looks across words
 * (BERT-style normalizer + whitespace pre-tokenizer: every potion model but the multilingual one)
 * a text's ids are the concatenation of its words' ids, and each distinct word is tokenised once.
 * Other tokenizers (Metaspace/SentencePiece, byte-level BPE) tokenise whole texts.
 */
import { Tokenizer } from '@huggingface/tokenizers';
import { readJson, type ModelFileReader } from './model-files.js';

/** A loaded tokenizer. */
export interface TextTokenizer {
  /** Ids of `text` without special tokens, as the Rust `tokenizers` crate gives them. */
  encode(text: string): number[];
  /** Ids with the model's special tokens (`[CLS] … [SEP]`), for transformer encoders. */
  encodeWithSpecial(text: string): number[];
  /** Token count of one whitespace-free word, without special tokens (cached). */
  countWord(word: string): number;
  /** The unknown token's id, when the model has one. */
  readonly unkId: number | undefined;
  /** Every vocabulary entry (added tokens included) in id order, as model2vec lists them. */
  readonly tokens: string[];
  /** Whether `encode` takes the per-word cached path. */
  readonly wordSeparable: boolean;
}

/** Words are split on the ASCII whitespace every BERT-style normalizer treats as a separator. */
const WORD = /[^ \t\n\r]+/g;
/** Distinct words kept; the cache is dropped when full (results never depend on it). */
const WORD_CACHE_LIMIT = 200_000;

const SEPARABLE_NORMALIZERS = new Set(['BertNormalizer', 'Lowercase', 'NFC', 'NFD', 'NFKC', 'NFKD', 'StripAccents']);
const WHITESPACE_SPLITTERS = new Set(['BertPreTokenizer', 'Whitespace', 'WhitespaceSplit']);
const WITHIN_WORD_SPLITTERS = new Set(['Punctuation', 'Digits']);

type Json = Record<string, unknown> | null | undefined;
const steps = (c: Json): Json[] => (c?.type === 'Sequence' ? (((c.normalizers ?? c.pretokenizers) as Json[]) ?? []) : [c]);

/**
 * True when tokenising word by word gives the same ids as tokenising the whole text: the
 * normalizer only maps characters, the pre-tokenizer starts by splitting on whitespace, and no
 * added token spans whitespace.
 */
export function isWordSeparable(json: Record<string, unknown>): boolean {
  const normalizer = json.normalizer as Json;
  if (normalizer && !steps(normalizer).every((n) => SEPARABLE_NORMALIZERS.has(String(n?.type)))) return false;
  const pre = steps(json.pre_tokenizer as Json);
  if (!pre.length || !WHITESPACE_SPLITTERS.has(String(pre[0]?.type))) return false;
  if (!pre.every((p) => WHITESPACE_SPLITTERS.has(String(p?.type)) || WITHIN_WORD_SPLITTERS.has(String(p?.type)))) return false;
  const added = (json.added_tokens as { content?: string }[] | undefined) ?? [];
  return added.every((t) => !/\s/.test(t.content ?? ''));
}

/** Loads `<dir>/tokenizer.json` (and `tokenizer_config.json` when present). */
export async function loadTokenizer(dir: string, files: ModelFileReader): Promise<TextTokenizer> {
  const json = await readJson(files, `${dir}/tokenizer.json`);
  if (!json) throw new Error(`${dir}/tokenizer.json is missing`);
  const config = (await readJson(files, `${dir}/tokenizer_config.json`)) ?? {};
  const tok = new Tokenizer(json, config);
  const wordSeparable = isWordSeparable(json);
  const cache = new Map<string, number[]>();

  const wordIds = (word: string): number[] => {
    const hit = cache.get(word);
    if (hit) return hit;
    const ids = tok.encode(word, { add_special_tokens: false }).ids;
    if (cache.size >= WORD_CACHE_LIMIT) cache.clear();
    cache.set(word, ids);
    return ids;
  };

  const vocab = tok.get_vocab(true);
  const tokens: string[] = [];
  for (const [t, id] of vocab) tokens[id] = t;
  const model = json.model as { unk_token?: string | null; unk_id?: number | null } | undefined;
  const unkId = model?.unk_token != null ? tok.token_to_id(model.unk_token) : (model?.unk_id ?? undefined);

  return {
    unkId,
    tokens,
    wordSeparable,
    encode(text) {
      if (!wordSeparable) return tok.encode(text, { add_special_tokens: false }).ids;
      const ids: number[] = [];
      for (const m of text.matchAll(WORD)) {
        for (const id of wordIds(m[0])) ids.push(id);
      }
      return ids;
    },
    encodeWithSpecial: (text) => tok.encode(text, { add_special_tokens: true }).ids,
    countWord: (word) => wordIds(word).length,
  };
}
