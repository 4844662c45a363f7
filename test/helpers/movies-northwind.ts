/**
 * A deterministic fixture graph shaped like two public example graphs people load into Neo4j:
 * the "movies" example (Movie, Person and their credits) and Northwind as a plain LOAD CSV
 * leaves it (numbers, dates and flags stored as strings, hex blobs, empty-string regions).
 * It exercises indexing of graphs without a `text` property: per label, a name property and
 * descriptive strings must be found among identifiers, codes, stringly numbers, URLs and blobs.
 * All content is invented (movies-northwind-data.ts); only the shape follows the originals.
 */
import neo4j, { type Driver } from 'neo4j-driver';
import { prng } from '../../scripts/gen/prng.mjs';
import { quoteName } from '../../src/graph/dialect/names.js';
import {
  CATEGORIES,
  CHARACTER_EXTRAS,
  CHARACTER_FIRST,
  CHARACTER_LAST,
  CUSTOMER_TITLES,
  EMPLOYEES,
  LOCALES,
  MOVIES,
  PERSON_FIRST,
  PERSON_LAST,
  PRODUCTS,
  REVIEWS,
  SHIPPERS,
  SUPPLIERS,
} from './movies-northwind-data.js';

/** A property value of the fixture; whole numbers are stored as Neo4j integers. */
export type FixtureValue = string | number | string[];

/** A fixture node; `key` (e.g. `Movie:12`, `Order:10248`) is stable and never carries the suffix. */
export interface FixtureNode {
  key: string;
  /** The label, suffix included. */
  label: string;
  properties: Record<string, FixtureValue>;
}

/** A fixture relationship between two node keys. */
export interface FixtureRel {
  type: string;
  from: string;
  to: string;
  properties: Record<string, FixtureValue>;
}

/** Options of every function here: `suffix` is appended to each label (e.g. `Movie_t1`). */
export interface MoviesNorthwindOptions {
  suffix?: string;
}

/** The fixture's labels without suffix, and how many nodes each has (1218 in all). */
export const MOVIES_NORTHWIND_COUNTS = {
  Movie: 38,
  Person: 133,
  Category: 8,
  Product: 77,
  Supplier: 29,
  Customer: 91,
  Employee: 9,
  Order: 830,
  Shipper: 3,
} as const;

/** A label of the fixture, without suffix. */
export type MoviesNorthwindLabel = keyof typeof MOVIES_NORTHWIND_COUNTS;

/** The fixture's labels with the suffix of `opts`. */
export function moviesNorthwindLabels(opts: MoviesNorthwindOptions = {}): string[] {
  return Object.keys(MOVIES_NORTHWIND_COUNTS).map((l) => l + (opts.suffix ?? ''));
}

const SEED = 1_984_062;
const HEX = '0123456789ABCDEF';
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DAY = 86_400_000;
const ORDER_START = Date.UTC(1996, 6, 4);
const ORDER_DAYS = 670;
/** The last orders of the export were never shipped (empty shippedDate), as in the original. */
const UNSHIPPED = 21;

