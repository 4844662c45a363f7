#!/usr/bin/env node
// Generates src/graph/access/sample-data.json: a small space-exploration graph for demos, tests and
// schema exploration. Deterministic (seeded PRNG, no dependencies): re-running it rewrites the
// same bytes. Usage: node scripts/gen/gen-sample-graph.mjs [outFile]
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRng } from './sample-graph/prng.mjs';
import { AGENCIES, LAUNCH_SITES, PARTNERSHIPS } from './sample-graph/agencies.mjs';
import { ASTRONOMERS, BODIES } from './sample-graph/bodies.mjs';
import { ROBOTIC } from './sample-graph/missions.mjs';
import { CREW_CRAFT, HISTORIC_CREWED, HISTORIC_PEOPLE, PROGRAMS } from './sample-graph/crewed.mjs';
import { ASTRONAUTS, CAREERS, HOBBIES, POOLS, SCIENTISTS } from './sample-graph/people.mjs';
import { CODES, KINDS } from './sample-graph/instruments.mjs';
import { CURRENT_YEAR, assemble } from './sample-graph/text-util.mjs';
import { missionText, spacecraftText } from './sample-graph/text-missions.mjs';
import { agencyText, bodyText, siteText } from './sample-graph/text-entities.mjs';
import { instrumentText, personText } from './sample-graph/text-people.mjs';

const SEED = 20250611;
const rng = createRng(SEED);
const OUT = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'graph', 'sample-data.json');

// ---- graph building -------------------------------------------------------------------

/** key -> node; `facts` feed the prose templates and are stripped before writing. */
const nodes = [];
const byKey = new Map();
const relationships = [];
const relSeen = new Set();

function addNode(key, labels, props, facts) {
  if (byKey.has(key)) throw new Error(`duplicate node key ${key}`);
  const node = { labels, properties: { dbId: nodes.length + 1, displayName: props.displayName, text: '', ...props }, facts };
  nodes.push(node);
  byKey.set(key, node);
  return node;
}
const node = (key) => {
  const n = byKey.get(key);
  if (!n) throw new Error(`unknown node key ${key}`);
  return n;
};
const nameOf = (key) => node(key).properties.displayName;

/** One relationship per (type, from, to): the loader MERGEs on exactly that. */
function link(type, fromKey, toKey, properties) {
  const from = node(fromKey).properties.dbId;
  const to = node(toKey).properties.dbId;
  const k = `${type}|${from}|${to}`;
  if (relSeen.has(k)) return false;
  relSeen.add(k);
  relationships.push(properties && Object.keys(properties).length ? { type, from, to, properties } : { type, from, to });
  return true;
}

const FEMALE = new Set([
  'Sarah',
  'Elena',
  'Priya',
  'Jennifer',
  'Aisha',
  'Laura',
  'Yelena',
  'Anna',
  'Irina',
  'Liu',
  'Li',
  'Huang',
  'Sun',
  'Kavya',
  'Meera',
  'Chloé',
  'Giulia',
  'Inés',
  'Yuki',
  'Zoë',
  'Ji-woo',
  'Grace',
  'Amélie',
  'Fatima',
  'Hannah',
  'Mei',
  'Lin',
  'Sun-hee',
  'Ingrid',
  'Svetlana',
]);
function pronouns(name) {
  const female = FEMALE.has(name.split(' ')[0]);
  return { pronoun: female ? 'She' : 'He', pronounLower: female ? 'she' : 'he', object: female ? 'her' : 'him' };
}
const isoDate = (y, m, d) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

// Agencies, partnerships, launch sites.
for (const [key, displayName, country, founded, hq, budget, kind, members, fact, fictional = false] of AGENCIES) {
  const props = { displayName, country, founded, headquarters: hq, kind, fictional };
  if (budget > 0) props.budgetBillionUsd = budget;
  if (members.length) props.memberStates = members;
  addNode(`A:${key}`, ['Agency'], props, {
    name: displayName,
    country,
    founded,
    hq,
    budget,
    kind,
    members,
    fact,
    fictional,
    missions: [],
    sites: [],
    spacecraft: [],
    partners: [],
    astronauts: 0,
    scientists: 0,
  });
}
for (const [a, b, since, scope] of PARTNERSHIPS) {
  link('PARTNERED_WITH', `A:${a}`, `A:${b}`, { since, scope });
  node(`A:${a}`).facts.partners.push({ name: nameOf(`A:${b}`), since, scope });
  node(`A:${b}`).facts.partners.push({ name: nameOf(`A:${a}`), since, scope });
}
for (const [key, displayName, country, lat, lon, established, active, op, fact] of LAUNCH_SITES) {
  addNode(
    `S:${key}`,
    ['LaunchSite'],
    { displayName, country, latitude: lat, longitude: lon, established, active },
    { name: displayName, country, lat, lon, established, active, operator: nameOf(`A:${op}`), fact, missions: [] },
  );
  link('OPERATED_BY', `S:${key}`, `A:${op}`);
  node(`A:${op}`).facts.sites.push(displayName);
}

