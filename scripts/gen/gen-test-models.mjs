#!/usr/bin/env node
/**
 * Generates small models in the hub's file layout, deterministically (same bytes every run), so
 * tests exercise the real loading and inference code without the Hugging Face hub:
 *
 *   <dir>/minishlab/potion-base-8M/        static model2vec layout, 256 dims
 *   <dir>/minishlab/potion-base-32M/       static model2vec layout, 512 dims
 *   <dir>/minishlab/potion-multilingual-128M/  static, 256 dims, SentencePiece-style tokenizer
 *   <dir>/test/tiny-encoder/               transformer layout: tokenizer + onnx/model.onnx, 32 dims
 *
 * Each static model has a BERT-style WordPiece tokenizer.json (lowercasing, accent stripping,
 * ~2,400 entries: specials, characters, common English and biology words, suffixes and letter
 * pairs, so any English text tokenises, mostly into whole words), a seeded random float32
 * `embeddings` table in model.safetensors, and a model2vec config.json. The multilingual one
 * instead has a Unigram tokenizer with a Metaspace pre-tokenizer and NFKC normalizer (the
 * SentencePiece family), which is not word-separable and takes the whole-text path, with pieces
 * for English, a few European words and the Chinese, Japanese and Thai prose of
 * test/helpers/script-prose.json.
 *
 * Usage: node scripts/gen/gen-test-models.mjs [dir]   (default test-output/models)
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeOnnxModel } from './onnx-writer.mjs';
import { prng } from './prng.mjs';

const WORDS = `the of and to in is was for on that with as by at from it an be are this which or his
her had not but have has were they you we she he their one all there been would what when can more
who also its other into after first two only new some than them time these may then most about
over such many year years made between used under because while during through both each where
however three before well part being those since although against known later state people world
same end city found century area work number use home high life still long way small name large
several four group because day any government system set school early many following best another
well water began around given called last public could team based even south north east west just
form main five way did show place due house good back make left series released several whom city
little must right take another week each often general list our three order among family old music
film history per early point within members including old year power top several different case
above below very much without until come off find next long line around should down too back never
information data study studies result results effect effects cell cells protein proteins gene genes
expression pathway pathways signal signaling signalling receptor receptors kinase kinases enzyme
enzymes metabolism metabolic acid acids amino glucose insulin lipid lipids membrane nucleus dna rna
mrna transcription translation factor factors binding activation activity inhibitor inhibition
regulation regulates regulated regulatory response immune disease diseases cancer tumor tumour
growth development differentiation apoptosis cycle complex complexes interaction interactions
phosphorylation phosphorylates ubiquitin degradation transport transporter channel calcium sodium
potassium oxygen hydrogen carbon nitrogen phosphate atp adp nad nadh coenzyme mitochondria
mitochondrial cytoplasm cytoplasmic extracellular intracellular molecule molecules small large
human mouse rat yeast bacteria species tissue tissues organ liver brain heart kidney lung muscle
blood bone skin stem neural neuron neurons synapse hormone hormones steroid cholesterol fatty
oxidation reduction synthesis biosynthesis pathway node nodes graph edge edges label labels
type types function functions role roles process processes level levels rate rates control
network networks model models method methods analysis sample samples test tests value values
chain chains domain domains site sites region regions structure structures family members
human homo sapiens mus musculus alpha beta gamma delta kappa tnf nf il interleukin interferon
growth wnt notch hedgehog mapk erk jnk akt mtor pi3k ras raf mek tgf egf vegf p53 myc jak stat
cytokine cytokines chemokine antigen antibody antibodies cell surface ligand ligands agonist
antagonist drug drugs target targets therapy treatment clinical patients patient risk associated
increase increased decrease decreased high low normal level mutation mutations variant variants
chromosome genome genomic sequence sequences coding noncoding promoter enhancer histone chromatin
methylation acetylation repair replication damage stress oxidative hypoxia inflammation
inflammatory infection viral virus bacterial host cellular nuclear plasma serum vitamin mineral
iron zinc copper magnesium glycolysis gluconeogenesis citric krebs urea fatty beta acyl
cardiac vascular endothelial epithelial smooth skeletal renal hepatic pulmonary neuronal
produce produces produced production form forms formed formation contain contains contained
involve involves involved require requires required mediate mediates mediated lead leads led
act acts acting induce induces induced promote promotes promoted block blocks blocked bind binds
bound activate activates activated inhibit inhibits inhibited encode encodes encoded express
expresses expressed convert converts converted catalyze catalyzes catalyzed transfer transfers
important major minor key central primary secondary specific general common rare similar
different multiple single double active inactive free total whole full open closed
hello world example sentence text query search index vector embedding chat answer question
dangerous alone secret everybody quick brown fox jumps lazy dog over again today tomorrow
yesterday morning evening night summer winter spring autumn red green blue black white
one two three four five six seven eight nine ten hundred thousand million percent
is are was were be been being have has had do does did will shall may might can could
i me my mine you your he him she her it we us they them what which who how why where when
a an the this that these those some any no not all each every either neither both few
in on at by for with about against between into through during before after above below
to from up down out off over under again further then once here there more most other
such only own same so than too very just also now`;

const SUFFIXES = [
  's',
  'es',
  'ed',
  'ing',
  'ly',
  'er',
  'ers',
  'est',
  'tion',
  'tions',
  'sion',
  'ment',
  'ments',
  'ness',
  'al',
  'ic',
  'ase',
  'ases',
  'in',
  'ine',
  'ate',
  'ated',
  'ates',
  'ity',
  'ive',
  'ous',
  'ize',
  'ized',
  'ation',
  'ations',
  'ology',
  'logy',
  'ist',
  'ism',
  'able',
  'ible',
  'ful',
  'less',
  'ward',
  'like',
  'oid',
];

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const CHARS = `${LETTERS}0123456789!"#$%&'()*+,-./:;<=>?@[\\]^_\`{|}~αβγδκμ`;
const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];

/** The vocabulary, in id order. */
export function buildVocab() {
  const vocab = new Set(SPECIALS);
  for (const c of CHARS) vocab.add(c);
  for (const c of CHARS) if (/[a-z0-9]/.test(c)) vocab.add(`##${c}`);
  for (const w of WORDS.split(/\s+/)) if (w) vocab.add(w);
  for (const s of SUFFIXES) vocab.add(`##${s}`);
  for (const a of LETTERS) for (const b of LETTERS) vocab.add(`${a}${b}`);
  for (const a of LETTERS) for (const b of LETTERS) vocab.add(`##${a}${b}`);
  return [...vocab];
}

