// The package's entry point (`import { TrackcheckClient } from 'trackcheck'`): the typed API client.
export * from './client/index.js';