// Celestial bodies and the astronomers who discovered them.
for (const [key, displayName, kind, parent, radiusKm, massKg, period, sma, atmosphere, year, _discoverers, fact] of BODIES) {
  const props = { displayName, kind, radiusKm, massKg, hasAtmosphere: atmosphere };
  if (period) props.orbitalPeriodDays = period;
  if (year) props.discoveredYear = year;
  addNode(`B:${key}`, ['CelestialBody'], props, {
    name: displayName,
    kind,
    parent: parent && nameOf(`B:${parent}`),
    radiusKm,
    massKg,
    period,
    sma,
    atmosphere,
    discoveredYear: year,
    discoverers: [],
    fact,
    visits: [],
    moons: [],
  });
  if (parent) {
    link('ORBITS', `B:${key}`, `B:${parent}`, { semiMajorAxisKm: sma });
    if (kind === 'moon') node(`B:${parent}`).facts.moons.push(displayName);
  }
}
for (const [key, displayName, nationality, birthYear, deathYear, fact] of ASTRONOMERS) {
  const props = { displayName, nationality, birthYear, occupation: 'astronomer', fictional: false };
  if (deathYear) props.deathYear = deathYear;
  addNode(`P:${key}`, ['Person', 'Scientist'], props, {
    kind: 'astronomer',
    name: displayName,
    nationality,
    birthYear,
    deathYear,
    fact,
    discoveries: [],
    shared: [],
  });
}
for (const [key, , , , , , , , , year, discoverers] of BODIES) {
  for (const d of discoverers) {
    link('DISCOVERED', `P:${d}`, `B:${key}`, { year });
    const f = node(`P:${d}`).facts;
    f.discoveries.push({ body: nameOf(`B:${key}`), year });
    if (discoverers.length > 1)
      f.shared.push({ body: nameOf(`B:${key}`), with: discoverers.filter((x) => x !== d).map((x) => nameOf(`P:${x}`)) });
    node(`B:${key}`).facts.discoverers.push(nameOf(`P:${d}`));
  }
}

// People: historical crews, fictional astronauts and instrument scientists.
const personFacts = (kind, name, nationality, birthYear, agencyKey, extra) => ({
  kind,
  name,
  nationality,
  birthYear,
  agency: nameOf(`A:${agencyKey}`),
  agencyKey,
  flights: [],
  instruments: [],
  ...pronouns(name),
  ...extra,
});
for (const [name, nationality, birthYear, deathYear, agency, fact] of HISTORIC_PEOPLE) {
  const props = { displayName: name, nationality, birthYear, occupation: 'astronaut', fictional: false };
  if (deathYear) props.deathYear = deathYear;
  addNode(
    `P:${name}`,
    ['Person', 'Astronaut'],
    props,
    personFacts('astronaut', name, nationality, birthYear, agency, { fact, deathYear, historic: true }),
  );
}
for (const [pool, name, nationality, agency, birthYear] of ASTRONAUTS) {
  addNode(
    `P:${name}`,
    ['Person', 'Astronaut'],
    { displayName: name, nationality, birthYear, occupation: 'astronaut', fictional: true },
    personFacts('astronaut', name, nationality, birthYear, agency, { pool, career: rng.pick(CAREERS), hobby: rng.pick(HOBBIES) }),
  );
}
for (const [name, nationality, agency, birthYear, field, deathYear] of SCIENTISTS) {
  const props = { displayName: name, nationality, birthYear, occupation: 'instrument scientist', field, fictional: true };
  if (deathYear) props.deathYear = deathYear;
  addNode(
    `P:${name}`,
    ['Person', 'Scientist'],
    props,
    personFacts('scientist', name, nationality, birthYear, agency, { field, deathYear }),
  );
}

