// Fictional astronauts and instrument scientists. Names are invented; a few carry
// accents, apostrophes or CJK characters on purpose.

/** [pool, displayName, nationality, agency, birthYear] */
export const ASTRONAUTS = [
  ['US', 'Sarah Whitfield', 'American', 'NASA', 1972], ['US', 'Michael Okafor', 'American', 'NASA', 1975],
  ['US', 'Elena Ramirez', 'American', 'NASA', 1979], ['US', 'David Chen', 'American', 'NASA', 1970],
  ['US', 'Priya Raman', 'American', 'NASA', 1983], ['US', "Marcus O'Brien", 'American', 'NASA', 1977],
  ['US', 'Jennifer Kowalski', 'American', 'NASA', 1981], ['US', 'Thomas Delgado', 'American', 'NASA', 1974],
  ['US', 'Aisha Hartley', 'American', 'NASA', 1986], ['US', 'Robert Sullivan', 'American', 'NASA', 1969],
  ['US', 'Laura Abernathy', 'American', 'NASA', 1984], ['US', 'Kevin Reyes', 'American', 'NASA', 1980],
  ['RU', 'Alexei Volkov', 'Russian', 'ROSCOSMOS', 1968], ['RU', 'Dmitri Petrov', 'Russian', 'ROSCOSMOS', 1971],
  ['RU', 'Sergei Sokolov', 'Russian', 'ROSCOSMOS', 1973], ['RU', 'Yelena Kuznetsova', 'Russian', 'ROSCOSMOS', 1978],
  ['RU', 'Pavel Morozov', 'Russian', 'ROSCOSMOS', 1976], ['RU', 'Oleg Lebedev', 'Russian', 'ROSCOSMOS', 1970],
  ['RU', 'Anna Orlova', 'Russian', 'ROSCOSMOS', 1982], ['RU', 'Nikolai Zaitsev', 'Russian', 'ROSCOSMOS', 1974],
  ['RU', 'Irina Belova', 'Russian', 'ROSCOSMOS', 1980],
  ['CN', 'Wang Lei 王磊', 'Chinese', 'CNSA', 1976], ['CN', 'Liu Yang', 'Chinese', 'CNSA', 1978],
  ['CN', 'Zhang Wei', 'Chinese', 'CNSA', 1974], ['CN', 'Chen Dong', 'Chinese', 'CNSA', 1979],
  ['CN', 'Li Na', 'Chinese', 'CNSA', 1985], ['CN', 'Zhao Ming', 'Chinese', 'CNSA', 1981],
  ['CN', 'Huang Jing', 'Chinese', 'CNSA', 1983], ['CN', 'Xu Tao', 'Chinese', 'CNSA', 1977],
  ['CN', 'Sun Yue', 'Chinese', 'CNSA', 1988],
  ['IN', 'Arjun Menon', 'Indian', 'ISRO', 1982], ['IN', 'Kavya Iyer', 'Indian', 'ISRO', 1987],
  ['IN', 'Rohan Deshpande', 'Indian', 'ISRO', 1980], ['IN', 'Meera Krishnan', 'Indian', 'ISRO', 1985],
  ['IN', 'Vikram Sethi', 'Indian', 'ISRO', 1979],
  ['ESA', 'Chloé Marchand', 'French', 'ESA', 1978], ['ESA', 'Jürgen Albrecht', 'German', 'ESA', 1973],
  ['ESA', 'Giulia Ferraro', 'Italian', 'ESA', 1981], ['ESA', 'Oliver Pemberton', 'British', 'ESA', 1976],
  ['ESA', 'Søren Lindqvist', 'Danish', 'ESA', 1979], ['ESA', 'Inés Carvajal', 'Spanish', 'ESA', 1984],
  ['ESA', 'Pieter van der Berg', 'Dutch', 'ESA', 1975],
  ['JP', 'Haruto Saitō', 'Japanese', 'JAXA', 1977], ['JP', 'Yuki Tanabe', 'Japanese', 'JAXA', 1983],
  ['JP', 'Kenji Morimoto', 'Japanese', 'JAXA', 1972],
  ['CA', 'Zoë Tremblay', 'Canadian', 'CSA', 1982], ['CA', 'Liam Gagnon', 'Canadian', 'CSA', 1978],
  ['UAE', 'Hamad Al Mansoori', 'Emirati', 'UAESA', 1984], ['KR', 'Ji-woo Park', 'South Korean', 'KARI', 1986],
];

