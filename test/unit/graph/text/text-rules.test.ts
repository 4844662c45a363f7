/**
 * The rules that find a label's text in a sample: every skip reason, placeholders as missing
 * values, the order names are chosen in (a label's own name before a contact's or a job title),
 * an explicit choice split into name and body (naming a node by them: node-name.test.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  chooseLabelText,
  isPlaceholder,
  NAME_CHARS,
  nameCandidates,
  nameValue,
  type PropertySample,
  skipReason,
  splitExplicit,
} from '../../../../src/graph/text/text-rules.js';

/** A sampled property holding `strings` (present on as many nodes as it has values). */
const p = (key: string, strings: string[], otherType?: string): PropertySample => ({ key, strings, present: strings.length, otherType });
const skip = (sample: PropertySample) => skipReason(sample, 'text');
/** `n` distinct, short, word-like values: `Alpha one`, `Alpha two`, … */
const words = (stem: string, n: number) => Array.from({ length: n }, (_, i) => `${stem} ${'abcdefghijklmnopqrstuvwxyz'[i]}word`);

describe('skipReason', () => {
  it('keeps strings that read as text, and the text property whatever it holds', () => {
    expect(skip(p('tagline', ['Crime never pays, but it pays well', 'A quiet man in a loud town']))).toBeNull();
    expect(skip(p('text', ['0x424D00FF00FF00FF00FF00FF00FF00FF00FF']))).toBeNull();
  });

  it('identifier: by key (id, …ID, _id, isbn, …Code, …Key) and by value (capitals only, letters mixed with digits, UUIDs)', () => {
    const byKey = { reason: 'identifier', detail: 'named as an identifier or code' };
    // `identifier` (WikiPathways' `ncbigene:842`, and on a label of one node, where no value rule can tell, a plain word).
    for (const key of [
      'id',
      'customerID',
      'productId',
      'product_id',
      'isbn',
      'zipCode',
      'apiKey',
      'idCard',
      'uuid',
      'identifier',
      'geneIdentifier',
    ]) {
      expect(skip(p(key, ['Alfreds Futterkiste', 'Ana Trujillo']))).toEqual({ property: key, ...byKey });
    }
    const byValue = { reason: 'identifier', detail: 'values look like identifiers' };
    expect(skip(p('ref', ['ALFKI', 'ANATR', 'ANTON', 'AROUT', 'BERGS']))).toEqual({ property: 'ref', ...byValue });
    expect(skip(p('ref', ['abc123', 'def456', 'ghi789']))).toEqual({ property: 'ref', ...byValue });
    expect(skip(p('ref', ['deadbeef-7d3f-4e8a-b5c6-d7e8f9a0b1c2', 'cafebabe-e5f6-4a7b-8c9d-0e1f2a3b4c5d']))).toEqual({
      property: 'ref',
      ...byValue,
    });
    // UUIDs without three letters in a row have no word either; they are still identifiers.
    expect(skip(p('ref', ['9b2e4c1a-7d3f-4e8a-b5c6-d7e8f9a0b1c2', '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f']))).toEqual({
      property: 'ref',
      ...byValue,
    });
    // "valid" ends in "id" but names no identifier.
    expect(skip(p('valid', ['Checked by the night shift', 'Never checked']))).toBeNull();
  });

  it('code: figures and punctuation without a word (phone numbers, postal codes), a phone number with an extension', () => {
    const byValue = { reason: 'code', detail: 'codes or figures, no words (phone numbers, postal codes)' };
    expect(skip(p('contact', ['(171) 555-7788', '030-0074321', '(5) 555-4729']))).toEqual({ property: 'contact', ...byValue });
    expect(skip(p('contact', ['(503) 555-9931 ext. 23', '+49 30 1234567 x12', '(1) 03.83.00.68']))).toEqual({
      property: 'contact',
      ...byValue,
    });
  });

  it('code: phone and fax numbers by key, whatever the values (a shifted CSV row puts a country under phone)', () => {
    const byKey = { reason: 'code', detail: 'named as a phone or fax number' };
    for (const key of ['phone', 'fax', 'homePhone', 'faxNumber', 'tel', 'telephone', 'mobile_no', 'HOME_PHONE', 'phoneNumber']) {
      expect(skip(p(key, ['Australia', 'United Kingdom', '(171) 555-2222']))).toEqual({ property: key, ...byKey });
    }
    // A word that ends in a phone word is not one.
    for (const key of ['hotel', 'motel', 'xylophone', 'headphone'])
      expect(skip(p(key, ['Grand Budapest', 'Overlook', 'Bates']))).toBeNull();
  });

  it('placeholders are missing values: only or mostly placeholders is empty, and the rest is judged without them', () => {
    expect(skip(p('region', ['NULL', 'null', 'N/A']))).toEqual({
      property: 'region',
      reason: 'empty',
      detail: 'only placeholders for a missing value ("NULL", "null", "N/A")',
    });
    const mostly = [...Array<string>(9).fill('NULL'), 'Western Australia'];
    expect(skip(p('region', mostly))).toEqual({
      property: 'region',
      reason: 'empty',
      detail: 'mostly placeholders for a missing value ("NULL")',
    });
    // 22 of 91 customers' fax is NULL: the rest are numbers, so the property is a code, not text.
    const fax = [...Array<string>(22).fill('NULL'), ...Array.from({ length: 69 }, (_, i) => `(5) 555-${String(1000 + i)}`)];
    expect(skip(p('contact', fax))?.reason).toBe('code');
    // Two of three real values are enough for text.
    expect(skip(p('region', ['NULL', 'Western Australia', 'Lower Saxony']))).toBeNull();
  });

  it('date, number and boolean stored as strings', () => {
    expect(skip(p('orderDate', ['1996-07-04 00:00:00.000', '1996-07-05', '12/31/1999', '2024-01-02T10:00:00Z']))).toEqual({
      property: 'orderDate',
      reason: 'date',
      detail: 'dates stored as strings',
    });
    expect(skip(p('unitPrice', ['18.0', '19', '1,000', '$5', '-2.5', '12 %']))).toEqual({
      property: 'unitPrice',
      reason: 'number',
      detail: 'numbers stored as strings',
    });
    expect(skip(p('active', ['true', 'False', 'yes', 'NO']))).toEqual({
      property: 'active',
      reason: 'boolean',
      detail: 'booleans stored as strings',
    });
  });

  it('url: by value (links, www., e-mail, Access hyperlinks #X.HTM#) and by key (…Url, homePage, email, …Path)', () => {
    const byValue = { reason: 'url', detail: 'URLs or e-mail addresses' };
    expect(skip(p('web', ['https://example.com/a', 'www.example.org', 'ftp://files.example.net']))).toEqual({
      property: 'web',
      ...byValue,
    });
    expect(skip(p('contact', ['ann@example.com', 'bob.smith@example.co.uk']))).toEqual({ property: 'contact', ...byValue });
    expect(skip(p('page', ['Cajun World#CAJUN.HTM#', 'Mayumi (on the World Wide Web)#http://www.example.com/mayumi.htm#']))).toEqual({
      property: 'page',
      ...byValue,
    });
    const byKey = { reason: 'url', detail: 'named as a link, address or file path' };
    for (const key of ['homePage', 'photoPath', 'imageUrl', 'email', 'website']) {
      expect(skip(p(key, ['Some words here', 'More words there']))).toEqual({ property: key, ...byKey });
    }
  });

  it('blob: hex (0x… bitmaps), base64 and any unbroken token longer than 64 characters', () => {
    const blob = { reason: 'blob', detail: 'encoded data (hex, base64 or long unbroken tokens)' };
    expect(skip(p('picture', [`0x424D${'A0'.repeat(40)}`, `0x424D${'FF'.repeat(40)}`]))).toEqual({ property: 'picture', ...blob });
    expect(skip(p('icon', ['iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==']))).toEqual({
      property: 'icon',
      ...blob,
    });
    expect(skip(p('notes', [`see ${'x'.repeat(65)} here`, `and ${'y'.repeat(70)}`]))).toEqual({ property: 'notes', ...blob });
    // 64 characters is still a (very long) word.
    expect(skip(p('notes', [`see ${'x'.repeat(64)} here`]))).toBeNull();
  });

  it('prose without spaces is text: Chinese, Japanese and Thai descriptions are not blobs', () => {
    const prose = {
      zh: [
        '糖酵解是将葡萄糖分解为丙酮酸并释放能量的代谢途径，它发生在几乎所有活细胞的细胞质中，是细胞呼吸的第一个阶段，也为许多其他代谢途径提供原料。',
        '在缺氧的条件下，丙酮酸会被还原为乳酸，从而使糖酵解能够继续进行，并为细胞提供少量但迅速的三磷酸腺苷，这在剧烈运动的肌肉中尤为重要。',
      ],
      ja: [
        '解糖系はグルコースをピルビン酸に分解してエネルギーを取り出す代謝経路であり、ほぼすべての生物の細胞質で行われている。酸素が不足すると、ピルビン酸は乳酸に変えられる。',
        'クエン酸回路はミトコンドリアの中で働き、アセチルＣｏＡを二酸化炭素にまで酸化して、その過程で得られた電子を呼吸鎖へ渡すことで多くのエネルギーを生み出している。',
      ],
      th: [
        'ไกลโคไลซิสเป็นวิถีเมแทบอลิซึมที่เปลี่ยนกลูโคสให้เป็นไพรูเวตและปล่อยพลังงานออกมาในไซโทพลาซึมของเซลล์เกือบทุกชนิด',
        'เมื่อเซลล์ขาดออกซิเจนไพรูเวตจะถูกเปลี่ยนเป็นกรดแลกติกเพื่อให้กระบวนการไกลโคไลซิสดำเนินต่อไปได้และเซลล์ยังคงได้รับพลังงาน',
      ],
    };
    for (const [lang, values] of Object.entries(prose)) {
      expect(
        values.every((v) => v.length > 64 && !/\s/.test(v)),
        lang,
      ).toBe(true);
      expect(skip(p('description', values)), lang).toBeNull();
    }
    // A data URI or base64url token is encoded data by its alphabet, spaces or not.
    expect(skip(p('notes', [`see data:image/png;base64,${'iVBORw0KGgo'.repeat(8)} here`]))).toMatchObject({ reason: 'blob' });
  });

  it('empty, not a string (its type named, NOT NULL dropped) and internal (__x), whatever the values', () => {
    expect(skip(p('region', []))).toEqual({ property: 'region', reason: 'empty', detail: 'always empty' });
    expect(skip(p('released', [], 'INTEGER NOT NULL'))).toEqual({
      property: 'released',
      reason: 'not a string',
      detail: 'holds INTEGER values',
    });
    expect(skip(p('roles', [], 'LIST<STRING NOT NULL>'))).toEqual({
      property: 'roles',
      reason: 'not a string',
      detail: 'holds LIST<STRING> values',
    });
    // In a name's place, the plan says why it names nothing.
    expect(skip(p('name', [], 'LIST<STRING NOT NULL>'))).toEqual({
      property: 'name',
      reason: 'not a string',
      detail: 'holds LIST<STRING> values, not one string: no name',
    });
    expect(skip(p('__x', ['Plain readable words']))).toEqual({
      property: '__x',
      reason: 'internal',
      detail: 'internal property (starts with "__")',
    });
  });

  it('a kind needs 80 % of the values; mixed non-text kinds are codes', () => {
    // 4 of 5 dates: a date property; 3 of 4: not.
    expect(skip(p('when', ['1996-07-04', '1996-07-05', '1996-07-06', '1996-07-08', 'unknown date']))?.reason).toBe('date');
    expect(skip(p('when', ['1996-07-04', '1996-07-05', '1996-07-06', 'unknown date']))).toBeNull();
    expect(skip(p('misc', ['1996-07-04', '18.5', '1996-07-06', '42', '(5) 555']))?.reason).toBe('code');
  });
});