// Spacecraft: robotic craft are defined inline with their missions; crew vehicles separately.
function addCraft(name, type, massKg, powerW, operatorKey, extra, factsExtra) {
  const props = { displayName: name, type, massKg, ...(powerW ? { powerW } : {}), ...extra };
  addNode(`C:${name}`, ['Spacecraft'], props, {
    name,
    type,
    massKg,
    powerW,
    operator: nameOf(`A:${operatorKey}`),
    propellants: [],
    missions: [],
    instruments: [],
    ...factsExtra,
  });
  link('OPERATED_BY', `C:${name}`, `A:${operatorKey}`, { role: 'lead' });
  node(`A:${operatorKey}`).facts.spacecraft.push(name);
}
// A craft named like its mission gets a " spacecraft" suffix so every displayName is unique.
const MISSION_NAMES = new Set(ROBOTIC.map((m) => m[0]));
const craftName = (name) => (MISSION_NAMES.has(name) ? `${name} spacecraft` : name);
for (const [, agencies, date, , , craft, , , , fictional = false] of ROBOTIC) {
  for (const [raw, type, massKg, powerW] of craft) {
    const name = craftName(raw);
    addCraft(name, type, massKg, powerW, agencies[0], { reusable: false, firstFlight: date, fictional }, { firstFlight: date, fictional });
  }
}
for (const [name, type, massKg, powerW, op, reusable, firstFlight, propellants, crewCapacity, fictional = false] of CREW_CRAFT) {
  addCraft(
    name,
    type,
    massKg,
    powerW,
    op,
    { reusable, firstFlight, crewCapacity, propellants, fictional },
    { reusable, firstFlight, propellants, crewCapacity, fictional },
  );
}
for (const partner of ['ROSCOSMOS', 'ESA', 'JAXA', 'CSA']) {
  link('OPERATED_BY', 'C:International Space Station', `A:${partner}`, { role: 'partner' });
  node(`A:${partner}`).facts.spacecraft.push('International Space Station');
}

// Missions. Predecessor links are resolved after every mission exists.
const successions = [];
function addMission(m) {
  const year = Number(m.date.slice(0, 4));
  const props = {
    displayName: m.name,
    launchDate: m.date,
    launchYear: year,
    crewed: m.crewed,
    status: m.status,
    targets: [...new Set(m.visits.map((v) => nameOf(`B:${v[0]}`)))],
    fictional: m.fictional,
  };
  if (m.durationDays) props.durationDays = m.durationDays;
  if (m.program) props.program = m.program;
  const site = node(`S:${m.site}`);
  addNode(`M:${m.name}`, ['Mission'], props, {
    name: m.name,
    agencies: m.agencies.map((a) => nameOf(`A:${a}`)),
    date: m.date,
    year,
    site: site.properties.displayName,
    siteCountry: site.facts.country,
    status: m.status,
    crewed: m.crewed,
    objective: m.objective,
    durationDays: m.durationDays,
    program: m.program,
    fictional: m.fictional,
    predecessor: m.predecessor,
    successors: [],
    crew: [],
    craft: m.craft.map((c) => ({ name: c, type: node(`C:${c}`).facts.type, massKg: node(`C:${c}`).facts.massKg })),
    visits: m.visits.map(([b, kind, y, extra]) => ({ body: nameOf(`B:${b}`), kind, year: y, impact: Boolean(extra?.intentionalImpact) })),
  });
  m.agencies.forEach((a, i) => {
    link('LAUNCHED_BY', `M:${m.name}`, `A:${a}`, { role: i === 0 ? 'lead' : 'partner' });
    node(`A:${a}`).facts.missions.push({ name: m.name, year });
  });
  link('LAUNCHED_FROM', `M:${m.name}`, `S:${m.site}`, { date: m.date });
  site.facts.missions.push({ name: m.name, year });
  for (const c of m.craft) {
    link('USES', `M:${m.name}`, `C:${c}`);
    node(`C:${c}`).facts.missions.push({ name: m.name, year });
  }
  for (const [b, kind, y, extra] of m.visits) {
    link('VISITED', `M:${m.name}`, `B:${b}`, { year: y, kind, ...extra });
    node(`B:${b}`).facts.visits.push({ mission: m.name, kind, year: y });
  }
  if (m.predecessor) successions.push([m.name, m.predecessor]);
}
for (const [name, agencies, date, site, status, craft, visits, objective, predecessor, fictional = false] of ROBOTIC) {
  addMission({
    name,
    agencies,
    date,
    site,
    status,
    crewed: false,
    craft: craft.map((c) => craftName(c[0])),
    visits,
    objective,
    predecessor,
    fictional,
  });
}
const HISTORIC_OBJECTIVES = {
  'Vostok 1': 'put the first human into orbit and return him safely',
  'Apollo 8': 'carry the first crew around the Moon',
  'Apollo 11': 'land people on the Moon and return them safely to Earth',
  'Apollo 17': 'carry out the longest lunar surface exploration of the Apollo programme',
  'Shenzhou 5': "fly China's first astronaut in orbit",
};
for (const [name, agencies, date, site, craft, crew, [body, kind], durationDays, predecessor] of HISTORIC_CREWED) {
  addMission({
    name,
    agencies,
    date,
    site,
    status: 'completed',
    crewed: true,
    craft,
    visits: [[body, kind, Number(date.slice(0, 4))]],
    objective: HISTORIC_OBJECTIVES[name],
    predecessor,
    durationDays,
    fictional: false,
  });
  for (const [person, role] of crew) assignCrew(person, name, role);
}

