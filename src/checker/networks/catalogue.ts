// The affiliate network catalogue: every network, aggregator and shortener trackcheck recognises, as data
// with sources. Order matters only for signature parameters (first entry wins), never for hosts, which are
// unique across the catalogue (a test enforces it).
import type { NetworkDefinition } from '../types.js';
import { AGGREGATORS } from './aggregators-data.js';
import { MARKETPLACE_PROGRAMS } from './marketplace-programs-data.js';
import { MAJOR_NETWORKS } from './networks-data.js';
import { ONSITE_PROGRAMS } from './onsite-programs-data.js';
import { REGIONAL_NETWORKS } from './regional-networks-data.js';
import { SHORTENERS } from './shorteners-data.js';

export const NETWORKS: readonly NetworkDefinition[] = Object.freeze([
  ...MAJOR_NETWORKS,
  ...REGIONAL_NETWORKS,
  ...MARKETPLACE_PROGRAMS,
  ...ONSITE_PROGRAMS,
  ...AGGREGATORS,
  ...SHORTENERS,
]);