describe('chooseLabelText', () => {
  const choose = (label: string, properties: PropertySample[], sampled = 3) => chooseLabelText(label, sampled, properties, 'text');
  const nameOf = (label: string, keys: string[]) =>
    choose(
      label,
      keys.map((k) => p(k, words(k, 3))),
    ).name;

  it('chooses the name in order: displayName > name > label-own …Name > first + last > title > other …Name', () => {
    expect(nameOf('Thing', ['name', 'displayName', 'title'])).toEqual(['displayName']);
    expect(nameOf('Product_x1', ['productName', 'name'])).toEqual(['name']);
    expect(nameOf('Product_x1', ['title', 'firstName', 'lastName', 'productName'])).toEqual(['productName']);
    expect(nameOf('Category', ['categoryName', 'contactName'])).toEqual(['categoryName']);
    expect(nameOf('Employee', ['title', 'lastName', 'firstName'])).toEqual(['firstName', 'lastName']);
    expect(nameOf('Employee', ['title', 'contactName'])).toEqual(['title']);
    expect(nameOf('Supplier', ['companyName', 'address'])).toEqual(['companyName']);
    expect(nameOf('Supplier', ['address', 'city'])).toEqual([]);
  });

  it("takes a label's own name before a contact's name, and never a job title, whatever the keys' order", () => {
    for (const keys of [
      ['contactName', 'contactTitle', 'companyName'],
      ['contactTitle', 'companyName', 'contactName'],
      ['companyName', 'contactName', 'contactTitle'],
    ]) {
      expect(nameOf('Supplier', keys)).toEqual(['companyName']);
      expect(nameOf('Customer', keys)).toEqual(['companyName']);
    }
    expect(nameOf('Supplier', ['contactTitle', 'contactName'])).toEqual(['contactName']);
    expect(nameOf('Supplier', ['contactTitle', 'jobTitle'])).toEqual([]);
    expect(nameOf('Order', ['shipName', 'albumTitle'])).toEqual(['albumTitle']);
    expect(nameOf('Employee', ['title', 'firstName', 'lastName', 'titleOfCourtesy'])).toEqual(['firstName', 'lastName']);
  });

  it('leaves placeholders out of a name: a name mostly NULL covers too few nodes', () => {
    const names = ['Exotic Liquids', 'NULL', 'NULL', 'NULL'];
    expect(choose('Supplier', [p('companyName', names), p('contactName', words('Contact', 4))], 4).name).toEqual(['contactName']);
  });

  it('lists a name key that some nodes hold as a list, and names those nodes by the next rule', () => {
    const text = choose('Gizmo', [p('name', words('Gizmo', 9), 'LIST<STRING NOT NULL>'), p('description', words('Long', 9))], 10);
    expect(text.name).toEqual(['name']);
    expect(text.skipped).toEqual([
      {
        property: 'name',
        reason: 'not a string',
        detail: 'names the nodes where it is a string; where it holds LIST<STRING> values, the next rule names the node',
      },
    ]);
  });

  it('puts the other text properties in the body, longest first (ties by key), and lists skips by property', () => {
    const text = choose('Movie', [
      p('title', ['Heat', 'Ronin', 'Thief']),
      p('town', ['Arles', 'Dijon', 'Brest']),
      p('tagline', ['A Los Angeles crime saga', 'Trust nobody at all', 'One last job, then out']),
      p('city', ['Paris', 'Lille', 'Nancy']),
      p('released', [], 'INTEGER'),
      p('movieID', ['1', '2', '3']),
    ]);
    expect(text).toEqual({
      name: ['title'],
      body: ['tagline', 'city', 'town'],
      skipped: [
        { property: 'movieID', reason: 'identifier', detail: 'named as an identifier or code' },
        { property: 'released', reason: 'not a string', detail: 'holds INTEGER values' },
      ],
    });
  });

  it('refuses a name whose values repeat, and leaves a body property that repeats out as a category', () => {
    // `name` comes before `title`, but two values on ten nodes name nothing.
    const repeated = ['Vins et alcools Chevalier', 'Toms Spezialitäten'].flatMap((v) => Array<string>(5).fill(v));
    const text = choose('Order', [p('name', repeated), p('title', words('Order', 10))], 10);
    expect(text.name).toEqual(['title']);
    expect(text.body).toEqual([]);
    expect(text.skipped).toEqual([{ property: 'name', reason: 'repeats', detail: 'a category: 2 distinct values in 10 nodes' }]);
    // 8 distinct in 10 is a name still; 7 is not (it is body text: 0.7 ≥ half distinct).
    const eight = [...words('Ship', 8), 'Ship aword', 'Ship bword'];
    expect(choose('Order', [p('shipName', eight)], 10).name).toEqual(['shipName']);
    const seven = [...words('Ship', 7), 'Ship aword', 'Ship bword', 'Ship cword'];
    expect(choose('Order', [p('shipName', seven)], 10)).toMatchObject({ name: [], body: ['shipName'] });
  });

  it('refuses a long name (mean over 120 characters) and a name on fewer than half the nodes', () => {
    const long = ['alpha', 'beta', 'gamma'].map((w) => `${w} ${'word '.repeat(24)}`.trim());
    expect(long[0]!.length).toBeGreaterThan(120);
    expect(choose('Thing', [p('name', long)])).toMatchObject({ name: [], body: ['name'] });
    expect(choose('Thing', [p('name', ['Ann', 'Bob'])], 5)).toMatchObject({ name: [], body: ['name'] });
    expect(choose('Thing', [p('name', ['Ann', 'Bob', 'Cid'])], 5)).toMatchObject({ name: ['name'], body: [] });
  });

  it('keeps 12 body properties, the shortest beyond them left out as too many', () => {
    const props = Array.from({ length: 13 }, (_, i) => {
      const key = `p${String(i + 1).padStart(2, '0')}`;
      return p(key, [`${'word '.repeat(14 - i)}${key}`, `${'more '.repeat(14 - i)}${key}`]);
    });
    const text = choose('Record', props, 2);
    expect(text.name).toEqual([]);
    expect(text.body).toEqual(props.slice(0, 12).map((x) => x.key));
    expect(text.skipped).toEqual([{ property: 'p13', reason: 'too many', detail: 'more than 12 text properties' }]);
  });
});

