// Prose for Agency, LaunchSite and CelestialBody nodes.
import { CURRENT_YEAR, article, body, country, list, num, sci, times, words } from './text-util.mjs';

/** Up to n missions, chosen at random but listed chronologically. */
const some = (rng, ms, n) =>
  rng
    .sample(ms, n)
    .sort((a, b) => a.year - b.year)
    .map((m) => `${m.name} (${m.year})`);

/** @returns {string[]} */
export function agencyText(f, rng) {
  const kindWord = {
    government: 'national space agency',
    intergovernmental: 'intergovernmental space organisation',
    commercial: 'private spaceflight company',
    academic: 'academic society',
  }[f.kind];
  const s = [];
  s.push(
    rng.pick([
      `${f.name} is ${article(kindWord)} based in ${f.hq}, ${f.country === 'Europe' ? 'serving its European member states' : country(f.country)}.`,
      `Founded in ${f.founded}, ${f.name} is ${article(kindWord)} headquartered in ${f.hq}.`,
    ]),
  );
  if (!s[0].includes(String(f.founded))) s.push(`It was established in ${f.founded}.`);
  s.push(`${f.fact}.`);
  if (f.members.length) s.push(`Its members include ${list(f.members)}.`);
  const money = f.budget >= 1 ? `${num(f.budget)} billion` : `${Math.round(f.budget * 1000)} million`;
  if (f.budget > 0) s.push(rng.pick([`Its annual budget is roughly ${money} US dollars.`, `It spends about ${money} US dollars a year.`]));
  else s.push('As a private company it does not publish a comparable public budget.');
  if (f.missions.length) {
    s.push(
      f.missions.length === 1
        ? `In this sample it is linked to a single mission, ${some(rng, f.missions, 1)[0]}.`
        : rng.pick([
            `In this sample it leads or contributes to ${words(f.missions.length)} missions, including ${list(some(rng, f.missions, 4))}.`,
            `Missions associated with it here include ${list(some(rng, f.missions, 4))}.`,
          ]),
    );
  }
  if (f.sites.length) s.push(`It operates ${list(f.sites)}.`);
  if (f.spacecraft.length) s.push(`Spacecraft it operates include ${list(f.spacecraft.slice(0, 5))}.`);
  if (f.partners.length) {
    const p = f.partners.slice(0, 4).map((x) => `${x.name} (${x.scope}, since ${x.since})`);
    s.push(`It has cooperation agreements with ${list(p)}.`);
  }
  if (f.astronauts) s.push(`Its astronaut corps in this sample numbers ${words(f.astronauts)}.`);
  if (f.scientists)
    s.push(
      `${f.scientists === 1 ? 'One of its scientists has' : `${cap1(words(f.scientists))} of its scientists have`} led instrument development.`,
    );
  if (f.fictional) s.push('The organisation is fictional.');
  return s;
}

/** @returns {string[]} */
export function siteText(f, rng) {
  const ns = f.lat >= 0 ? 'N' : 'S';
  const ew = f.lon >= 0 ? 'E' : 'W';
  const s = [];
  s.push(
    rng.pick([
      `${f.name} is a launch site in ${country(f.country)}, operated by ${f.operator}.`,
      `Located in ${country(f.country)}, ${f.name} is a spaceport run by ${f.operator}.`,
    ]),
  );
  s.push(
    `It lies at ${Math.abs(f.lat).toFixed(2)}° ${ns}, ${Math.abs(f.lon).toFixed(2)}° ${ew} and has been in use since ${f.established}.`,
  );
  s.push(`${f.fact}.`);
  s.push(f.active ? 'The site remains active.' : 'It is no longer used for orbital launches.');
  if (f.missions.length) {
    s.push(
      f.missions.length === 1
        ? `In this sample, ${f.missions[0].name} lifted off from here in ${f.missions[0].year}.`
        : `${cap1(words(f.missions.length))} missions in this sample lifted off from here, among them ${list(some(rng, f.missions, 5))}.`,
    );
  }
  s.push(
    rng.pick([
      "Launch sites near the equator give eastward launches an extra boost from Earth's rotation.",
      'Downrange safety zones over water or empty land determine which orbits can be reached.',
      'Range safety, weather and the location of drop zones shape the launch schedule.',
    ]),
  );
  return s;
}
const cap1 = (w) => w.charAt(0).toUpperCase() + w.slice(1);

const KIND_NOTE = {
  star: 'All other bodies in the Solar System orbit it.',
  planet: 'It is one of the eight planets of the Solar System.',
  'dwarf planet': 'It is massive enough to be round but has not cleared its orbital neighbourhood.',
  moon: 'Like many moons, it is thought to be tidally locked, keeping one face toward its planet.',
  asteroid: 'Asteroids preserve material left over from the formation of the planets.',
  comet: 'Near the Sun its ices evaporate, forming a coma and tails.',
  'Kuiper belt object': 'It belongs to the Kuiper belt beyond Neptune.',
};

/** @returns {string[]} */
export function bodyText(f, rng) {
  const s = [];
  s.push(
    f.parent
      ? rng.pick([
          `${cap1(body(f.name))} is ${article(f.kind)} orbiting ${body(f.parent)}.`,
          `${cap1(body(f.name))} is ${article(f.kind)} in orbit around ${body(f.parent)}.`,
        ])
      : `The ${f.name} is the ${f.kind} at the centre of the Solar System.`,
  );
  s.push(`It has a mean radius of about ${num(f.radiusKm, 2)} km and a mass of roughly ${sci(f.massKg)} kg.`);
  if (f.period) s.push(`One orbit takes ${num(f.period, 2)} days, at an average distance of ${sci(f.sma)} km.`);
  s.push(`${f.fact}.`);
  if (f.kind !== 'star')
    s.push(
      f.atmosphere
        ? rng.pick(['It is surrounded by an atmosphere.', 'It has a permanent atmosphere, at least a tenuous one.'])
        : 'It has no substantial atmosphere.',
    );
  if (f.discoverers.length)
    s.push(
      rng.pick([
        `It was discovered in ${f.discoveredYear} by ${list(f.discoverers)}.`,
        `${list(f.discoverers)} ${f.discoverers.length > 1 ? 'are' : 'is'} credited with its discovery in ${f.discoveredYear}.`,
      ]),
    );
  else if (f.discoveredYear) s.push(`It was first catalogued in ${f.discoveredYear} by a survey team.`);
  if (f.moons.length) s.push(`Moons in this sample that orbit it include ${list(f.moons)}.`);
  if (f.visits.length) {
    const word = { flyby: 'flew past', orbit: 'orbited', landing: 'landed on' };
    const past = f.visits.filter((v) => v.year <= CURRENT_YEAR).sort((a, b) => a.year - b.year);
    const future = f.visits.filter((v) => v.year > CURRENT_YEAR);
    if (past.length)
      s.push(
        `Spacecraft have visited it ${times(past.length)} in this sample; the first was ${past[0].mission}, which ${word[past[0].kind]} it in ${past[0].year}.`,
      );
    if (past.length > 1) s.push(`Later visitors include ${list(past.slice(1, 6).map((v) => `${v.mission} (${v.kind}, ${v.year})`))}.`);
    if (future.length) s.push(`${list(future.map((v) => v.mission))} ${future.length > 1 ? 'are' : 'is'} expected to arrive later.`);
  }
  s.push(KIND_NOTE[f.kind] ?? '');
  return s;
}