/** Builds the fixture: the same nodes and relationships on every call; only labels depend on `opts`. */
export function moviesNorthwind(opts: MoviesNorthwindOptions = {}): { nodes: FixtureNode[]; relationships: FixtureRel[] } {
  const suffix = opts.suffix ?? '';
  const r = prng(SEED);
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const weighted = (weights: readonly number[]) => {
    let x = r() * weights.reduce((a, b) => a + b, 0);
    for (let i = 0; i < weights.length; i++) if ((x -= weights[i]!) < 0) return i;
    return weights.length - 1;
  };
  const shuffled = <T>(xs: readonly T[]): T[] => {
    const out = [...xs];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };
  // `#` a digit, `A` a capital letter: postal codes and phone numbers per country.
  const fill = (template: string) => template.replace(/#/g, () => String(int(0, 9))).replace(/A/g, () => pick([...LETTERS]));
  // Binary columns exported by LOAD CSV: "0x" and upper-case hex, a bitmap's "BM" first.
  const hexBlob = (chars: number) => {
    let s = '0x424D';
    while (s.length < chars + 2) s += HEX[Math.floor(r() * 16)];
    return s;
  };
  const sqlDate = (ms: number) => `${new Date(ms).toISOString().slice(0, 10)} 00:00:00.000`;

  const nodes: FixtureNode[] = [];
  const relationships: FixtureRel[] = [];
  const add = (label: MoviesNorthwindLabel, id: string | number, properties: Record<string, FixtureValue>) => {
    const key = `${label}:${id}`;
    nodes.push({ key, label: label + suffix, properties });
    return key;
  };
  const rel = (type: string, from: string, to: string, properties: Record<string, FixtureValue> = {}) =>
    relationships.push({ type, from, to, properties });

  // ---- movies ---------------------------------------------------------------------------
  const movies = MOVIES.map(([title, released, tagline], i) => add('Movie', i + 1, { title, tagline, released }));

  const personNames = new Set<string>();
  while (personNames.size < MOVIES_NORTHWIND_COUNTS.Person) personNames.add(`${pick(PERSON_FIRST)} ${pick(PERSON_LAST)}`);
  const people = [...personNames].map((name, i) => {
    const born = int(1929, 1994);
    // A few people have no birth year at all, as in the original (the property is absent, not null).
    return add('Person', i + 1, i % 29 === 7 ? { name } : { name, born });
  });

  // Disjoint pools keep every person in at least one relationship.
  const pool = shuffled(people);
  const critics = pool.slice(0, 3);
  const directors = pool.slice(3, 27);
  const writers = pool.slice(27, 35);
  const producers = pool.slice(35, 41);
  const actors = pool.slice(41);
  const actorPool = [...actors, ...directors.slice(0, 6)];
  const uncast = [...actors];
  const role = () => {
    const x = r();
    if (x < 0.1) return pick(CHARACTER_EXTRAS);
    if (x < 0.3) return pick(CHARACTER_FIRST);
    if (x < 0.4) return `${pick(['Dr.', 'Mrs.', 'Detective', 'Sheriff', 'Captain', 'Aunt'])} ${pick(CHARACTER_LAST)}`;
    return `${pick(CHARACTER_FIRST)} ${pick(CHARACTER_LAST)}`;
  };
  const casts = movies.map(() => new Set<string>());
  let writer = 0;
  let producer = 0;
  movies.forEach((movie, m) => {
    const director = directors[m % directors.length]!;
    rel('DIRECTED', director, movie);
    if (m % 9 === 4) rel('DIRECTED', directors[(m + 11) % directors.length]!, movie);
    if (m % 4 === 1) rel('WROTE', writers[writer++ % writers.length]!, movie);
    if (m % 6 === 0) rel('WROTE', director, movie);
    if (m % 3 === 0) rel('PRODUCED', producers[producer++ % producers.length]!, movie);
    if (m % 12 === 0) rel('PRODUCED', producers[producer++ % producers.length]!, movie);
    const size = int(3, 6);
    const cast = casts[m]!;
    while (cast.size < size) cast.add(uncast.length > 0 && r() < 0.8 ? uncast.shift()! : pick(actorPool));
  });
  // Actors the draw never reached join a cast, so no actor is left without a film.
  uncast.forEach((actor, i) => casts[(i * 7) % casts.length]!.add(actor));
  casts.forEach((cast, m) => {
    for (const actor of cast) rel('ACTED_IN', actor, movies[m]!, { roles: r() < 0.1 ? [role(), role()] : [role()] });
  });
  const reviewed = shuffled(movies).slice(0, REVIEWS.length);
  REVIEWS.forEach(([summary, rating], i) => rel('REVIEWED', critics[i % critics.length]!, reviewed[i]!, { summary, rating }));
  rel('FOLLOWS', critics[1]!, critics[0]!);
  rel('FOLLOWS', critics[2]!, critics[0]!);
  rel('FOLLOWS', critics[0]!, critics[2]!);

  // ---- Northwind: catalogue -------------------------------------------------------------
  const categories = CATEGORIES.map(([categoryName, description], i) =>
    add('Category', i + 1, { categoryID: String(i + 1), categoryName, description, picture: hexBlob(int(4000, 6000) * 2) }),
  );
  const suppliers = SUPPLIERS.map((row, i) => {
    const [companyName, contactName, contactTitle, address, city, region, postalCode, country, phone, fax, homePage] = row as string[];
    return add('Supplier', i + 1, {
      supplierID: String(i + 1),
      companyName: companyName!,
      contactName: contactName!,
      contactTitle: contactTitle!,
      address: address!,
      city: city!,
      region: region!,
      postalCode: postalCode!,
      country: country!,
      phone: phone!,
      fax: fax!,
      homePage: homePage!,
    });
  });
  const products = PRODUCTS.map(([productName, supplier, category, quantityPerUnit, price], i) => {
    const key = add('Product', i + 1, {
      productID: String(i + 1),
      productName,
      supplierID: String(supplier),
      categoryID: String(category),
      quantityPerUnit,
      unitPrice: price.toFixed(2),
      unitsInStock: String(r() < 0.08 ? 0 : int(3, 125)),
      unitsOnOrder: String(r() < 0.75 ? 0 : pick([10, 20, 30, 40, 50, 60, 70, 80, 100])),
      reorderLevel: String(pick([0, 0, 5, 10, 15, 20, 25, 30])),
      discontinued: r() < 0.1 ? '1' : '0',
    });
    rel('PART_OF', key, categories[category - 1]!);
    rel('SUPPLIES', suppliers[supplier - 1]!, key);
    return key;
  });

  // ---- Northwind: customers, staff, shippers --------------------------------------------
  const customerIds = new Set<string>();
  const customers = LOCALES.flatMap((locale) =>
    locale.companies.map((companyName) => {
      const customerID = customerIdOf(companyName, customerIds);
      const [city, region, postal, area] = pick(locale.cities);
      const phoneTemplate = locale.phone.replace('{a}', area);
      const properties = {
        customerID,
        companyName,
        contactName: `${pick(locale.first)} ${pick(locale.last)}`,
        contactTitle: CUSTOMER_TITLES[weighted([6, 4, 2, 3, 2, 2, 1, 2, 1])]!,
        address: locale.address.replace('{n}', String(int(1, 420))).replace('{s}', pick(locale.streets)),
        city,
        region,
        postalCode: fill(postal),
        country: locale.country,
        phone: fill(phoneTemplate),
        fax: r() < 0.35 ? '' : fill(phoneTemplate),
      };
      return { key: add('Customer', customerID, properties), properties };
    }),
  );
  const employees = EMPLOYEES.map((e, i) =>
    add('Employee', i + 1, {
      employeeID: String(i + 1),
      lastName: e.lastName,
      firstName: e.firstName,
      title: e.title,
      titleOfCourtesy: e.titleOfCourtesy,
      birthDate: sqlDate(Date.parse(e.birthDate)),
      hireDate: sqlDate(Date.parse(e.hireDate)),
      address: e.address,
      city: e.city,
      region: e.region,
      postalCode: e.postalCode,
      country: e.country,
      homePhone: e.homePhone,
      extension: e.extension,
      photo: hexBlob(int(4800, 5200) * 2),
      notes: e.notes,
      reportsTo: e.reportsTo,
      photoPath: `http://accweb/emmployees/${e.lastName.toLowerCase()}.bmp`,
    }),
  );
  EMPLOYEES.forEach((e, i) => {
    if (e.reportsTo) rel('REPORTS_TO', employees[i]!, `Employee:${e.reportsTo}`);
  });
  const shippers = SHIPPERS.map(([companyName, phone], i) => add('Shipper', i + 1, { shipperID: String(i + 1), companyName, phone }));

  // ---- Northwind: orders ----------------------------------------------------------------
  // Skewed weights give a few big customers; two customers never ordered, as in the original.
  const customerWeights = customers.map((_, i) => (i === 21 || i === 57 ? 0 : 0.2 + r() ** 2 * 3));
  const waiting = shuffled(customers.map((_, i) => i).filter((i) => customerWeights[i]! > 0));
  const employeeWeights = [1.2, 0.9, 1.4, 1.9, 0.5, 0.8, 0.9, 1.0, 0.5];
  const total = MOVIES_NORTHWIND_COUNTS.Order;
  for (let i = 0; i < total; i++) {
    const orderID = String(10248 + i);
    const day = Math.round((i * ORDER_DAYS) / (total - 1));
    const ordered = ORDER_START + day * DAY;
    // Every ninth order goes to a customer without one yet, so only the two chosen stay without.
    const first = i % 9 === 0 ? waiting.shift() : undefined;
    const customer = customers[first ?? weighted(customerWeights)]!;
    const c = customer.properties;
    const employee = weighted(employeeWeights);
    const shipVia = weighted([0.3, 0.39, 0.31]);
    const lead = r() < 0.1 ? 14 : r() < 0.06 ? 42 : 28;
    const key = add('Order', orderID, {
      orderID,
      customerID: c.customerID,
      employeeID: String(employee + 1),
      orderDate: sqlDate(ordered),
      requiredDate: sqlDate(ordered + lead * DAY),
      shippedDate: i >= total - UNSHIPPED ? '' : sqlDate(ordered + (1 + Math.floor(r() ** 2 * 34)) * DAY),
      shipVia: String(shipVia + 1),
      freight: (0.02 + r() ** 3 * 1000).toFixed(2),
      shipName: c.companyName,
      shipAddress: c.address,
      shipCity: c.city,
      shipRegion: c.region,
      shipPostalCode: c.postalCode,
      shipCountry: c.country,
    });
    rel('PURCHASED', customer.key, key);
    rel('SOLD', employees[employee]!, key);
    rel('SHIPPED_BY', key, shippers[shipVia]!);
    // Prices were lower in the first half year, so order lines do not always match the catalogue.
    const discount = day < 180 ? 0.8 : 1;
    for (const p of shuffled(products).slice(0, int(1, 4))) {
      const price = PRODUCTS[Number(p.slice('Product:'.length)) - 1]![4];
      rel('ORDERS', key, p, {
        unitPrice: (price * discount).toFixed(2),
        quantity: String(
          pick([
            1, 2, 3, 4, 5, 6, 8, 10, 10, 12, 14, 15, 15, 18, 20, 20, 21, 24, 25, 28, 30, 30, 35, 36, 40, 42, 45, 50, 60, 70, 80, 100, 120,
          ]),
        ),
        discount: r() < 0.7 ? '0' : pick(['0.05', '0.1', '0.15', '0.2', '0.25']),
      });
    }
  }
  return { nodes, relationships };
}

const STOP_WORDS = new Set(['THE', 'LA', 'LE', 'LES', 'DE', 'DEL', 'DU', 'DO', 'DA', 'DES', 'EL', 'LOS', 'AUX', 'AND', 'ET', 'UND', 'AM']);

/** Five capitals from the company name ("Alster Feinkost" → "ALSFE"), unique within `taken`. */
function customerIdOf(companyName: string, taken: Set<string>): string {
  const all = companyName
    .normalize('NFD')
    .replace(/[^A-Za-z ]/g, '')
    .toUpperCase()
    .split(/\s+/)
    .filter(Boolean);
  const words = all.filter((w) => !STOP_WORDS.has(w));
  const [a = 'X', b = a.slice(3) || 'X'] = words.length > 0 ? words : all;
  const candidates = [
    a.slice(0, 3) + b.slice(0, 2),
    a.slice(0, 2) + b.slice(0, 3),
    a.slice(0, 4) + b.slice(0, 1),
    a.slice(0, 1) + b.slice(0, 4),
  ];
  for (const c of candidates) {
    const id = `${c}XXXXX`.slice(0, 5);
    if (!taken.has(id)) return (taken.add(id), id);
  }
  for (const letter of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') {
    const id = `${`${a}XXXX`.slice(0, 4)}${letter}`;
    if (!taken.has(id)) return (taken.add(id), id);
  }
  throw new Error(`no customerID left for ${companyName}`);
}

/** Whole numbers go to Neo4j as integers; the driver would send a JS number as a float. */
function toDb(properties: Record<string, FixtureValue>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(properties).map(([k, v]) => [k, typeof v === 'number' && Number.isInteger(v) ? neo4j.int(v) : v]),
  );
}

