#!/usr/bin/env node
/**
 * Writes scripts/data/cypher-mistakes.jsonl: the corpus of bench:feedback (issue 24). Queries a
 * model would write over the sample graph and the WikiPathways graph, each correct one followed
 * by the mistakes small models make in it: a label in the wrong case, plural or misspelt, a
 * label named by a synonym, a relationship type shortened, pluralised, in camel case or
 * misspelt, a property key in snake case, misspelt or invented, and each relationship walked
 * against its direction. Every line: {id, graph, mistake, cypher, slot?, wrong?, right?}, where
 * `right` is the name the query should have used (null when the query is correct). Deterministic.
 *
 *   node scripts/gen/gen-cypher-mistakes.mjs
 */
import { writeFileSync } from 'node:fs';

/** Templates: slots in braces, `kind:name` (L label, T type, P property). `->`/`<-` of a T slot's hop may be reversed. */
const TEMPLATES = {
  sample: [
    'MATCH (m:{L:Mission}) WHERE m.{P:launchYear} > 2000 RETURN m.displayName AS name ORDER BY name LIMIT 10',
    'MATCH (a:{L:Astronaut})-[:{T:CREW_OF}]->(m:{L:Mission}) RETURN a.displayName, m.displayName LIMIT 10',
    "MATCH (m:{L:Mission})-[:{T:LAUNCHED_BY}]->(g:{L:Agency}) WHERE g.displayName = 'NASA' RETURN count(m) AS missions",
    'MATCH (s:{L:Scientist})-[:{T:DISCOVERED}]->(b:{L:CelestialBody}) RETURN s.displayName, b.displayName',
    'MATCH (c:{L:Spacecraft})-[:{T:CARRIES}]->(i:{L:Instrument}) WHERE i.{P:powerW} > 10 RETURN c.displayName, i.displayName',
    "MATCH (m:{L:Mission})-[:{T:VISITED}]->(b:{L:CelestialBody} {displayName: 'Mars'}) RETURN m.displayName, m.{P:launchDate}",
    'MATCH (l:{L:LaunchSite})<-[:{T:LAUNCHED_FROM}]-(m:{L:Mission}) RETURN l.displayName, count(m) AS launches ORDER BY launches DESC',
    "MATCH (b:{L:CelestialBody})-[:{T:ORBITS}]->(p:CelestialBody {displayName: 'Jupiter'}) RETURN b.displayName, b.{P:radiusKm}",
    'MATCH (a:{L:Astronaut})-[:{T:WORKS_FOR}]->(g:{L:Agency}) RETURN g.displayName AS agency, count(a) AS astronauts',
    'MATCH (g:{L:Agency}) WHERE g.{P:founded} < 1970 RETURN g.displayName, g.{P:budgetBillionUsd}',
    'MATCH (p:{L:Person}) WHERE p.{P:birthYear} > 1960 RETURN p.displayName, p.{P:nationality}',
    'MATCH (m:{L:Mission})-[:{T:USES}]->(c:{L:Spacecraft}) WHERE c.{P:reusable} = true RETURN m.displayName, c.displayName',
    "MATCH (s:{L:Spacecraft})-[:{T:OPERATED_BY}]->(g:{L:Agency} {displayName: 'ESA'}) RETURN s.displayName, s.{P:massKg}",
    'MATCH (i:{L:Instrument})-[:{T:DEVELOPED_BY}]->(g:{L:Agency}) RETURN g.displayName, collect(i.{P:measures})[..3]',
  ],
  wikipathways: [
    "MATCH (p:{L:Pathway})-[:{T:IN_SPECIES}]->(s:{L:Species} {name: 'Homo sapiens'}) RETURN count(p) AS pathways",
    "MATCH (p:{L:Pathway})-[:{T:HAS_PARTICIPANT}]->(g:{L:GeneProduct}) WHERE g.displayName = 'TP53' RETURN p.displayName",
    'MATCH (p:{L:Pathway})-[:{T:ANNOTATED_WITH}]->(o:{L:OntologyTerm}) RETURN o.displayName AS term, count(p) AS n ORDER BY n DESC LIMIT 10',
    "MATCH (p:{L:Pathway}) WHERE p.{P:wpid} = 'WP254' RETURN p.displayName, p.{P:lastEdited}",
    'MATCH (p:{L:Pathway})-[:{T:HAS_PARTICIPANT}]->(m:{L:Metabolite}) RETURN m.displayName AS metabolite, count(p) AS n ORDER BY n DESC LIMIT 5',
    "MATCH (p:{L:Pathway})-[:{T:HAS_PARTICIPANT}]->(r:{L:Protein}) WHERE r.{P:identifier} STARTS WITH 'P' RETURN count(r)",
    'MATCH (s:{L:Species})<-[:{T:IN_SPECIES}]-(p:{L:Pathway}) RETURN s.{P:name} AS species, count(p) AS n ORDER BY n DESC',
    "MATCH (g:{L:GeneProduct})<-[:{T:HAS_PARTICIPANT}]-(p:Pathway)-[:IN_SPECIES]->(s:Species {name: 'Homo sapiens'}) WHERE g.{P:identifier} STARTS WITH 'ENSG' RETURN count(DISTINCT p)",
    "MATCH (o:{L:OntologyTerm})<-[:{T:ANNOTATED_WITH}]-(p:{L:Pathway})-[:{T:IN_SPECIES}]->(s:{L:Species}) WHERE o.{P:id} STARTS WITH 'PW:' RETURN s.name, count(p)",
  ],
};

