/**
 * A node's composed text: which plan entry wins, the name (the rule's when the plan's cannot be
 * read), the body in each format, placeholders and repeated values dropped, and no text at all.
 */
import { describe, expect, it } from 'vitest';
import type { LabelPlan, TextPlan } from '../../../../src/graph/text/text-plan.js';
import { NAME_CHARS } from '../../../../src/graph/text/text-rules.js';
import {
  composeNodeText,
  DEFAULT_TEXT_FORMAT,
  keyAsWords,
  type NodeFields,
  resultText,
} from '../../../../src/vector-index/index/node-text.js';

const label = (l: Partial<LabelPlan> & Pick<LabelPlan, 'label' | 'source'>): LabelPlan => ({
  nodes: 1,
  name: [],
  body: [],
  skipped: [],
  ...l,
});
const plan = (...labels: LabelPlan[]): TextPlan => ({ textProperty: 'text', only: null, labels });
/** `displayName` stands for the rule's name (src/graph/text/node-name.ts `nodeName`): '' when the rule finds none. */
const node = (labels: string[], props: Record<string, unknown>, text: unknown = null, displayName = ''): NodeFields => ({
  labels,
  text,
  displayName,
  props: Object.entries(props),
});

const movie = label({ label: 'Movie', source: 'discovered', name: ['title'], body: ['tagline', 'summary'] });
const heat = { title: 'Heat', tagline: 'A Los Angeles crime saga', summary: 'Two men, one city.' };

describe('composeNodeText', () => {
  it('writes a discovered label as name + one value per line by default', () => {
    expect(DEFAULT_TEXT_FORMAT).toBe('values');
    expect(composeNodeText(plan(movie), node(['Movie'], heat))).toEqual({
      name: 'Heat',
      body: 'A Los Angeles crime saga\nTwo men, one city.',
    });
  });

  it('keyed: one "property name: value" line each, names as words', () => {
    const product = label({ label: 'Product', source: 'discovered', name: ['productName'], body: ['quantityPerUnit', 'ship_via'] });
    const props = { productName: 'Chai', quantityPerUnit: '10 boxes x 20 bags', ship_via: 'Speedy Express' };
    expect(composeNodeText(plan(product), node(['Product'], props), 'keyed')).toEqual({
      name: 'Chai',
      body: 'quantity per unit: 10 boxes x 20 bags\nship via: Speedy Express',
    });
    expect(composeNodeText(plan(product), node(['Product'], props), 'values')?.body).toBe('10 boxes x 20 bags\nSpeedy Express');
  });

  it('prefers an explicit label over TEXT_PROPERTY, and TEXT_PROPERTY over discovered labels', () => {
    const chosen = label({ label: 'Film', source: 'explicit', name: ['title'], body: ['summary'] });
    const p = plan(movie, chosen);
    // Explicit: the text property and the discovered label's tagline are both ignored.
    expect(composeNodeText(p, node(['Movie', 'Film'], heat, 'the text property'))).toEqual({ name: 'Heat', body: 'Two men, one city.' });
    // TEXT_PROPERTY: as the seed had it, with the display name by rule.
    expect(composeNodeText(p, node(['Movie'], heat, 'the text property', 'Heat (1995)'))).toEqual({
      name: 'Heat (1995)',
      body: 'the text property',
    });
    // A text property that is not a string does not count.
    expect(composeNodeText(p, node(['Movie'], heat, 42))?.body).toBe('A Los Angeles crime saga\nTwo men, one city.');
  });

  it('drops a value that repeats the name or an earlier line, across labels too', () => {
    const person = label({ label: 'Person', source: 'discovered', name: ['name'], body: ['bio', 'alias'] });
    const actor = label({ label: 'Actor', source: 'discovered', name: ['stageName'], body: ['bio', 'agency'] });
    const props = { name: 'Ann Lee', alias: 'Ann Lee', bio: 'Born in a small town. ', agency: 'Born in a small town.', stageName: 'Annie' };
    expect(composeNodeText(plan(person, actor), node(['Person', 'Actor'], props))).toEqual({
      name: 'Ann Lee',
      body: 'Born in a small town.',
    });
    expect(composeNodeText(plan(person, actor), node(['Person', 'Actor'], props), 'keyed')).toEqual({
      name: 'Ann Lee',
      body: 'bio: Born in a small town.',
    });
  });

  it('takes the name from the first label whose name properties all have a value; joins first and last names', () => {
    const employee = label({ label: 'Employee', source: 'discovered', name: ['firstName', 'lastName'], body: ['notes'] });
    const person = label({ label: 'Person', source: 'discovered', name: ['nick'], body: [] });
    const p = plan(employee, person);
    const full = { firstName: 'Nancy', lastName: 'Davolio', nick: 'Nan', notes: 'Sales since 1992.' };
    expect(composeNodeText(p, node(['Employee', 'Person'], full))).toEqual({ name: 'Nancy Davolio', body: 'Sales since 1992.' });
    const noLast = { ...full, lastName: '  ' };
    expect(composeNodeText(p, node(['Employee', 'Person'], noLast))).toEqual({ name: 'Nan', body: 'Sales since 1992.' });
    expect(composeNodeText(plan(employee), node(['Employee'], noLast))).toEqual({ name: '', body: 'Sales since 1992.' });
  });

  it('a name-only node has an empty body, and its result text is the name', () => {
    const person = label({ label: 'Person', source: 'discovered', name: ['name'], body: [] });
    const text = composeNodeText(plan(person), node(['Person'], { name: ' Keanu Reeves ', born: 1964 }));
    expect(text).toEqual({ name: 'Keanu Reeves', body: '' });
    expect(resultText(text!)).toBe('Keanu Reeves');
    expect(resultText({ name: 'Heat', body: 'A crime saga' })).toBe('A crime saga');
  });

  it('reads lists of strings, and leaves numbers, mixed lists and missing properties out', () => {
    const thing = label({ label: 'Thing', source: 'discovered', name: [], body: ['tags', 'count', 'mixed', 'absent'] });
    const props = { tags: ['red', 'round'], count: 3, mixed: ['a', 1] };
    expect(composeNodeText(plan(thing), node(['Thing'], props))).toEqual({ name: '', body: 'red, round' });
  });

  it('is null when nothing holds text: no planned label, a label planned as none or as text without one, empty values', () => {
    const order = label({ label: 'Order', source: 'none', skipped: [{ property: 'orderID', reason: 'identifier', detail: '' }] });
    const doc = label({ label: 'Doc', source: 'text', body: ['text'] });
    expect(composeNodeText(plan(movie), node(['Order'], { orderID: '10248' }))).toBeNull();
    expect(composeNodeText(plan(order), node(['Order'], { orderID: '10248' }))).toBeNull();
    expect(composeNodeText(plan(doc), node(['Doc'], {}))).toBeNull();
    expect(composeNodeText(plan(movie), node(['Movie'], { title: '', tagline: ' ', released: 1995 }))).toBeNull();
  });
});