function groupBy<T>(items: readonly T[], by: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = by(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/**
 * Creates the fixture in `database` in one transaction: one UNWIND per label, then one per
 * relationship type matched by elementId (so no marker property is needed). Returns fixture
 * key → elementId.
 */
export async function loadMoviesNorthwind(
  driver: Driver,
  database: string,
  opts: MoviesNorthwindOptions = {},
): Promise<Map<string, string>> {
  const { nodes, relationships } = moviesNorthwind(opts);
  const session = driver.session({ database });
  try {
    return await session.executeWrite(async (tx) => {
      // Built inside the work function: a retried transaction starts from an empty map.
      const ids = new Map<string, string>();
      for (const [label, group] of groupBy(nodes, (n) => n.label)) {
        const { records } = await tx.run(
          `UNWIND $rows AS row CREATE (n:${quoteName(label)}) SET n = row.props RETURN row.key AS key, elementId(n) AS id`,
          { rows: group.map((n) => ({ key: n.key, props: toDb(n.properties) })) },
        );
        for (const rec of records) ids.set(rec.get('key') as string, rec.get('id') as string);
      }
      for (const [type, group] of groupBy(relationships, (rel) => rel.type)) {
        const result = await tx.run(
          `UNWIND $rows AS row
           MATCH (a) WHERE elementId(a) = row.from
           MATCH (b) WHERE elementId(b) = row.to
           CREATE (a)-[r:${quoteName(type)}]->(b) SET r = row.props`,
          { rows: group.map((rel) => ({ from: ids.get(rel.from), to: ids.get(rel.to), props: toDb(rel.properties) })) },
        );
        // A key that matched nothing would silently drop relationships.
        const created = result.summary.counters.updates().relationshipsCreated;
        if (created !== group.length) throw new Error(`${type}: created ${created} of ${group.length} relationships`);
      }
      return ids;
    });
  } finally {
    await session.close();
  }
}

/** DETACH DELETEs every node carrying one of `labels`, in one transaction. */
export async function removeLabelled(driver: Driver, database: string, labels: readonly string[]): Promise<void> {
  const session = driver.session({ database });
  try {
    await session.executeWrite(async (tx) => {
      for (const label of labels) await tx.run(`MATCH (n:${quoteName(label)}) DETACH DELETE n`);
    });
  } finally {
    await session.close();
  }
}

/** DETACH DELETEs every node carrying one of the fixture's (suffixed) labels. */
export function removeMoviesNorthwind(driver: Driver, database: string, opts: MoviesNorthwindOptions = {}): Promise<void> {
  return removeLabelled(driver, database, moviesNorthwindLabels(opts));
}

/** Where a descriptive question's words come from. */
export type DescriptiveKind = 'tagline' | 'category' | 'notes';

/** A search query and the one fixture node (by key, label with suffix) that answers it. */
export interface FixtureQuery {
  key: string;
  label: string;
  query: string;
}

/** How a user names a node of each label; Orders have no name. */
const NAME_OF: Partial<Record<MoviesNorthwindLabel, (p: Record<string, FixtureValue>) => string>> = {
  Movie: (p) => String(p.title),
  Person: (p) => String(p.name),
  Product: (p) => String(p.productName),
  Category: (p) => String(p.categoryName),
  Supplier: (p) => String(p.companyName),
  Customer: (p) => String(p.companyName),
  Shipper: (p) => String(p.companyName),
  Employee: (p) => `${p.firstName} ${p.lastName}`,
};

/**
 * Search queries with known answers: `names` (every named node, queried by its name) and
 * `descriptive` (39 questions answered by one node's tagline, category description or notes).
 */
export function moviesNorthwindQueries(opts: MoviesNorthwindOptions = {}): {
  names: FixtureQuery[];
  descriptive: (FixtureQuery & { kind: DescriptiveKind })[];
} {
  const suffix = opts.suffix ?? '';
  const names = moviesNorthwind(opts).nodes.flatMap((n) => {
    const nameOf = NAME_OF[n.key.slice(0, n.key.indexOf(':')) as MoviesNorthwindLabel];
    return nameOf ? [{ key: n.key, label: n.label, query: nameOf(n.properties) }] : [];
  });
  const descriptive = [
    ...MOVIES.flatMap(([, , , ask], i) =>
      ask ? [{ key: `Movie:${i + 1}`, label: `Movie${suffix}`, query: ask, kind: 'tagline' as const }] : [],
    ),
    ...CATEGORIES.map(([, , ask], i) => ({ key: `Category:${i + 1}`, label: `Category${suffix}`, query: ask, kind: 'category' as const })),
    ...EMPLOYEES.map((e, i) => ({ key: `Employee:${i + 1}`, label: `Employee${suffix}`, query: e.ask, kind: 'notes' as const })),
  ];
  return { names, descriptive };
}
