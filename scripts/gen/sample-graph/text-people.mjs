// Prose for Person and Instrument nodes.
import { CURRENT_YEAR, article, list, num, words } from './text-util.mjs';

const craftName = (name) => (name.endsWith(' spacecraft') ? `the ${name}` : name);

function lifespan(f) {
  return f.deathYear ? `(${f.birthYear}–${f.deathYear})` : `(born ${f.birthYear})`;
}

/** @returns {string[]} */
export function personText(f, rng) {
  const s = [];
  if (f.kind === 'astronomer') {
    s.push(
      rng.pick([
        `${f.name} ${lifespan(f)} was ${article(f.nationality)} astronomer.`,
        `The ${f.nationality} astronomer ${f.name} ${lifespan(f)} is remembered for several discoveries.`,
      ]),
    );
    s.push(`${f.fact}.`);
    const d = f.discoveries.slice().sort((a, b) => a.year - b.year);
    s.push(
      d.length === 1
        ? `In ${d[0].year} ${f.name.split(' ').pop()} discovered ${d[0].body}.`
        : `Discoveries credited to ${f.name.split(' ').pop()} include ${list(d.map((x) => `${x.body} (${x.year})`))}.`,
    );
    if (f.shared.length)
      s.push(`The credit for ${list(f.shared.map((x) => x.body))} is shared with ${list([...new Set(f.shared.flatMap((x) => x.with))])}.`);
    s.push(
      rng.pick([
        'Telescopes of the time had small apertures, so such finds required patient, systematic observing.',
        'The discovery was confirmed by other observers within months.',
        'Later spacecraft visits built directly on these telescopic observations.',
      ]),
    );
    return s;
  }
  if (f.kind === 'scientist') {
    s.push(
      rng.pick([
        `${f.name} ${lifespan(f)} ${f.deathYear ? 'was' : 'is'} ${article(f.nationality)} specialist in ${f.field} working with ${f.agency}.`,
        `${f.name}, born in ${f.birthYear}, ${f.deathYear ? 'was' : 'is'} ${article(f.nationality)} researcher in ${f.field} at ${f.agency}.`,
      ]),
    );
    if (f.instruments.length) {
      s.push(`${f.pronoun} led the design of ${list(f.instruments.map((i) => `the ${i.name}`))}.`);
      const craft = [...new Set(f.instruments.flatMap((i) => i.carriers))];
      if (craft.length)
        s.push(
          `${f.instruments.length === 1 ? 'The design has' : 'These instruments have'} flown on ${list(craft.slice(0, 6).map(craftName))}.`,
        );
    }
    s.push(
      rng.pick([
        `Colleagues describe ${f.object} as meticulous about calibration, insisting on months of testing before launch.`,
        `${f.pronoun} ${f.deathYear ? 'also supervised' : 'has also supervised'} many doctoral students and chaired international science working groups.`,
        `Before joining ${f.agency}, ${f.pronounLower} spent several years at a university laboratory building prototype detectors.`,
      ]),
    );
    s.push('The person is fictional.');
    return s;
  }
  s.push(
    rng.pick([
      `${f.name} ${lifespan(f)} ${f.deathYear ? 'was' : 'is'} ${article(f.nationality)} astronaut of ${f.agency}.`,
      `${f.name}, born in ${f.birthYear}, ${f.deathYear ? 'was' : 'is'} ${article(f.nationality)} astronaut who flew with ${f.agency}.`,
    ]),
  );
  if (f.fact) s.push(`${f.fact}.`);
  if (f.career)
    s.push(
      rng.pick([
        `Before selection ${f.pronounLower} worked as ${f.career}.`,
        `${f.pronoun} joined the astronaut corps after a career as ${f.career}.`,
      ]),
    );
  const flown = f.flights.filter((x) => x.year <= CURRENT_YEAR);
  const planned = f.flights.filter((x) => x.year > CURRENT_YEAR);
  if (flown.length === 1) s.push(`${f.pronoun} flew on ${flown[0].mission} in ${flown[0].year} as ${flown[0].role.toLowerCase()}.`);
  else if (flown.length > 1)
    s.push(
      `${f.pronoun} ${f.deathYear ? 'flew' : 'has flown'} ${words(flown.length)} times: ${list(flown.map((x) => `${x.mission} (${x.year}, ${x.role.toLowerCase()})`))}.`,
    );
  if (f.historic) for (const x of flown) s.push(`On ${x.mission} ${f.pronounLower} flew aboard the ${list(x.craft)}.`);
  if (planned.length) s.push(`${f.pronoun} is assigned to ${list(planned.map((x) => `${x.mission} as ${x.role.toLowerCase()}`))}.`);
  if (!f.flights.length)
    s.push(`${f.pronoun} has not yet been assigned to a flight and supports missions from the ground as a capsule communicator.`);
  if (f.evaHours) s.push(`${f.pronoun} has logged about ${num(f.evaHours)} hours of spacewalks.`);
  if (f.hobby) s.push(`Outside work ${f.pronounLower} is known for ${f.hobby}.`);
  if (!f.historic) s.push('The person is fictional.');
  return s;
}

/** @returns {string[]} */
export function instrumentText(f, rng) {
  const s = [];
  s.push(rng.pick([`The ${f.name} ${f.purpose}.`, `${f.code} is ${article(f.kind)}; it ${f.purpose}.`]));
  s.push(`It was developed by ${f.agency} under the lead of ${f.designer}.`);
  s.push(`The unit weighs about ${num(f.massKg, 2)} kg and draws roughly ${num(f.powerW)} W.`);
  s.push(`Its measurement channels cover ${list(f.measures)}.`);
  const c0 = f.carriers[0];
  if (f.carriers.length === 1)
    s.push(`A single unit was built, for ${craftName(c0.craft)}${c0.missions.length === 1 ? ` on the ${c0.missions[0]} mission` : ''}.`);
  else
    s.push(`Units of the design have flown on ${words(f.carriers.length)} spacecraft: ${list(f.carriers.map((c) => craftName(c.craft)))}.`);
  if (f.firstFlown) s.push(`It first flew in ${f.firstFlown}.`);
  s.push(f.operational ? 'At least one unit is still operating.' : 'No unit is currently operating.');
  s.push(
    rng.pick([
      'Engineers reused the design because flight heritage lowers risk and cost.',
      'Each copy was recalibrated for the thermal and radiation environment of its mission.',
      'Ground-test models are kept on Earth to reproduce anomalies seen in flight.',
    ]),
  );
  s.push('The instrument is fictional.');
  return s;
}
