// Formatting helpers shared by the text templates.

/** Year after which events are written in the future tense. */
export const CURRENT_YEAR = 2025;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "1969-07-16" -> "16 July 1969" */
export function fmtDate(iso) {
  const [y, m, d] = iso.split('-').map(Number);
  return `${d} ${MONTHS[m - 1]} ${y}`;
}

/** ["a", "b", "c"] -> "a, b and c" */
export function list(items) {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** Thousands separators; keeps up to `digits` decimals. */
export function num(x, digits = 1) {
  return Number(x.toFixed(digits)).toLocaleString('en-GB', { maximumFractionDigits: digits });
}

/** Very large or very small magnitudes in scientific notation. */
export function sci(x) {
  if (x >= 1e7) {
    const e = Math.floor(Math.log10(x));
    return `${(x / 10 ** e).toFixed(2)} × 10^${e}`;
  }
  return num(x, 2);
}

export function article(word) {
  return /^[aeiou]/i.test(word) && !/^(uni|eu)/i.test(word) ? `an ${word}` : `a ${word}`;
}

export function cap(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

const SMALL = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
export function words(n) {
  return SMALL[n] ?? String(n);
}

/**
 * Joins sentences into one paragraph of at most `max` characters: optional sentences
 * (those after `keep`) are dropped from the end until the text fits.
 */
export function assemble(sentences, { keep = 2, max = 1500 } = {}) {
  const parts = sentences.filter(Boolean).map((s) => s.trim());
  let text = parts.join(' ');
  while (text.length > max && parts.length > keep) {
    parts.splice(parts.length - 2, 1); // keep the closing sentence, drop the one before it
    text = parts.join(' ');
  }
  return text;
}

const THE_COUNTRIES = new Set(['United States', 'United Kingdom', 'United Arab Emirates', 'Netherlands', 'Soviet Union']);
/** "United States" -> "the United States"; other countries unchanged. */
export function country(name) {
  return THE_COUNTRIES.has(name) ? `the ${name}` : name;
}

/** "Moon" -> "the Moon": bodies whose English name takes the article. */
export function body(name) {
  return name === 'Moon' || name === 'Sun' ? `the ${name}` : name;
}

/** "the lander Luna 9 lander" reads badly: name the type only when the name does not already. */
export function craftRef({ name, type }) {
  return /\b(spacecraft|module|lander|orbiter|rover|probe|capsule|station|vehicle|microsat)\b/i.test(name)
    ? `the ${name}`
    : `the ${type} ${name}`;
}

/** The subject form of a spacecraft name ("The Juno spacecraft", "Curiosity"). */
export function craftSubject(name) {
  return name.endsWith(' spacecraft') ? `The ${name}` : name;
}

export function times(n) {
  return n === 1 ? 'once' : n === 2 ? 'twice' : `${words(n)} times`;
}