/** A BERT-uncased-style tokenizer.json over `vocab`, as the Rust `tokenizers` crate serialises it. */
export function tokenizerJson(vocab) {
  const id = (t) => vocab.indexOf(t);
  const special = (t) => ({ id: id(t), content: t, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  const tmpl = (t) => ({ SpecialToken: { id: t, type_id: 0 } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIALS.map(special),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [tmpl('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, tmpl('[SEP]')],
      pair: [
        tmpl('[CLS]'),
        { Sequence: { id: 'A', type_id: 0 } },
        tmpl('[SEP]'),
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [id(t)], tokens: [t] }])),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
    },
  };
}

/** A seeded table of `rows × dims` floats in [-1, 1). */
export function randomTable(rows, dims, seed) {
  const next = prng(seed);
  const t = new Float32Array(rows * dims);
  for (let i = 0; i < t.length; i++) t[i] = next() * 2 - 1;
  return t;
}

/** Encodes float32 tensors as a safetensors file (header padded to 8 bytes, as the Rust writer does). */
export function safetensors(tensors) {
  const header = {};
  let offset = 0;
  for (const [name, { dtype, shape, data }] of Object.entries(tensors)) {
    header[name] = { dtype, shape, data_offsets: [offset, offset + data.byteLength] };
    offset += data.byteLength;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - ((8 + Buffer.byteLength(json)) % 8)) % 8);
  const head = Buffer.from(json);
  const out = Buffer.alloc(8 + head.length + offset);
  out.writeBigUInt64LE(BigInt(head.length), 0);
  head.copy(out, 8);
  let at = 8 + head.length;
  for (const { data } of Object.values(tensors)) {
    Buffer.from(data.buffer, data.byteOffset, data.byteLength).copy(out, at);
    at += data.byteLength;
  }
  return out;
}

function write(path, data) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof data === 'string' ? data : data);
}

/** A static model2vec folder. */
export function writeStaticModel(dir, dims, seed) {
  const vocab = buildVocab();
  write(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab)));
  write(
    join(dir, 'model.safetensors'),
    safetensors({ embeddings: { dtype: 'F32', shape: [vocab.length, dims], data: randomTable(vocab.length, dims, seed) } }),
  );
  write(
    join(dir, 'config.json'),
    JSON.stringify(
      {
        model_type: 'model2vec',
        architectures: ['StaticModel'],
        tokenizer_name: 'graph-chat/test-wordpiece',
        apply_pca: dims,
        apply_zipf: true,
        hidden_dim: dims,
        seq_length: 1000000,
        normalize: true,
      },
      null,
      2,
    ),
  );
}

/** Pieces of the multilingual test vocabulary, beyond the English words. */
const MULTI = `der die das und ist nicht mit für von zu le la les et est dans pour avec el los las
que por con para una del il di che è per non в и не на что с по это 東 京 大 学 日 本 語 中 国 人
über straße café naïve résumé señor año`;

/**
 * The characters of test/helpers/script-prose.json (Chinese, Japanese and Thai prose), NFKC as
 * the tokenizer normalises: the real model has pieces for every script; this one only for the
 * prose the tests index, which keeps the file small.
 */
function scriptProseChars() {
  const prose = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../test/helpers/script-prose.json'), 'utf8');
  const { cjk, thai } = JSON.parse(prose);
  const text = [...cjk, ...thai]
    .map((p) => `${p.title}${p.description}`)
    .join('')
    .normalize('NFKC');
  return [...new Set(text.replace(/\s+/g, ''))];
}

