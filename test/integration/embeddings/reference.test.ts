/**
 * Reference check: our static-model vectors against model2vec's own `StaticModel.encode` on the
 * generated test models. Needs a Python with model2vec: `npm run test:reference` creates one
 * under .local/ and sets M2V_PYTHON; without it the suite is skipped.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createEmbedders } from '../../../src/embeddings/embedders.js';
import { nodeFileReader } from '../../../src/embeddings/model-files.js';
import { loadTokenizer } from '../../../src/embeddings/tokenizer.js';
import { TEST_MODELS_DIR } from '../../helpers/models-setup.js';

const python = process.env.M2V_PYTHON;

const LONG = Array.from({ length: 400 }, (_, i) => `protein${i % 7 ? '' : 's'} kinase pathway ${i}`).join(' ');
const TEXTS = [
  'Hello world!',
  'The quick brown fox jumps over the lazy dog.',
  '',
  '   \n\t ',
  'Phosphorylation of AKT by mTORC2 régulâtes glucose — naïve café 東京 p53',
  'xxxxxqqq zzzz [MASK] [CLS] foo[SEP]bar',
  'Insulin receptor signaling activates the PI3K/AKT pathway; NF-κB, TNF-α and IL-6 mediate inflammation.',
  'Ünïcödé ÀÉÎÕÜ straße ﬁnance Ⅻ ①②③ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 emoji 🧬🔬 and control\u0000chars\u200b here',
  `${'a'.repeat(120)} supercalifragilisticexpialidocious antidisestablishmentarianism`,
  'Tabs\tand\nnewlines\r\nand\u00a0non-breaking\u2003spaces',
  'Der Straße über café — 東京大学 в и не. La señor año: il est dans la maison',
  '  double  spaces  and  Ⅻ ① ﬁ  ',
  // Prose of test/helpers/script-prose.json: pieces in the multilingual model, unknown to the others.
  '血液中のアンモニアが増えて重い症状を起こす。アセチルＣｏＡ 糖酵解是代谢途径 ไกลโคไลซิสเป็นวิถีเมแทบอลิซึม กระบวนการนี้',
  LONG,
];

interface Reference {
  version: string;
  vectors: number[][];
  ids: number[][];
}

function reference(model: string): Reference {
  const out = execFileSync(python!, ['test/reference/model2vec_vectors.py'], {
    input: JSON.stringify({ model, texts: TEXTS }),
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out.toString()) as Reference;
}

describe.skipIf(!python)('static embeddings equal model2vec', () => {
  for (const name of ['minishlab/potion-base-8M', 'minishlab/potion-base-32M', 'minishlab/potion-multilingual-128M']) {
    it(`${name}: same token ids and vectors within 1e-5`, async () => {
      const ref = reference(`${TEST_MODELS_DIR}/${name}`);
      const tok = await loadTokenizer(`${TEST_MODELS_DIR}/${name}`, nodeFileReader);
      // model2vec's tokenizer truncates to max_length (512) before dropping unknown tokens.
      const ours = TEXTS.map((t) =>
        tok
          .encode(t)
          .slice(0, 512)
          .filter((id) => id !== tok.unkId),
      );
      TEXTS.forEach((t, i) => expect({ text: t, ids: ours[i] }).toEqual({ text: t, ids: ref.ids[i] }));

      const pool = createEmbedders({ modelsDir: TEST_MODELS_DIR, localBaseUrl: 'http://127.0.0.1:9' });
      const vectors = await (await pool.get(name)).embed(TEXTS);
      await pool.close();
      expect(vectors).toHaveLength(TEXTS.length);
      let worst = 0;
      vectors.forEach((v, i) => {
        const r = ref.vectors[i]!;
        expect(v.length).toBe(r.length);
        for (let k = 0; k < v.length; k++) worst = Math.max(worst, Math.abs(v[k]! - r[k]!));
      });
      expect(worst).toBeLessThan(1e-5);
    });
  }
});
