// Crewed flights. The five historical missions use their real crews; the programmes
// (Meridian, Zarya-K, Qilin, Vyom, Lunar Vanguard) and their astronauts are fictional.

/** [name, agencies, launchDate, site, craft names, [[person, role]], [body, kind], durationDays, predecessor] */
export const HISTORIC_CREWED = [
  ['Vostok 1', ['OKB1'], '1961-04-12', 'BAIKONUR', ['Vostok 3KA'], [['Yuri Gagarin', 'Pilot']], ['EARTH', 'orbit'], 0.075, null],
  [
    'Apollo 8',
    ['NASA'],
    '1968-12-21',
    'KSC',
    ['Apollo Command and Service Module'],
    [
      ['Frank Borman', 'Commander'],
      ['James Lovell', 'Command Module Pilot'],
      ['William Anders', 'Lunar Module Pilot'],
    ],
    ['MOON', 'orbit'],
    6.13,
    null,
  ],
  [
    'Apollo 11',
    ['NASA'],
    '1969-07-16',
    'KSC',
    ['Apollo Command and Service Module', 'Apollo Lunar Module'],
    [
      ['Neil Armstrong', 'Commander'],
      ['Michael Collins', 'Command Module Pilot'],
      ['Buzz Aldrin', 'Lunar Module Pilot'],
    ],
    ['MOON', 'landing'],
    8.14,
    'Apollo 8',
  ],
  [
    'Apollo 17',
    ['NASA'],
    '1972-12-07',
    'KSC',
    ['Apollo Command and Service Module', 'Apollo Lunar Module'],
    [
      ['Eugene Cernan', 'Commander'],
      ['Ronald Evans', 'Command Module Pilot'],
      ['Harrison Schmitt', 'Lunar Module Pilot'],
    ],
    ['MOON', 'landing'],
    12.58,
    'Apollo 11',
  ],
  ['Shenzhou 5', ['CNSA'], '2003-10-15', 'JIUQUAN', ['Shenzhou'], [['Yang Liwei 杨利伟', 'Commander']], ['EARTH', 'orbit'], 0.89, null],
];

/** [name, nationality, birthYear, deathYear|null, agency, fact] for the historical crews. */
export const HISTORIC_PEOPLE = [
  ['Yuri Gagarin', 'Soviet', 1934, 1968, 'OKB1', 'A former foundry apprentice and fighter pilot, he became the first human in space'],
  ['Frank Borman', 'American', 1928, 2023, 'NASA', 'He later ran Eastern Air Lines'],
  ['James Lovell', 'American', 1928, 2025, 'NASA', 'He flew four times, including the aborted Apollo 13 flight'],
  ['William Anders', 'American', 1933, 2024, 'NASA', 'He took the Earthrise photograph from lunar orbit'],
  ['Neil Armstrong', 'American', 1930, 2012, 'NASA', 'A test pilot and engineer, he was the first person to walk on the Moon'],
  [
    'Michael Collins',
    'American',
    1930,
    2021,
    'NASA',
    'He orbited alone while his crewmates walked on the surface and later directed the National Air and Space Museum',
  ],
  ['Buzz Aldrin', 'American', 1930, null, 'NASA', 'He earned a doctorate on orbital rendezvous techniques before flying'],
  ['Eugene Cernan', 'American', 1934, 2017, 'NASA', 'He was, for decades, the last person to leave footprints on the Moon'],
  ['Ronald Evans', 'American', 1933, 1990, 'NASA', 'He performed a deep-space walk on the way home from the Moon'],
  ['Harrison Schmitt', 'American', 1935, null, 'NASA', 'A geologist, he was the only professional scientist to walk on the Moon'],
  ['Yang Liwei 杨利伟', 'Chinese', 1965, null, 'CNSA', 'A former air force pilot, he was the first person launched by China'],
];

