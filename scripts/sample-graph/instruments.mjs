// Instrument families (fictional): each code name is paired with a kind; the generator
// mounts every instrument on one to four compatible robotic spacecraft or stations.

/** [kind, compatible spacecraft types, [minKg, maxKg], [minW, maxW], measures, purpose] */
export const KINDS = [
  ['multispectral camera', ['orbiter', 'probe', 'rover', 'lander', 'helicopter', 'station'], [0.3, 30], [3, 40], ['visible', 'near-infrared'], 'images the surface in several colour bands'],
  ['imaging spectrometer', ['orbiter', 'probe', 'station'], [10, 40], [12, 45], ['visible', 'near-infrared', 'short-wave infrared'], 'maps minerals and ices by their spectral fingerprints'],
  ['fluxgate magnetometer', ['orbiter', 'probe', 'lander', 'station'], [0.8, 5], [1, 6], ['magnetic field'], 'measures magnetic fields and their fluctuations'],
  ['radar sounder', ['orbiter'], [15, 60], [40, 120], ['HF radio', 'VHF radio'], 'looks beneath the surface for buried layers of ice and rock'],
  ['laser altimeter', ['orbiter'], [7, 25], [15, 50], ['near-infrared laser'], 'measures topography by timing the echoes of laser pulses'],
  ['plasma analyser', ['orbiter', 'probe', 'station'], [3, 15], [4, 18], ['ions', 'electrons'], 'counts charged particles in the solar wind and in planetary magnetospheres'],
  ['dust detector', ['orbiter', 'probe'], [2, 10], [2, 9], ['dust grains'], 'records the impacts of tiny dust grains'],
  ['thermal infrared radiometer', ['orbiter', 'probe', 'lander', 'rover'], [3, 15], [5, 25], ['thermal infrared'], 'measures surface temperatures by day and by night'],
  ['mass spectrometer', ['orbiter', 'probe', 'lander', 'rover'], [5, 40], [10, 70], ['neutral gases', 'ions'], 'identifies gases and ions by their mass'],
  ['seismometer', ['lander'], [3, 30], [3, 10], ['ground motion'], 'listens for quakes, tides and meteorite impacts'],
  ['X-ray spectrometer', ['orbiter', 'rover', 'lander'], [1.5, 12], [4, 20], ['X-rays'], 'determines the elemental composition of rocks and soil'],
  ['gamma-ray and neutron spectrometer', ['orbiter'], [10, 30], [10, 30], ['gamma rays', 'neutrons'], 'maps hydrogen and other elements just below the surface'],
  ['ultraviolet spectrograph', ['orbiter', 'probe', 'station'], [4, 20], [6, 20], ['ultraviolet'], 'studies thin upper atmospheres, auroras and escaping gas'],
  ['sampling drill', ['lander', 'rover'], [5, 40], [30, 120], ['regolith'], 'collects material from below the surface'],
  ['radio science transponder', ['orbiter', 'probe'], [2, 6], [8, 25], ['X band', 'Ka band'], 'measures gravity fields from tiny Doppler shifts in the radio link'],
  ['weather station', ['lander', 'rover', 'station'], [1, 6], [2, 12], ['pressure', 'temperature', 'wind'], 'records pressure, temperature and wind'],
  ['ground-penetrating radar', ['rover'], [2, 10], [10, 30], ['UHF radio'], 'images buried layers beneath the wheels'],
];

export const CODES = [
  'ARGUS', 'CIRRUS', 'KESTREL', 'MERLIN', 'HALCYON', 'LYNX', 'ORCA', 'TESSERA', 'AURIGA',
  'BOREAS', 'CALYPSO', 'DELPHI', 'EOS', 'FALCON', 'GEMMA', 'HYDRA', 'JANUS', 'KORE',
  'LUMEN', 'MIRA', 'NEREUS', 'OBERON', 'PALLAS', 'QUASAR', 'RAVEN', 'SELENE', 'THALIA',
  'UMBRA', 'VESPER', 'WREN', 'XENIA', 'ZEPHYR', 'ASTRA', 'BEACON', 'CORONA', 'DRACO',
  'ELARA', 'FORNAX', 'GALENA', 'HELIX', 'IRIS', 'KORAX', 'NOVA', 'PHAROS', 'SIRIUS',
];
