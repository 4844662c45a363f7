// Agencies and launch sites. Figures are rounded and approximate; entries marked
// `fictional` are invented for the sample (names chosen to exercise escaping and Unicode).

/** [key, displayName, country, founded, headquarters, budgetBillionUsd, kind, memberStates, fact, fictional?] */
export const AGENCIES = [
  ['NASA', 'NASA', 'United States', 1958, 'Washington, D.C.', 24.9, 'government', [], 'It grew out of the National Advisory Committee for Aeronautics and absorbed several military rocket teams within its first year'],
  ['ESA', 'European Space Agency', 'Europe', 1975, 'Paris', 7.8, 'intergovernmental', ['France', 'Germany', 'Italy', 'United Kingdom', 'Spain', 'Belgium', 'Netherlands', 'Sweden', 'Switzerland'], 'It was formed by merging the European Space Research Organisation with the European Launcher Development Organisation'],
  ['ROSCOSMOS', 'Roscosmos', 'Russia', 1992, 'Moscow', 3.4, 'government', [], 'It inherited most of the launch infrastructure and design bureaus of the Soviet programme'],
  ['OKB1', 'OKB-1 (Soviet space programme)', 'Soviet Union', 1946, 'Korolyov', 0.9, 'government', [], 'Under Sergei Korolev it produced the R-7 rocket family that still underpins crewed launches from Baikonur'],
  ['CNSA', 'China National Space Administration', 'China', 1993, 'Beijing', 14.2, 'government', [], 'It coordinates a programme whose lunar series is named after the moon goddess Chang\'e'],
  ['JAXA', 'JAXA', 'Japan', 2003, 'Chōfu, Tokyo', 1.6, 'government', [], 'It was created by merging three older bodies, including the Institute of Space and Astronautical Science, known for its sample-return missions'],
  ['ISRO', 'Indian Space Research Organisation', 'India', 1969, 'Bengaluru', 1.7, 'government', [], 'It is known for notably frugal mission budgets and for its Polar Satellite Launch Vehicle'],
  ['CNES', 'CNES', 'France', 1961, 'Paris', 3.1, 'government', [], 'It operates the equatorial spaceport in French Guiana on behalf of European partners'],
  ['DLR', 'German Aerospace Center (DLR)', 'Germany', 1969, 'Cologne', 2.5, 'government', [], 'It runs the astronaut training centre shared with the European Space Agency in Cologne'],
  ['CSA', 'Canadian Space Agency', 'Canada', 1989, 'Longueuil', 0.4, 'government', [], 'Its best-known hardware is a series of robotic arms used on the Space Shuttle and the International Space Station'],
  ['UKSA', 'UK Space Agency', 'United Kingdom', 2010, 'Swindon', 0.6, 'government', [], 'It replaced the British National Space Centre and funds much of the country\'s ESA contribution'],
  ['ASI', 'Agenzia Spaziale Italiana', 'Italy', 1988, 'Rome', 1.9, 'government', [], 'It built the pressurised modules that make up a large share of the habitable volume of the International Space Station'],
  ['KARI', 'Korea Aerospace Research Institute', 'South Korea', 1989, 'Daejeon', 0.7, 'government', [], 'It developed the Nuri launcher, the first South Korean rocket built entirely with domestic technology'],
  ['UAESA', 'UAE Space Agency', 'United Arab Emirates', 2014, 'Abu Dhabi', 0.5, 'government', [], 'It was founded with the explicit goal of reaching Mars before the fiftieth anniversary of the federation'],
  ['AEB', 'Agência Espacial Brasileira', 'Brazil', 1994, 'Brasília', 0.1, 'government', [], 'It oversees the Alcântara launch centre, whose near-equatorial latitude gives rockets a useful boost'],
  ['SPACEX', 'SpaceX', 'United States', 2002, 'Hawthorne, California', 0, 'commercial', [], 'It pioneered routine recovery and reuse of orbital-class rocket boosters'],
  ['BLUEORIGIN', 'Blue Origin', 'United States', 2000, 'Kent, Washington', 0, 'commercial', [], 'It flies the New Shepard suborbital vehicle from a private range in west Texas'],
  ['ROCKETLAB', 'Rocket Lab', 'New Zealand', 2006, 'Long Beach, California', 0, 'commercial', [], 'Its small Electron rocket uses electric pump-fed engines and 3D-printed combustion chambers'],
  ['ACADEMIE', 'Académie d\'astronautique', 'France', 1962, 'Lyon', 0.05, 'academic', ['France', 'Belgium', 'Switzerland'], 'It began as a learned society of engineers and later commissioned small probes built by university consortia', true],
  ['NORTHSTAR', 'Northstar "Polaris" Consortium', 'Canada', 2011, 'Halifax', 0.2, 'commercial', ['Canada', 'Norway', 'Iceland'], 'It was set up by northern research institutes to fly high-latitude science payloads on commercial rockets', true],
];

