// TEMPORARY stand-in: replaced by the real service at merge.
export * from './service.js';
