// Every operation of the API, by the client method that calls it. The test suite compares this table with the
// served /openapi.json (every path + method covered, nothing invented) and calls each method once against a
// running service to prove each one really sends what the table says.

export const OPERATIONS = {
  health: { method: 'GET', path: '/health' },
  'keys.create': { method: 'POST', path: '/v1/keys' },
  'keys.list': { method: 'GET', path: '/v1/keys' },
  'keys.revoke': { method: 'DELETE', path: '/v1/keys/{id}' },
  'checks.create': { method: 'POST', path: '/v1/checks' },
  'checks.list': { method: 'GET', path: '/v1/checks' },
  'checks.get': { method: 'GET', path: '/v1/checks/{slug}' },
  'reports.get': { method: 'GET', path: '/v1/reports/{slug}' },
  'reports.evidence': { method: 'GET', path: '/v1/reports/{slug}/evidence' },
  'batches.create': { method: 'POST', path: '/v1/batches' },
  'batches.list': { method: 'GET', path: '/v1/batches' },
  'batches.get': { method: 'GET', path: '/v1/batches/{id}' },
  'batches.resultsCsv': { method: 'GET', path: '/v1/batches/{id}/results.csv' },
  'scans.create': { method: 'POST', path: '/v1/scans' },
  'scans.list': { method: 'GET', path: '/v1/scans' },
  'scans.get': { method: 'GET', path: '/v1/scans/{id}' },
  'scans.resultsCsv': { method: 'GET', path: '/v1/scans/{id}/results.csv' },
  'monitors.create': { method: 'POST', path: '/v1/monitors' },
  'monitors.list': { method: 'GET', path: '/v1/monitors' },
  'monitors.get': { method: 'GET', path: '/v1/monitors/{id}' },
  'monitors.update': { method: 'PATCH', path: '/v1/monitors/{id}' },
  'monitors.delete': { method: 'DELETE', path: '/v1/monitors/{id}' },
  'monitors.run': { method: 'POST', path: '/v1/monitors/{id}/run' },
  'monitors.events': { method: 'GET', path: '/v1/monitors/{id}/events' },
} as const satisfies Record<string, { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; path: string }>;

export type OperationName = keyof typeof OPERATIONS;
