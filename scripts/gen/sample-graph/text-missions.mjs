// Prose for Mission and Spacecraft nodes: sentence slots, each with a few variants
// picked by the seeded PRNG, filled with the entity's facts.
import { CURRENT_YEAR, article, body, cap, country, craftRef, craftSubject, fmtDate, list, num, words } from './text-util.mjs';

const ongoing = (status) => status === 'active' || status === 'en route' || status === 'planned';

/** Verb for one visit, in the tense its year calls for. */
function visitVerb(v) {
  const future = v.year > CURRENT_YEAR;
  if (v.impact) return future ? 'is to strike' : 'deliberately struck';
  if (v.body === 'Earth' && v.kind === 'orbit') return future ? 'is to reach' : 'reached';
  if (v.kind === 'flyby') return future ? 'is due to fly past' : 'flew past';
  if (v.kind === 'orbit') return future ? 'is expected to enter orbit around' : 'entered orbit around';
  return future ? 'is planned to land on' : 'touched down on';
}

/** Visits in date order; consecutive visits with the same verb share it ("flew past X in 1979, Y and Z in 1980"). */
function visitPhrases(visits) {
  const groups = [];
  for (const v of visits.slice().sort((a, b) => a.year - b.year)) {
    const verb = visitVerb(v);
    const target = v.body === 'Earth' && v.kind === 'orbit' ? 'Earth orbit' : body(v.body);
    const last = groups[groups.length - 1];
    if (last?.verb === verb) last.items.push({ target, year: v.year });
    else groups.push({ verb, items: [{ target, year: v.year }] });
  }
  return groups.map(({ verb, items }) => {
    const years = [...new Set(items.map((i) => i.year))];
    return `${verb} ${years.map((y) => `${list(items.filter((i) => i.year === y).map((i) => i.target))} in ${y}`).join(', ')}`;
  });
}

function duration(days) {
  if (days >= 1) return `${num(days, 2)} days`;
  const minutes = days * 1440;
  return minutes < 120 ? `${Math.round(minutes)} minutes` : `${Math.round(minutes / 60)} hours`;
}

const missionRef = (m) => (/mission$/i.test(m) ? `the ${m}` : `the ${m} mission`);

const CREW_HOME = ['The crew returned safely to Earth.', 'The flight ended with a safe return of the crew.'];

const STATUS = {
  completed: [
    'The mission has since ended.',
    'All mission operations have been concluded.',
    'Its operational phase is over, though its data are still being analysed.',
  ],
  active: ['The spacecraft is still operating and returning data.', 'Operations continue, with the team regularly extending the mission.'],
  'en route': [
    'The spacecraft is currently cruising toward its target.',
    'It is still on its way, with the main science phase yet to begin.',
  ],
  failed: ['The mission is counted as a failure.', 'Investigators later traced the loss to a combination of software and hardware faults.'],
  planned: ['The flight is still in planning.', 'Hardware for the flight is being prepared.'],
};

/** @returns {string[]} */
export function missionText(f, rng) {
  const be = ongoing(f.status) ? 'is' : 'was';
  const kind = f.crewed ? 'crewed' : 'robotic';
  const agencies = f.agencies.length === 1 ? f.agencies[0] : `${f.agencies[0]} together with ${list(f.agencies.slice(1))}`;
  const launch = f.status === 'planned' ? `is scheduled to launch on ${fmtDate(f.date)}` : `launched on ${fmtDate(f.date)}`;
  const s = [];
  s.push(
    rng.pick([
      `${f.name} ${be} ${article(kind)} space mission of ${agencies}, which ${launch}.`,
      `${cap(article(kind))} mission led by ${agencies}, ${f.name} ${launch}.`,
      `${f.name} ${be} ${article(kind)} flight operated by ${agencies}; it ${launch}.`,
    ]),
  );
  s.push(
    rng.pick([
      `Its principal objective ${be} to ${f.objective}.`,
      `The mission ${f.status === 'planned' ? 'is' : 'was'} designed to ${f.objective}.`,
      `Planners ${f.status === 'planned' ? 'have given' : 'gave'} it the task to ${f.objective}.`,
    ]),
  );
  const planned = f.status === 'planned';
  s.push(
    planned
      ? rng.pick([`It will depart from ${f.site}.`, `${f.site} is the planned launch site.`])
      : rng.pick([
          `The launch took place from ${f.site} in ${country(f.siteCountry)}.`,
          `It departed from ${f.site}.`,
          `${f.site} served as the launch site.`,
        ]),
  );
  if (planned) {
    s.push(`The flight will use ${list(f.craft.map(craftRef))}.`);
  } else if (f.craft.length === 1) {
    const c = f.craft[0];
    s.push(
      c.name === `${f.name} spacecraft`
        ? `The ${c.name} itself is ${article(c.type)} with a launch mass of about ${num(c.massKg)} kg.`
        : rng.pick([`The flight used ${craftRef(c)}.`, `It relied on ${c.name}, ${article(c.type)} of roughly ${num(c.massKg)} kg.`]),
    );
  } else if (f.craft.length > 1) {
    s.push(
      rng.pick([
        `The mission comprised ${list(f.craft.map(craftRef))}.`,
        `Hardware for the flight included ${list(f.craft.map(craftRef))}.`,
      ]),
    );
  }
  if (f.visits.length) {
    const phrases = visitPhrases(f.visits);
    s.push(
      phrases.length === 1
        ? `The ${f.crewed ? 'crew' : 'spacecraft'} ${phrases[0]}.`
        : rng.pick([`Along the way it ${list(phrases)}.`, `Over its ${f.crewed ? 'flight' : 'journey'} the mission ${list(phrases)}.`]),
    );
  }
  if (f.crew.length) {
    const cmd = f.crew[0];
    const rest = f.crew.slice(1).map((c) => `${c.name} (${c.role})`);
    s.push(
      rest.length === 0
        ? `${cmd.name} flew alone as ${cmd.role.toLowerCase()}.`
        : planned
          ? `The assigned crew is ${list(f.crew.map((c) => `${c.name} (${c.role})`))}.`
          : rng.pick([
              `The crew of ${words(f.crew.length)} was commanded by ${cmd.name}, with ${list(rest)}.`,
              `${cmd.name} served as ${cmd.role.toLowerCase()}, joined by ${list(rest)}.`,
              `Aboard were ${list(f.crew.map((c) => `${c.name} (${c.role})`))}.`,
            ]),
    );
  }
  if (f.durationDays) s.push(`The flight ${f.status === 'planned' ? 'is planned to last' : 'lasted'} about ${duration(f.durationDays)}.`);
  if (f.predecessor) {
    s.push(
      rng.pick([
        `It built on experience gained with ${f.predecessor}.`,
        `It followed ${f.predecessor}${f.program ? ` in the ${f.program} programme` : ''}.`,
        `${f.predecessor} is regarded as its direct predecessor.`,
      ]),
    );
  }
  if (f.successors.length) s.push(`It ${planned ? 'is to be' : 'was in turn'} followed by ${list(f.successors)}.`);
  s.push(f.crewed && f.status === 'completed' ? rng.pick(CREW_HOME) : rng.pick(STATUS[f.status] ?? STATUS.completed));
  if (f.fictional) s.push('This mission is fictional and is included in the sample for illustration.');
  return s;
}

