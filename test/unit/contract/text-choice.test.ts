/** The wire shape of an explicit text choice: own keys survive parsing, whatever their name. */
import { describe, expect, it } from 'vitest';
import { TextPropertiesSchema } from '../../../src/contract/text-plan.js';

describe('TextPropertiesSchema (explicit choices)', () => {
  it('keeps an own __proto__ key, for the plan to refuse as an unknown label', () => {
    const parsed = TextPropertiesSchema.parse(JSON.parse('{"Movie": ["title"], "__proto__": ["text"], "constructor": ["name"]}'));
    expect(Object.entries(parsed)).toEqual([
      ['Movie', ['title']],
      ['__proto__', ['text']],
      ['constructor', ['name']],
    ]);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(TextPropertiesSchema.safeParse(JSON.parse('{"Movie": []}')).success).toBe(false);
    // A bad value under __proto__ is named by its own key.
    const bad = TextPropertiesSchema.safeParse(JSON.parse('{"__proto__": [], "Movie": ["title"]}'));
    expect(bad.error?.issues.map((i) => i.path)).toEqual([['__proto__']]);
  });
});