/** Crew vehicles and stations: [name, type, massKg, powerW, operator, reusable, firstFlight, propellants, crewCapacity, fictional?] */
export const CREW_CRAFT = [
  ['Vostok 3KA', 'capsule', 4725, 0, 'OKB1', false, '1960-05-15', ['nitric acid', 'amine'], 1],
  ['Apollo Command and Service Module', 'capsule', 28800, 2300, 'NASA', false, '1966-02-26', ['Aerozine 50', 'nitrogen tetroxide'], 3],
  ['Apollo Lunar Module', 'lander', 15200, 1800, 'NASA', false, '1968-01-22', ['Aerozine 50', 'nitrogen tetroxide'], 2],
  ['Shenzhou', 'capsule', 7840, 1500, 'CNSA', false, '1999-11-20', ['monomethylhydrazine', 'nitrogen tetroxide'], 3],
  ['International Space Station', 'station', 419725, 120000, 'NASA', false, '1998-11-20', ['UDMH', 'nitrogen tetroxide'], 7],
  ['Tiangong 天宫', 'station', 100000, 27000, 'CNSA', false, '2021-04-29', ['monomethylhydrazine', 'nitrogen tetroxide', 'xenon'], 3],
  ['Meridian Crew Vehicle', 'capsule', 12500.5, 4200, 'NASA', true, '2008-09-12', ['liquid methane', 'liquid oxygen'], 4, true],
  ['Zarya-K', 'capsule', 7150.8, 1300, 'ROSCOSMOS', false, '2005-11-03', ['UDMH', 'nitrogen tetroxide'], 3, true],
  ['Qilin capsule 麒麟', 'capsule', 8100.2, 1700, 'CNSA', false, '2020-06-18', ['monomethylhydrazine', 'nitrogen tetroxide'], 3, true],
  ['Vyom orbital capsule', 'capsule', 5300.4, 1100, 'ISRO', false, '2023-12-05', ['monomethylhydrazine', 'MON-3'], 3, true],
  ['Vanguard Lunar Lander', 'lander', 16800.9, 6000, 'NASA', true, '2027-08-30', ['liquid methane', 'liquid oxygen'], 4, true],
];

/** Fictional programmes: each flight gets a crew drawn from the listed pools. */
export const PROGRAMS = [
  {
    name: 'Meridian',
    agencies: ['NASA'],
    site: 'KSC',
    craft: ['Meridian Crew Vehicle', 'International Space Station'],
    firstYear: 2009,
    count: 6,
    step: 2,
    target: ['EARTH', 'orbit'],
    duration: 182,
    crew: [
      ['US', 'Commander'],
      ['US', 'Pilot'],
      ['US', 'Mission Specialist'],
      ['INTL', 'Mission Specialist'],
    ],
  },
  {
    name: 'Zarya-K',
    agencies: ['ROSCOSMOS'],
    site: 'BAIKONUR',
    craft: ['Zarya-K', 'International Space Station'],
    firstYear: 2006,
    count: 6,
    step: 3,
    target: ['EARTH', 'orbit'],
    duration: 170,
    crew: [
      ['RU', 'Commander'],
      ['RU', 'Flight Engineer'],
      ['USESA', 'Flight Engineer'],
    ],
  },
  {
    name: 'Qilin',
    agencies: ['CNSA'],
    site: 'JIUQUAN',
    craft: ['Qilin capsule 麒麟', 'Tiangong 天宫'],
    firstYear: 2021,
    count: 6,
    step: 0.5,
    target: ['EARTH', 'orbit'],
    duration: 183,
    crew: [
      ['CN', 'Commander'],
      ['CN', 'Operator'],
      ['CN', 'Payload Specialist'],
    ],
  },
  {
    name: 'Vyom',
    agencies: ['ISRO'],
    site: 'SRIHARIKOTA',
    craft: ['Vyom orbital capsule'],
    firstYear: 2024,
    count: 3,
    step: 1,
    target: ['EARTH', 'orbit'],
    duration: 3,
    crew: [
      ['IN', 'Commander'],
      ['IN', 'Pilot'],
      ['IN', 'Mission Specialist'],
    ],
  },
  {
    name: 'Lunar Vanguard',
    agencies: ['NASA', 'ESA', 'JAXA', 'CSA'],
    site: 'KSC',
    craft: ['Meridian Crew Vehicle', 'Vanguard Lunar Lander'],
    firstYear: 2028,
    count: 4,
    step: 1,
    target: ['MOON', 'landing'],
    duration: 24,
    crew: [
      ['US', 'Commander'],
      ['US', 'Pilot'],
      ['ESA', 'Mission Specialist'],
      ['JPCA', 'Mission Specialist'],
    ],
  },
];
