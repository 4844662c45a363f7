/**
 * The public movies and Northwind graphs as their owners publish them, loaded the way the
 * owners' import scripts load them (/work/shared/datasets/movies-northwind/README.md): the
 * movies example's Cypher as written, and Northwind's CSVs with every value a string and a
 * missing value the string `NULL` (`MERGE (n:Label {keyID: row.keyID}) SET n += row`), then only
 * Product's numbers and flag converted, and the relationships linked by key. Unlike
 * ./movies-northwind.ts (invented content of the same shape), this is the real data with its
 * real quirks, for tests and benches that measure what a user loading these graphs gets.
 *
 * The files sit beside the checkout (`../shared/datasets/movies-northwind` from the repo root,
 * as on CI). Labels take a suffix so a test works on its own copy; the movies file's schema
 * statements (a uniqueness constraint and an index per label) are not run, so a copy leaves
 * nothing behind once its nodes are deleted.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Driver, ManagedTransaction } from 'neo4j-driver';
import { quoteName } from '../../../src/graph/dialect/names.js';
import { removeLabelled } from '../../helpers/movies-northwind.js';

/**
 * Where the published files are: `../shared/datasets/movies-northwind` beside the repo root,
 * found from this file, or from the working directory when this file runs bundled elsewhere
 * (scripts/run-ts.mjs bundles benches into test-output/.run/).
 */
export const PUBLISHED_GRAPH_DIR =
  [
    fileURLToPath(new URL('../../../../shared/datasets/movies-northwind/', import.meta.url)),
    `${resolve(process.cwd(), '../shared/datasets/movies-northwind')}/`,
  ].find((dir) => existsSync(`${dir}movies.cypher`)) ??
  fileURLToPath(new URL('../../../../shared/datasets/movies-northwind/', import.meta.url));

/** The labels of the published graphs (without suffix) and their node counts: 1,218 in all. */
export const PUBLISHED_COUNTS = {
  Movie: 38,
  Person: 133,
  Product: 77,
  Category: 8,
  Supplier: 29,
  Customer: 91,
  Employee: 9,
  Order: 830,
  Shipper: 3,
} as const;

/** A label of the published graphs, without suffix. */
export type PublishedLabel = keyof typeof PUBLISHED_COUNTS;

/** Relationships in the published graphs once loaded. */
export const PUBLISHED_RELATIONSHIPS = 4_230;

/** Options of every function here: `suffix` is appended to each label (`Movie_x1`). */
export interface PublishedGraphOptions {
  suffix?: string;
}

/** The labels with the suffix of `opts`. */
export function publishedLabels(opts: PublishedGraphOptions = {}): string[] {
  return Object.keys(PUBLISHED_COUNTS).map((l) => l + (opts.suffix ?? ''));
}

/** Northwind's node files: label, file, key property. */
const NODE_FILES: [PublishedLabel, string, string][] = [
  ['Product', 'products.csv', 'productID'],
  ['Category', 'categories.csv', 'categoryID'],
  ['Supplier', 'suppliers.csv', 'supplierID'],
  ['Customer', 'customers.csv', 'customerID'],
  ['Order', 'orders.csv', 'orderID'],
  ['Employee', 'employees.csv', 'employeeID'],
  ['Shipper', 'shippers.csv', 'shipperID'],
];

/** Northwind's links by key: `(from)-[type]->(to)` where `from.fromKey = to.toKey`. */
const LINKS: [PublishedLabel, string, string, PublishedLabel, string][] = [
  ['Product', 'categoryID', 'PART_OF', 'Category', 'categoryID'],
  ['Supplier', 'supplierID', 'SUPPLIES', 'Product', 'supplierID'],
  ['Customer', 'customerID', 'PURCHASED', 'Order', 'customerID'],
  ['Employee', 'employeeID', 'SOLD', 'Order', 'employeeID'],
  ['Employee', 'reportsTo', 'REPORTS_TO', 'Employee', 'employeeID'],
];

/** Rows of an RFC 4180 CSV text (quoted fields may hold commas, quotes and newlines), the header first. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

/**
 * A CSV file of the dataset as records of strings, as `LOAD CSV WITH HEADERS` gives them: the
 * header's names zipped with a row's fields. Some published rows hold an unquoted comma
 * (`Pavlova, Ltd.`): their later fields shift by one and the extra one is dropped, as there.
 */
async function readRecords(file: string): Promise<Record<string, string>[]> {
  const [header, ...rows] = parseCsv(await readFile(`${PUBLISHED_GRAPH_DIR}northwind/${file}`, 'utf8'));
  return rows
    .filter((r) => r.length > 1 || r[0])
    .map((r) => Object.fromEntries(header!.flatMap((h, i) => (r[i] === undefined ? [] : [[h, r[i]]]))));
}

/** The movies file's data statements, labels suffixed; its constraints and indexes are left out. */
async function moviesStatements(suffix: string): Promise<string[]> {
  const text = await readFile(`${PUBLISHED_GRAPH_DIR}movies.cypher`, 'utf8');
  return text
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter((s) => s && !/^CREATE (CONSTRAINT|INDEX)\b/i.test(s))
    .map((s) => s.replace(/:(Movie|Person)\b/g, (_, l: string) => `:${quoteName(l + suffix)}`));
}

/** Northwind into `tx`, as the owners' script does it. */
async function loadNorthwind(tx: ManagedTransaction, suffix: string): Promise<void> {
  const L = (l: PublishedLabel) => quoteName(l + suffix);
  for (const [label, file, key] of NODE_FILES) {
    await tx.run(`UNWIND $rows AS row MERGE (n:${L(label)} {${quoteName(key)}: row.${quoteName(key)}}) SET n += row`, {
      rows: await readRecords(file),
    });
  }
  await tx.run(
    `MATCH (p:${L('Product')}) SET p.unitPrice = toFloat(p.unitPrice), p.unitsInStock = toInteger(p.unitsInStock),
       p.unitsOnOrder = toInteger(p.unitsOnOrder), p.reorderLevel = toInteger(p.reorderLevel), p.discontinued = (p.discontinued <> '0')`,
  );
  for (const [from, fromKey, type, to, toKey] of LINKS) {
    await tx.run(
      `MATCH (a:${L(from)}) MATCH (b:${L(to)} {${quoteName(toKey)}: a.${quoteName(fromKey)}}) MERGE (a)-[:${quoteName(type)}]->(b)`,
    );
  }
  await tx.run(
    `UNWIND $rows AS row
     MATCH (o:${L('Order')} {orderID: row.orderID}) MATCH (p:${L('Product')} {productID: row.productID})
     CREATE (o)-[d:ORDERS]->(p) SET d = row, d.quantity = toInteger(row.quantity)`,
    { rows: await readRecords('order-details.csv') },
  );
}

/** Loads both graphs into `database` in one transaction (about 2 s). */
export async function loadPublishedGraph(driver: Driver, database: string, opts: PublishedGraphOptions = {}): Promise<void> {
  const suffix = opts.suffix ?? '';
  const movies = await moviesStatements(suffix);
  const session = driver.session({ database });
  try {
    await session.executeWrite(async (tx) => {
      for (const s of movies) await tx.run(s);
      await loadNorthwind(tx, suffix);
    });
  } finally {
    await session.close();
  }
}

/** DETACH DELETEs every node carrying one of the (suffixed) labels. */
export function removePublishedGraph(driver: Driver, database: string, opts: PublishedGraphOptions = {}): Promise<void> {
  return removeLabelled(driver, database, publishedLabels(opts));
}