describe('composeNodeText with values that are no text', () => {
  const supplier = label({ label: 'Supplier', source: 'discovered', name: ['companyName'], body: ['address', 'region', 'fax', 'tags'] });

  it('a placeholder (NULL, N/A, -, blank) makes no line, in either format, and no item of a list', () => {
    const props = { companyName: 'Exotic Liquids', address: '49 Gilbert St.', region: 'NULL', fax: ' n/a ', tags: ['NULL', 'tea', '-'] };
    expect(composeNodeText(plan(supplier), node(['Supplier'], props))).toEqual({ name: 'Exotic Liquids', body: '49 Gilbert St.\ntea' });
    expect(composeNodeText(plan(supplier), node(['Supplier'], props), 'keyed')?.body).toBe('address: 49 Gilbert St.\ntags: tea');
    expect(composeNodeText(plan(supplier), node(['Supplier'], { companyName: 'NULL', region: 'NULL', fax: '-' }))).toBeNull();
  });

  it("a plan name that is a placeholder, a number or a list gives way to the rule's name; a list's values stay text", () => {
    const props = { address: '49 Gilbert St.' };
    expect(composeNodeText(plan(supplier), node(['Supplier'], { ...props, companyName: 'NULL' }, null, 'Charlotte Cooper'))).toEqual({
      name: 'Charlotte Cooper',
      body: '49 Gilbert St.',
    });
    expect(composeNodeText(plan(supplier), node(['Supplier'], { ...props, companyName: 42 }))).toEqual({
      name: '',
      body: '49 Gilbert St.',
    });
    expect(
      composeNodeText(plan(supplier), node(['Supplier'], { ...props, companyName: ['Exotic', 'Liquids'] }, null, 'Supplier 1')),
    ).toEqual({
      name: 'Supplier 1',
      body: 'Exotic, Liquids\n49 Gilbert St.',
    });
  });

  it('a name is cut to NAME_CHARS with a marker, however long the value', () => {
    const text = composeNodeText(plan(supplier), node(['Supplier'], { companyName: 'x'.repeat(1_000_000) }))!;
    expect(text.name).toHaveLength(NAME_CHARS);
    expect(text.name.endsWith('…')).toBe(true);
  });
});

describe('keyAsWords', () => {
  it('splits camelCase, snake_case and kebab-case into lower-case words', () => {
    expect(keyAsWords('quantityPerUnit')).toBe('quantity per unit');
    expect(keyAsWords('quantity_per_unit')).toBe('quantity per unit');
    expect(keyAsWords('ship-via')).toBe('ship via');
    expect(keyAsWords('address2Line')).toBe('address2 line');
    expect(keyAsWords('_notes_')).toBe('notes');
  });
});