/** CREW_OF plus the facts both ends need for their prose. */
function assignCrew(person, mission, role) {
  link('CREW_OF', `P:${person}`, `M:${mission}`, { role });
  const m = node(`M:${mission}`).facts;
  m.crew.push({ name: person, role });
  node(`P:${person}`).facts.flights.push({ mission, role, year: m.year, craft: m.craft.map((c) => c.name) });
}

// Fictional crewed programmes: crews are drawn from national pools, least-flown first.
const PROGRAM_OBJECTIVES = {
  Meridian: () => 'rotate crews to the International Space Station and run long-duration experiments',
  'Zarya-K': () => 'ferry crews to and from the International Space Station',
  Qilin: () => 'staff the Tiangong 天宫 station for six-month expeditions',
  Vyom: (i) =>
    i === 0
      ? 'demonstrate independent Indian human spaceflight in low Earth orbit'
      : 'extend Indian crewed flight experience with longer orbital stays',
  'Lunar Vanguard': (i) =>
    i === 0 ? 'test the lander and crew vehicle together in lunar orbit' : 'explore the lunar south polar region on foot',
};
function pickCrewMember(poolCode, taken) {
  const codes = POOLS[poolCode] ?? [poolCode];
  const candidates = ASTRONAUTS.filter((a) => codes.includes(a[0]) && !taken.has(a[1]))
    .map((a) => ({ name: a[1], flights: node(`P:${a[1]}`).facts.flights.length, r: rng.next() }))
    .sort((a, b) => a.flights - b.flights || a.r - b.r);
  if (!candidates.length) throw new Error(`crew pool ${poolCode} exhausted`);
  return candidates[0].name;
}
for (const p of PROGRAMS) {
  let previous = null;
  for (let i = 0; i < p.count; i++) {
    const year = p.firstYear + Math.floor(i * p.step);
    const month = p.step < 1 ? (i % 2 ? 10 : 4) : rng.int(1, 12);
    const date = isoDate(year, month, rng.int(1, 28));
    const status = year > CURRENT_YEAR ? 'planned' : year === CURRENT_YEAR ? 'active' : 'completed';
    const name = `${p.name} ${i + 1}`;
    const [body, kind] = p.name === 'Lunar Vanguard' && i === 0 ? ['MOON', 'orbit'] : p.target;
    addMission({
      name,
      agencies: p.agencies,
      date,
      site: p.site,
      status,
      crewed: true,
      craft: p.craft,
      visits: [[body, kind, year]],
      objective: PROGRAM_OBJECTIVES[p.name](i),
      predecessor: previous,
      durationDays: rng.near(p.duration, 0.15, 2),
      program: p.name,
      fictional: true,
    });
    const taken = new Set();
    for (const [pool, role] of p.crew) {
      const person = pickCrewMember(pool, taken);
      taken.add(person);
      assignCrew(person, name, role);
    }
    previous = name;
  }
}
for (const [later, earlier] of successions) {
  const gapYears = node(`M:${later}`).facts.year - node(`M:${earlier}`).facts.year;
  link('SUCCEEDED', `M:${later}`, `M:${earlier}`, { gapYears });
  node(`M:${earlier}`).facts.successors.push(later);
}

