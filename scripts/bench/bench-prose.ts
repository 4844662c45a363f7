import { prng } from '../gen/prng.mjs';
/**
 * Deterministic generated prose for benchmarks and tests: sentences of common English and
 * biology words (the vocabulary of real node descriptions), seeded, so every run builds the
 * same graph. Lengths are uniform between the bounds given.
 */

const SUBJECTS = `the protein|this pathway|the enzyme|a receptor|the complex|this gene|the transporter|the kinase|
the membrane channel|this signalling cascade|the transcription factor|the metabolite|the cell|the tumour|the immune response`.split('|');
const VERBS = `regulates|activates|inhibits|binds|phosphorylates|transports|degrades|controls|is required for|
is associated with|modulates|converts|releases|blocks|drives`.split('|');
const OBJECTS = `glucose uptake|insulin signalling|lipid metabolism|cell growth|apoptosis|the cell cycle|dna repair|
calcium transport|amino acid synthesis|rna processing|protein degradation|membrane transport|gene expression|
immune activation|energy production|fatty acid oxidation|cholesterol synthesis|hormone release|oxygen sensing|
nutrient sensing`.split('|');
const TAILS = `in the liver|in muscle cells|during development|under stress|in response to hormones|in the nucleus|
at the plasma membrane|in several tissues|in human disease|in early embryos|after infection|in the mitochondria`.split('|');

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!.toString().trim() as T;

/** One generated text of `minChars`..`maxChars` characters (seeded by `seed`). */
export function generateProse(seed: number, minChars = 200, maxChars = 2000): string {
  const r = prng(seed);
  const target = minChars + Math.floor(r() * (maxChars - minChars + 1));
  const sentences: string[] = [];
  let length = 0;
  while (length < target) {
    const s = `${pick(r, SUBJECTS)} ${pick(r, VERBS)} ${pick(r, OBJECTS)} ${pick(r, TAILS)}.`;
    const sentence = s[0]!.toUpperCase() + s.slice(1);
    sentences.push(sentence);
    length += sentence.length + 1;
  }
  return sentences.join(' ').slice(0, maxChars);
}