/** Agency pairs with a standing cooperation agreement: [a, b, since, scope]. */
export const PARTNERSHIPS = [
  ['NASA', 'ESA', 1975, 'planetary science'], ['NASA', 'ROSCOSMOS', 1993, 'space station operations'],
  ['NASA', 'JAXA', 2003, 'space station operations'], ['NASA', 'CSA', 1989, 'robotics'],
  ['NASA', 'ASI', 1988, 'planetary science'], ['ESA', 'JAXA', 2004, 'Mercury exploration'],
  ['ESA', 'ROSCOSMOS', 1996, 'launch services'], ['ESA', 'CNES', 1975, 'launch services'],
  ['ESA', 'DLR', 1975, 'astronaut training'], ['ESA', 'UKSA', 2010, 'Earth observation'],
  ['CNSA', 'ESA', 2003, 'deep-space tracking'], ['ISRO', 'NASA', 2008, 'lunar science'],
  ['UAESA', 'JAXA', 2016, 'launch services'], ['KARI', 'NASA', 2016, 'lunar science'],
  ['ACADEMIE', 'CNES', 1964, 'student payloads'], ['NORTHSTAR', 'CSA', 2012, 'polar research'],
  ['AEB', 'CNSA', 1999, 'Earth observation'], ['ROCKETLAB', 'NASA', 2019, 'launch services'],
];

/** [key, displayName, country, latitude, longitude, established, active, operatorKey, fact] */
export const LAUNCH_SITES = [
  ['KSC', 'Kennedy Space Center LC-39A', 'United States', 28.6084, -80.6043, 1962, true, 'NASA', 'The pad launched most Apollo lunar missions and later the Space Shuttle'],
  ['CCSFS', 'Cape Canaveral Space Force Station', 'United States', 28.4889, -80.5778, 1949, true, 'NASA', 'Dozens of pads along the coast have supported everything from early ballistic tests to interplanetary launches'],
  ['VSFB', 'Vandenberg SLC-4E', 'United States', 34.6321, -120.6106, 1958, true, 'SPACEX', 'Its position on the Pacific coast allows launches due south into polar orbit'],
  ['BAIKONUR', 'Baikonur Cosmodrome', 'Kazakhstan', 45.9650, 63.3050, 1955, true, 'ROSCOSMOS', 'Russia leases the site from Kazakhstan; the first artificial satellite left from here'],
  ['PLESETSK', 'Plesetsk Cosmodrome', 'Russia', 62.9250, 40.5770, 1957, true, 'ROSCOSMOS', 'For decades its existence was officially denied, even as it became the busiest launch site in the world'],
  ['VOSTOCHNY', 'Vostochny Cosmodrome', 'Russia', 51.8840, 128.3330, 2016, true, 'ROSCOSMOS', 'It was built to reduce Russian dependence on the leased range in Kazakhstan'],
  ['KAPUSTINYAR', 'Kapustin Yar', 'Russia', 48.5780, 45.7340, 1946, false, 'OKB1', 'Captured V-2 rockets were test-fired here in the late 1940s'],
  ['KOUROU', 'Guiana Space Centre, Kourou', 'France (French Guiana)', 5.2390, -52.7680, 1968, true, 'CNES', 'At five degrees north it is one of the launch sites closest to the equator'],
  ['JIUQUAN', 'Jiuquan Satellite Launch Center', 'China', 40.9580, 100.2910, 1958, true, 'CNSA', 'Every Chinese crewed flight so far has begun on its desert pads'],
  ['XICHANG', 'Xichang Satellite Launch Center', 'China', 28.2460, 102.0270, 1984, true, 'CNSA', 'Its mountain setting suits launches to geostationary and lunar transfer orbits'],
  ['WENCHANG', 'Wenchang Spacecraft Launch Site 文昌', 'China', 19.6145, 110.9510, 2014, true, 'CNSA', 'Heavy rockets reach it by sea because its stages are too wide for rail tunnels'],
  ['TANEGASHIMA', 'Tanegashima Space Center 種子島', 'Japan', 30.4000, 130.9700, 1969, true, 'JAXA', 'Launch windows were long limited by agreements with local fishing cooperatives'],
  ['UCHINOURA', 'Uchinoura Space Center', 'Japan', 31.2510, 131.0820, 1962, true, 'JAXA', 'Japan\'s first satellite, Ōsumi, was launched from this hillside range'],
  ['SRIHARIKOTA', 'Satish Dhawan Space Centre', 'India', 13.7199, 80.2304, 1971, true, 'ISRO', 'The barrier island site hosts two launch pads and a solid-motor production plant'],
  ['NARO', 'Naro Space Center', 'South Korea', 34.4310, 127.5350, 2009, true, 'KARI', 'It sits on an island off the southern coast of the Korean peninsula'],
  ['MAHIA', 'Rocket Lab Launch Complex 1, Māhia', 'New Zealand', -39.2620, 177.8650, 2016, true, 'ROCKETLAB', 'It is the first privately owned orbital launch site'],
  ['ALCANTARA', 'Alcântara Launch Center', 'Brazil', -2.3730, -44.3960, 1983, true, 'AEB', 'Its latitude of about two degrees south saves propellant on eastward launches'],
  ['VANHORN', 'Launch Site One, Van Horn', 'United States', 31.4230, -104.7570, 2006, true, 'BLUEORIGIN', 'The ranch-sized range in west Texas is used for suborbital flights and landings'],
];