// Employment, flight counts and spacewalk hours.
for (const n of nodes) {
  const f = n.facts;
  if (!n.labels.includes('Person') || f.kind === 'astronomer') continue;
  const firstFlight = Math.min(...f.flights.map((x) => x.year));
  const since = Math.min(CURRENT_YEAR, Number.isFinite(firstFlight) ? firstFlight - rng.int(2, 7) : f.birthYear + rng.int(27, 34));
  link('WORKS_FOR', `P:${f.name}`, `A:${f.agencyKey}`, { since });
  node(`A:${f.agencyKey}`).facts[f.kind === 'scientist' ? 'scientists' : 'astronauts'] += 1;
  if (f.kind !== 'astronaut') continue;
  n.properties.spaceflights = f.flights.filter((x) => x.year <= CURRENT_YEAR).length;
  const stationFlights = f.flights.filter((x) => x.year <= CURRENT_YEAR && node(`M:${x.mission}`).facts.durationDays > 100).length;
  if (!f.historic && stationFlights && rng.chance(0.6)) {
    f.evaHours = rng.round(stationFlights * (6 + rng.next() * 14), 1);
    n.properties.evaHours = f.evaHours;
  }
}

// Instruments: each design is mounted on one to four compatible robotic craft or stations,
// then every craft left without one gets a compatible design so no payload list is empty.
const hosts = nodes.filter((n) => n.labels.includes('Spacecraft') && (n.facts.crewCapacity === undefined || n.facts.type === 'station'));
const instruments = CODES.map((code, i) => {
  const [kind, types, [mLo, mHi], [wLo, wHi], measures, purpose] = KINDS[i % KINDS.length];
  const name = `${code} ${kind}`;
  addNode(`I:${name}`, ['Instrument'], { displayName: name, kind }, { name, code, kind, purpose, measures, carriers: [] });
  const compatible = hosts.filter((h) => types.includes(h.facts.type));
  return {
    name,
    types,
    compatible,
    mass: rng.round(mLo + rng.next() * (mHi - mLo), 2),
    power: rng.round(wLo + rng.next() * (wHi - wLo), 1),
    measures,
    hosts: rng.sample(compatible, rng.int(1, 4)),
  };
});
for (const h of hosts) {
  if (instruments.some((ins) => ins.hosts.includes(h))) continue;
  const options = instruments.filter((ins) => ins.types.includes(h.facts.type));
  rng.sample(options, rng.int(1, 2)).forEach((ins) => ins.hosts.push(h));
}
// Designers: first every scientist gets one design (from an agency that flew it when possible),
// then the rest go to the least-busy scientist of a flying agency.
const scientists = nodes.filter((p) => p.facts.kind === 'scientist');
const designs = new Map();
for (const ins of instruments) {
  ins.agencies = new Set(ins.hosts.flatMap((h) => h.facts.missions.flatMap((m) => node(`M:${m.name}`).facts.agencies)));
  ins.firstFlown = Math.min(...ins.hosts.map((h) => Number(h.facts.firstFlight.slice(0, 4))));
}
// A designer must have been of working age when the design was built.
const fits = (p, ins) => ins.firstFlown - 8 >= p.facts.birthYear + 27 && ins.firstFlown <= p.facts.birthYear + 70;
// Youngest first: they can only have designed the more recent instruments.
for (const p of scientists.slice().sort((a, b) => b.facts.birthYear - a.facts.birthYear)) {
  const free = instruments.filter((ins) => !ins.designer && fits(p, ins));
  const local = free.filter((ins) => ins.agencies.has(p.facts.agency));
  if (!free.length) continue;
  rng.pick(local.length ? local : free).designer = p;
  designs.set(p, 1);
}
for (const ins of instruments.filter((i) => !i.designer)) {
  const able = scientists.filter((p) => fits(p, ins));
  const local = able.filter((p) => ins.agencies.has(p.facts.agency));
  const pool = (local.length ? local : able.length ? able : scientists)
    .map((p) => ({ p, d: designs.get(p) ?? 0, r: rng.next() }))
    .sort((a, b) => a.d - b.d || a.r - b.r);
  ins.designer = pool[0].p;
  designs.set(ins.designer, (designs.get(ins.designer) ?? 0) + 1);
}
for (const ins of instruments) {
  const n = node(`I:${ins.name}`);
  const f = n.facts;
  ins.hosts.sort((a, b) => a.properties.dbId - b.properties.dbId);
  const years = [];
  let operational = false;
  for (const h of ins.hosts) {
    const since = Number(h.facts.firstFlight.slice(0, 4));
    years.push(since);
    link('CARRIES', `C:${h.facts.name}`, `I:${ins.name}`, { units: rng.chance(0.15) ? 2 : 1, since });
    h.facts.instruments.push(ins.name);
    const missions = h.facts.missions.map((m) => m.name);
    f.carriers.push({ craft: h.facts.name, missions });
    operational ||= h.facts.type === 'station' || missions.some((m) => ['active', 'en route'].includes(node(`M:${m}`).facts.status));
  }
  const firstFlown = ins.firstFlown;
  const designer = ins.designer;
  link('DESIGNED', `P:${designer.facts.name}`, `I:${ins.name}`, { year: firstFlown - rng.int(3, 8) });
  link('DEVELOPED_BY', `I:${ins.name}`, `A:${designer.facts.agencyKey}`);
  designer.facts.instruments.push({ name: ins.name, carriers: ins.hosts.map((h) => h.facts.name) });
  Object.assign(n.properties, { massKg: ins.mass, powerW: ins.power, measures: ins.measures, operational, firstFlown });
  Object.assign(f, {
    massKg: ins.mass,
    powerW: ins.power,
    operational,
    firstFlown,
    designer: designer.facts.name,
    agency: designer.facts.agency,
  });
}