/** Crew slots name pools; composite pools draw from several national corps. */
export const POOLS = {
  INTL: ['ESA', 'JP', 'CA', 'UAE', 'KR'],
  USESA: ['US', 'ESA'],
  JPCA: ['JP', 'CA'],
};

/** Instrument scientists: [displayName, nationality, agency, birthYear, field, deathYear?] */
export const SCIENTISTS = [
  ['Walter Hendricks', 'American', 'NASA', 1929, 'planetary imaging', 2011],
  ['Lyudmila Sorokina', 'Soviet', 'OKB1', 1931, 'planetary atmospheres', 2004],
  ['Henri Duplessis', 'French', 'CNES', 1936, 'cometary dust', 2019],
  ['Kurt Baumann', 'German', 'DLR', 1940, 'space magnetometry'],
  ['Elizabeth Mayhew', 'British', 'ESA', 1945, 'ultraviolet astronomy'],
  ['Robert "Bob" Tillman', 'American', 'NASA', 1934, 'radio science', 2016],
  ['Hiroshi Kanda', 'Japanese', 'JAXA', 1938, 'solar-wind physics'],
  ['Grace Whitmore', 'American', 'NASA', 1961, 'planetary geology'],
  ['Daniel Kaplan', 'American', 'NASA', 1966, 'space plasma physics'],
  ['Olu Adeyemi', 'American', 'NASA', 1972, 'infrared spectroscopy'],
  ['Björn Ekström', 'Swedish', 'ESA', 1958, 'magnetospheric physics'],
  ['Tomasz Wójcik', 'Polish', 'ESA', 1969, 'radar remote sensing'],
  ['Amélie Rousseau', 'French', 'CNES', 1964, 'cometary chemistry'],
  ['Fatima Zahra Benali', 'French', 'CNES', 1975, 'mass spectrometry'],
  ['Hannah Vogel', 'German', 'DLR', 1970, 'planetary seismology'],
  ['Marco Bellini', 'Italian', 'ASI', 1963, 'radio science'],
  ['Mei Takahashi', 'Japanese', 'JAXA', 1971, 'asteroid sampling'],
  ['Rajesh Subramanian', 'Indian', 'ISRO', 1967, 'lunar mineralogy'],
  ['Lin Xiaoqing 林晓青', 'Chinese', 'CNSA', 1974, 'ground-penetrating radar'],
  ['Sun-hee Cho', 'South Korean', 'KARI', 1978, 'polarimetric imaging'],
  ['Émile Gauthier', 'French', 'ACADEMIE', 1959, 'space magnetometry'],
  ['Ingrid Solberg', 'Norwegian', 'NORTHSTAR', 1976, 'auroral physics'],
  ['Paulo Nascimento', 'Brazilian', 'AEB', 1980, 'deep-space navigation'],
];

/** Background snippets for astronaut biographies. */
export const CAREERS = [
  'a military test pilot', 'a flight surgeon', 'a field geologist', 'an aerospace engineer',
  'a marine biologist', 'a helicopter pilot', 'a materials scientist', 'an emergency physician',
  'a robotics engineer', 'an airline captain', 'a polar researcher', 'a submarine officer',
];
export const HOBBIES = [
  'amateur radio', 'long-distance running', 'cello', 'rock climbing', 'photography',
  'chess', 'scuba diving', 'woodworking', 'astronomy outreach in schools', 'gliding',
];