/** Label mistakes: case, plural, typo, and a synonym no edit distance finds (right stays the label; `near` says so). */
const SYNONYMS = {
  Mission: 'Flight',
  Astronaut: 'Cosmonaut',
  Agency: 'Organization',
  Scientist: 'Researcher',
  CelestialBody: 'Planet',
  Spacecraft: 'Vehicle',
  Instrument: 'Sensor',
  LaunchSite: 'Spaceport',
  Person: 'Human',
  Pathway: 'BiologicalProcess',
  Species: 'Organism',
  GeneProduct: 'Gene',
  OntologyTerm: 'Annotation',
  Metabolite: 'Compound',
  Protein: 'Polypeptide',
  Rna: 'Transcript',
};
const TYPE_SYNONYMS = {
  CREW_OF: 'FLEW_ON',
  LAUNCHED_BY: 'OPERATED',
  DISCOVERED: 'FOUND',
  CARRIES: 'HAS_INSTRUMENT',
  VISITED: 'EXPLORED',
  LAUNCHED_FROM: 'STARTED_AT',
  ORBITS: 'REVOLVES_AROUND',
  WORKS_FOR: 'EMPLOYED_BY',
  USES: 'HAS_SPACECRAFT',
  OPERATED_BY: 'RUN_BY',
  DEVELOPED_BY: 'BUILT_BY',
  IN_SPECIES: 'OF_ORGANISM',
  HAS_PARTICIPANT: 'CONTAINS',
  ANNOTATED_WITH: 'HAS_TERM',
};
const PROPERTY_INVENTED = {
  launchYear: 'year',
  powerW: 'power',
  launchDate: 'date',
  radiusKm: 'diameter',
  founded: 'foundingDate',
  budgetBillionUsd: 'budget',
  birthYear: 'born',
  nationality: 'country',
  reusable: 'isReusable',
  massKg: 'weight',
  measures: 'purpose',
  wpid: 'pathwayId',
  lastEdited: 'updatedAt',
  identifier: 'uniprotId',
  name: 'scientificName',
  id: 'termId',
};

/** Swaps two letters in the middle: `Mission` → `Misison`. */
function swap(s) {
  const i = Math.min(s.length - 2, Math.max(1, Math.floor(s.length / 2) - 1)); // `id` → `di`
  return s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
}
/** Drops one letter in the middle: `Instrument` → `Instrment`. */
const drop = (s) => s.slice(0, Math.floor(s.length / 2)) + s.slice(Math.floor(s.length / 2) + 1);
const plural = (s) => (/(s|sh|ch|x)$/i.test(s) ? `${s}es` : /[^aeiou]y$/i.test(s) ? `${s.slice(0, -1)}ies` : `${s}s`);
const camel = (s) => s.toLowerCase().replace(/_([a-z])/g, (_, c) => c.toUpperCase());
const snake = (s) => s.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();

const MUTATIONS = {
  L: (n) => [
    ['label-lower-case', n.toLowerCase()],
    ['label-plural', plural(n)],
    ['label-typo', swap(n)],
    ['label-synonym', SYNONYMS[n], false],
  ],
  T: (n) => [
    ['type-lower-case', n.toLowerCase()],
    ['type-camel-case', camel(n)],
    ['type-shortened', n.includes('_') ? n.split('_')[0] : `${n}S`],
    ['type-typo', drop(n)],
    ['type-synonym', TYPE_SYNONYMS[n], false],
  ],
  P: (n) => [
    ['property-snake-case', snake(n) === n ? `${n}_` : snake(n)],
    ['property-typo', swap(n)],
    ['property-invented', PROPERTY_INVENTED[n], false],
  ],
};

const lines = [];
let id = 0;
const fill = (template, slot, value) => template.replace(/\{([LTP]):(\w+)\}/g, (m, _kind, name) => (m === slot ? value : name));
for (const [graph, templates] of Object.entries(TEMPLATES)) {
  for (const template of templates) {
    const correct = fill(template);
    lines.push({ id: ++id, graph, mistake: 'none', cypher: correct, right: null });
    const seen = new Set([correct]);
    for (const m of template.matchAll(/\{([LTP]):(\w+)\}/g)) {
      const [slot, kind, name] = m;
      for (const [mistake, wrong, near = true] of MUTATIONS[kind](name)) {
        if (!wrong || wrong === name) continue;
        const cypher = fill(template, slot, wrong);
        if (seen.has(cypher)) continue;
        seen.add(cypher);
        lines.push({ id: ++id, graph, mistake, cypher, slot: kind, wrong, right: name, near });
      }
      if (kind === 'T') {
        // The same hop walked the other way round: `)-[:T]->(` ⇄ `)<-[:T]-(`.
        // A hop between two nodes of one label (ORBITS) reads the same both ways: no mistake there.
        const hop = new RegExp(`:\\{?L?:?(\\w+)\\}?[^(]*\\)(<)?-\\[:\\{T:${name}\\}\\]-(>)?\\(\\w*:\\{?L?:?(\\w+)`);
        const h = hop.exec(template);
        if (h && h[1] !== h[4]) {
          const arrow = h[0].slice(h[0].indexOf(')'), h[0].lastIndexOf('(') + 1);
          const reversed = h[2] ? `)-[:{T:${name}}]->(` : `)<-[:{T:${name}}]-(`;
          const cypher = fill(template.replace(h[0], h[0].replace(arrow, reversed)));
          if (!seen.has(cypher)) {
            seen.add(cypher);
            lines.push({ id: ++id, graph, mistake: 'reversed-direction', cypher, slot: 'T', wrong: name, right: name, near: true });
          }
        }
      }
    }
  }
}
const out = new URL('../data/cypher-mistakes.jsonl', import.meta.url);
writeFileSync(out, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
const by = lines.reduce((m, l) => m.set(l.mistake, (m.get(l.mistake) ?? 0) + 1), new Map());
console.log(`${lines.length} queries → ${out.pathname}`);
console.log([...by].map(([k, v]) => `${k} ${v}`).join(', '));