// ---- prose, checks, output ----------------------------------------------------------------

const TEXT = {
  Agency: agencyText,
  LaunchSite: siteText,
  CelestialBody: bodyText,
  Person: personText,
  Spacecraft: spacecraftText,
  Mission: missionText,
  Instrument: instrumentText,
};
for (const n of nodes) {
  n.properties.text = assemble(TEXT[n.labels[0]](n.facts, rng));
  delete n.facts;
}

const problems = [];
const texts = new Set();
const names = new Set();
for (const { properties: p } of nodes) {
  if (p.text.length < 200 || p.text.length > 1500) problems.push(`${p.displayName}: text length ${p.text.length}`);
  if (texts.has(p.text)) problems.push(`${p.displayName}: duplicate text`);
  if (names.has(p.displayName)) problems.push(`${p.displayName}: duplicate displayName`);
  texts.add(p.text);
  names.add(p.displayName);
}
if (nodes.length < 250 || nodes.length > 400) problems.push(`node count ${nodes.length}`);
if (relationships.length < 600 || relationships.length > 1200) problems.push(`relationship count ${relationships.length}`);
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}

const NOTE =
  'Partly fictionalised sample data for demos and tests. Celestial bodies, astronomers, robotic missions and the five ' +
  'historical crewed flights are approximately historical (figures rounded); the Meridian, Zarya-K, Qilin, Vyom and Lunar Vanguard ' +
  'programmes, their astronauts, all instruments and instrument scientists, and every node with fictional: true are invented. ' +
  'Do not use as a reference source.';
// One node or relationship per line: compact, yet diffs stay readable when the generator changes.
const json = [
  '{',
  `"name": ${JSON.stringify('space-exploration')},`,
  `"note": ${JSON.stringify(NOTE)},`,
  `"seed": ${SEED},`,
  '"nodes": [',
  nodes.map((n) => JSON.stringify(n)).join(',\n'),
  '],',
  '"relationships": [',
  relationships.map((r) => JSON.stringify(r)).join(',\n'),
  ']',
  '}',
  '',
].join('\n');
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, json);

const count = (xs, key) => Object.entries(xs.reduce((acc, x) => ((acc[key(x)] = (acc[key(x)] ?? 0) + 1), acc), {}));
console.log(`wrote ${OUT}: ${nodes.length} nodes, ${relationships.length} relationships, ${(json.length / 1024).toFixed(0)} KiB`);
console.log(
  'labels:',
  count(nodes, (n) => n.labels.join(':'))
    .map(([k, v]) => `${k}=${v}`)
    .join(' '),
);
console.log(
  'types:',
  count(relationships, (r) => r.type)
    .map(([k, v]) => `${k}=${v}`)
    .join(' '),
);
