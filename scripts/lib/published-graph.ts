/**
 * A minimal loader of the public movies + Northwind graphs for bench:feedback's value part, as
 * /work/shared/datasets/movies-northwind/README.md says their owners load them: the movies
 * Cypher as written (labels suffixed, its constraints and indexes left out), Northwind's CSVs
 * with every value a string (`MERGE (n:Label {key: row.key}) SET n += row`), only Product's
 * numbers and flag converted, links by key, `ORDERS` from the order details with an integer
 * quantity. Written for the bench while test/helpers/published-graph.ts (the test helpers'
 * fuller loader) was not yet committed; once it is, this file can go.
 */
import { readFile } from 'node:fs/promises';
import type { Driver } from 'neo4j-driver';
import { quoteName } from '../../src/graph/dialect.js';

/** The dataset's folder beside the checkout (run from the repository root, as npm does). */
const DIR = '../shared/datasets/movies-northwind/';

/** The labels, without suffix. */
export const PUBLISHED_LABELS = ['Movie', 'Person', 'Product', 'Category', 'Supplier', 'Customer', 'Employee', 'Order', 'Shipper'];

/** Quoted CSV (RFC 4180) to rows of fields. */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let inQuotes = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inQuotes) {
      if (ch !== '"') field += ch;
      else if (text[i + 1] === '"') field += text[++i];
      else inQuotes = false;
    } else if (ch === '"') inQuotes = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n') {
      rows.push([...row, field.replace(/\r$/, '')]);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows.filter((r) => r.length > 1 || r[0]);
}

/** A CSV file as `LOAD CSV WITH HEADERS` reads it: header names zipped with fields (extra fields dropped). */
async function records(file: string): Promise<Record<string, string>[]> {
  const [header, ...rows] = csvRows(await readFile(`${DIR}northwind/${file}`, 'utf8'));
  return rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]]).filter(([, v]) => v !== undefined)));
}

/** Loads both graphs with `suffix` on every label, in one transaction. */
export async function loadPublished(driver: Driver, database: string, suffix: string): Promise<void> {
  const L = (label: string) => quoteName(label + suffix);
  const movies = (await readFile(`${DIR}movies.cypher`, 'utf8'))
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter((s) => s && !/^CREATE\s+(CONSTRAINT|INDEX)/i.test(s))
    .map((s) => s.replace(/:(Movie|Person)\b/g, (_, l: string) => `:${L(l)}`));
  const nodes: Array<[string, string, string]> = [
    ['Product', 'products.csv', 'productID'],
    ['Category', 'categories.csv', 'categoryID'],
    ['Supplier', 'suppliers.csv', 'supplierID'],
    ['Customer', 'customers.csv', 'customerID'],
    ['Order', 'orders.csv', 'orderID'],
    ['Employee', 'employees.csv', 'employeeID'],
    ['Shipper', 'shippers.csv', 'shipperID'],
  ];
  const links: Array<[string, string, string, string, string]> = [
    ['Product', 'categoryID', 'PART_OF', 'Category', 'categoryID'],
    ['Supplier', 'supplierID', 'SUPPLIES', 'Product', 'supplierID'],
    ['Customer', 'customerID', 'PURCHASED', 'Order', 'customerID'],
    ['Employee', 'employeeID', 'SOLD', 'Order', 'employeeID'],
    ['Employee', 'reportsTo', 'REPORTS_TO', 'Employee', 'employeeID'],
  ];
  const session = driver.session({ database });
  try {
    await session.executeWrite(async (tx) => {
      for (const statement of movies) await tx.run(statement);
      for (const [label, file, key] of nodes) {
        await tx.run(`UNWIND $rows AS row MERGE (n:${L(label)} {${key}: row.${key}}) SET n += row`, { rows: await records(file) });
      }
      await tx.run(`MATCH (p:${L('Product')}) SET p.unitPrice = toFloat(p.unitPrice), p.unitsInStock = toInteger(p.unitsInStock),
        p.unitsOnOrder = toInteger(p.unitsOnOrder), p.reorderLevel = toInteger(p.reorderLevel), p.discontinued = (p.discontinued <> '0')`);
      for (const [from, fromKey, type, to, toKey] of links) {
        await tx.run(`MATCH (a:${L(from)}) MATCH (b:${L(to)} {${toKey}: a.${fromKey}}) MERGE (a)-[:${type}]->(b)`);
      }
      await tx.run(
        `UNWIND $rows AS row MATCH (o:${L('Order')} {orderID: row.orderID}) MATCH (p:${L('Product')} {productID: row.productID})
         CREATE (o)-[d:ORDERS]->(p) SET d = row, d.quantity = toInteger(row.quantity)`,
        { rows: await records('order-details.csv') },
      );
    });
  } finally {
    await session.close();
  }
}