const TYPE_NOTE = {
  orbiter: [
    'From orbit it can revisit the same regions repeatedly under different lighting.',
    'Orbiters like this one also relay data for surface craft.',
  ],
  probe: [
    'Probes of this kind rely on gravity assists to reach distant targets with limited propellant.',
    'Its high-gain antenna had to stay pointed at Earth for every data downlink.',
  ],
  lander: [
    'Landers like this one must survive entry, descent and touchdown without help from Earth.',
    'Its legs and thermal protection were designed for a single descent.',
  ],
  rover: [
    'Rovers like this one drive slowly, often only tens of metres a day, so that each move can be planned on Earth.',
    'Its wheels and suspension were designed to climb over rocks as high as the wheels themselves.',
  ],
  helicopter: ['It demonstrated that powered, controlled flight is possible in a very thin atmosphere.'],
  capsule: [
    'Crews ride it to orbit and back, protected by a heat shield during re-entry.',
    'It is the crew vehicle for launch, docking and return.',
  ],
  station: [
    'Crews rotate through the station while experiments run continuously.',
    'Modules were launched separately and assembled in orbit.',
  ],
};

/** @returns {string[]} */
export function spacecraftText(f, rng) {
  const s = [];
  const subject = craftSubject(f.name);
  s.push(
    rng.pick([
      `${subject} is ${article(f.type)} operated by ${f.operator}.`,
      subject === f.name && !f.name.includes(f.type)
        ? `The ${f.type} ${f.name} was built for ${f.operator}.`
        : `${subject} was built as ${article(f.type)} for ${f.operator}.`,
      `${subject} is ${article(f.type)} belonging to ${f.operator}.`,
    ]),
  );
  s.push(
    f.powerW
      ? `It has a mass of about ${num(f.massKg)} kg, and its power system supplies up to ${num(f.powerW, 0)} W.`
      : `It has a mass of about ${num(f.massKg)} kg.`,
  );
  if (f.firstFlight) s.push(`Its first flight took place on ${fmtDate(f.firstFlight)}.`);
  if (f.crewCapacity) s.push(`It can carry up to ${words(f.crewCapacity)} ${f.crewCapacity === 1 ? 'person' : 'people'}.`);
  if (f.propellants.length) s.push(`Its engines burn ${list(f.propellants)}.`);
  if (f.type === 'capsule' || f.type === 'lander')
    s.push(f.reusable ? 'It was designed to be reused across several flights.' : 'Each vehicle flies only once.');
  if (f.missions.length === 1)
    s.push(
      rng.pick([
        `It flew on ${missionRef(f.missions[0].name)}, launched in ${f.missions[0].year}.`,
        `It was part of ${f.missions[0].name} (${f.missions[0].year}).`,
      ]),
    );
  else if (f.missions.length > 1) {
    const shown = f.missions.slice(0, 6).map((m) => `${m.name} (${m.year})`);
    s.push(`It has been used on ${words(f.missions.length)} missions in this sample, including ${list(shown)}.`);
  }
  if (f.instruments.length) {
    s.push(
      rng.pick([`Its payload includes the ${list(f.instruments)}.`, `Scientific instruments on board include the ${list(f.instruments)}.`]),
    );
  }
  s.push(rng.pick(TYPE_NOTE[f.type] ?? TYPE_NOTE.probe));
  if (f.fictional) s.push('The vehicle is fictional.');
  return s;
}