describe('splitExplicit', () => {
  it('takes a leading name-like property, or a leading first + last pair, as the name', () => {
    expect(splitExplicit('Movie', ['title', 'released', 'tagline'])).toEqual({ name: ['title'], body: ['released', 'tagline'] });
    expect(splitExplicit('Employee', ['firstName', 'lastName', 'notes'])).toEqual({ name: ['firstName', 'lastName'], body: ['notes'] });
    expect(splitExplicit('Product_x1', ['productName', 'quantityPerUnit'])).toEqual({ name: ['productName'], body: ['quantityPerUnit'] });
    expect(splitExplicit('Employee', ['firstName', 'notes'])).toEqual({ name: ['firstName'], body: ['notes'] });
  });

  it('has no name when the first property is not name-like, and nothing for no properties', () => {
    expect(splitExplicit('Movie', ['tagline', 'title'])).toEqual({ name: [], body: ['tagline', 'title'] });
    expect(splitExplicit('Order', ['shipAddress'])).toEqual({ name: [], body: ['shipAddress'] });
    expect(splitExplicit('Movie', [])).toEqual({ name: [], body: [] });
  });
});

describe('nameCandidates', () => {
  it('orders the steps: displayName, name, own, first + last, title, organisation, other …Name, other …Title, a party', () => {
    const keys = [
      'shipName',
      'albumTitle',
      'companyName',
      'title',
      'lastName',
      'firstName',
      'gizmoName',
      'name',
      'displayName',
      'contactTitle',
    ];
    expect(nameCandidates(['Gizmo'], keys)).toEqual([
      ['displayName'],
      ['name'],
      ['gizmoName'],
      ['firstName', 'lastName'],
      ['title'],
      ['companyName'],
      ['firstName'],
      ['lastName'],
      ['albumTitle'],
      ['shipName'],
    ]);
  });

  it('with strongOnly, stops after the first and last name: no title, organisation, other …Name or party', () => {
    const keys = ['shipName', 'companyName', 'title', 'albumTitle', 'gizmoName', 'name'];
    expect(nameCandidates(['Gizmo'], keys, { strongOnly: true })).toEqual([['name'], ['gizmoName']]);
    expect(nameCandidates(['Order'], ['shipName', 'title', 'companyName'], { strongOnly: true })).toEqual([]);
  });
});

describe('placeholders and name values', () => {
  it('NULL, N/A, \\N, dashes and blanks are placeholders; none, 0 and unknown are values', () => {
    for (const v of ['NULL', 'null', ' Null ', 'N/A', 'n/a', '\\N', '-', '--', '', '   ']) expect(isPlaceholder(v)).toBe(true);
    for (const v of ['none', 'None', '0', 'unknown', 'NA', 'Nullarbor']) expect(isPlaceholder(v)).toBe(false);
  });

  it('a name is a string, not a placeholder, trimmed and cut with a marker', () => {
    expect(nameValue('  Exotic Liquids ')).toBe('Exotic Liquids');
    for (const v of ['NULL', '', ['gizmo', 'three'], 42, null, undefined, { a: 1 }]) expect(nameValue(v)).toBeNull();
    // A long value is read from its start: blank there, it names nothing.
    expect(nameValue(`${' '.repeat(70)}late`)).toBeNull();
    expect(nameValue(`${' '.repeat(10)}Exotic Liquids${' '.repeat(100)}`)).toBe('Exotic Liquids');
    const long = nameValue('x'.repeat(5_000_000))!;
    expect(long).toHaveLength(NAME_CHARS);
    expect(long.endsWith('…')).toBe(true);
  });
});