/** A SentencePiece-style (Unigram + Metaspace) tokenizer.json: pieces with seeded log-prob scores. */
export function unigramTokenizerJson() {
  const next = prng(128);
  const pieces = new Map([
    ['<unk>', 0],
    ['<s>', 0],
    ['</s>', 0],
    ['<pad>', 0],
  ]);
  const add = (p, score) => pieces.has(p) || pieces.set(p, score);
  add('▁', -2);
  for (const w of `${WORDS} ${MULTI}`.split(/\s+/)) if (w) add(`▁${w}`, -4 - next() * 6 - w.length / 4);
  for (const s of SUFFIXES) add(s, -8 - next() * 2);
  for (const c of `${CHARS}äöüéèêàçñ${MULTI.replace(/\s+/g, '')}`) {
    add(c, -12 - next() * 2);
    add(`▁${c}`, -11 - next() * 2);
  }
  // After the pieces above, so their ids and scores stay as they were.
  for (const c of scriptProseChars()) {
    add(c, -12 - next() * 2);
    add(`▁${c}`, -11 - next() * 2);
  }
  const vocab = [...pieces];
  const special = (t, id) => ({ id, content: t, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: ['<unk>', '<s>', '</s>', '<pad>'].map(special),
    normalizer: { type: 'Sequence', normalizers: [{ type: 'NFKC' }, { type: 'Replace', pattern: { Regex: ' {2,}' }, content: ' ' }] },
    pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '<s>', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '</s>', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '<s>', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '</s>', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 0 } },
        { SpecialToken: { id: '</s>', type_id: 0 } },
      ],
      special_tokens: { '<s>': { id: '<s>', ids: [1], tokens: ['<s>'] }, '</s>': { id: '</s>', ids: [2], tokens: ['</s>'] } },
    },
    decoder: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
    model: { type: 'Unigram', unk_id: 0, vocab, byte_fallback: false },
  };
}

/** The multilingual-style static folder (Unigram tokenizer). */
export function writeUnigramStaticModel(dir, dims, seed) {
  const json = unigramTokenizerJson();
  write(join(dir, 'tokenizer.json'), JSON.stringify(json));
  const rows = json.model.vocab.length;
  write(
    join(dir, 'model.safetensors'),
    safetensors({ embeddings: { dtype: 'F32', shape: [rows, dims], data: randomTable(rows, dims, seed) } }),
  );
  write(
    join(dir, 'config.json'),
    JSON.stringify({ model_type: 'model2vec', architectures: ['StaticModel'], hidden_dim: dims, normalize: true }, null, 2),
  );
}

/** Dimensions of the tiny encoder. */
export const ENCODER_DIMS = 32;

/**
 * A transformer-layout folder: the same tokenizer plus onnx/model.onnx computing
 * `last_hidden_state = tanh(word[input_ids] + type[token_type_ids])` [batch, seq, 32]. Padding
 * positions get non-zero states, as a real encoder's do, so pooling must use the mask.
 */
export function writeTinyEncoder(dir) {
  const vocab = buildVocab();
  write(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab)));
  write(join(dir, 'tokenizer_config.json'), JSON.stringify({ model_max_length: 64 }));
  write(join(dir, 'config.json'), JSON.stringify({ model_type: 'bert', hidden_size: ENCODER_DIMS, max_position_embeddings: 64 }));
  const onnx = encodeOnnxModel({
    name: 'tiny-encoder',
    initializers: [
      { name: 'word', type: 'float', dims: [vocab.length, ENCODER_DIMS], data: randomTable(vocab.length, ENCODER_DIMS, 3) },
      { name: 'type', type: 'float', dims: [2, ENCODER_DIMS], data: randomTable(2, ENCODER_DIMS, 4) },
    ],
    inputs: ['input_ids', 'attention_mask', 'token_type_ids'].map((name) => ({ name, type: 'int64', shape: ['batch', 'sequence'] })),
    outputs: [{ name: 'last_hidden_state', type: 'float', shape: ['batch', 'sequence', ENCODER_DIMS] }],
    nodes: [
      { op: 'Gather', inputs: ['word', 'input_ids'], outputs: ['w'] },
      { op: 'Gather', inputs: ['type', 'token_type_ids'], outputs: ['t'] },
      { op: 'Add', inputs: ['w', 't'], outputs: ['sum'] },
      { op: 'Tanh', inputs: ['sum'], outputs: ['last_hidden_state'] },
    ],
  });
  write(join(dir, 'onnx', 'model.onnx'), onnx);
}

/** Writes every test model under `root` (skipped when a stamp says this generator already did). */
export function generateTestModels(root) {
  const stamp = join(root, '.generated');
  const version = 'v3';
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === version) return;
  writeStaticModel(join(root, 'minishlab', 'potion-base-8M'), 256, 8);
  writeStaticModel(join(root, 'minishlab', 'potion-base-32M'), 512, 32);
  writeUnigramStaticModel(join(root, 'minishlab', 'potion-multilingual-128M'), 256, 128);
  writeTinyEncoder(join(root, 'test', 'tiny-encoder'));
  write(stamp, version);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = process.argv[2] ?? 'test-output/models';
  generateTestModels(root);
  console.log(`test models written under ${root}`);
}
