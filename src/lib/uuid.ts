// Ids of batches, scans, monitors and API keys are random UUIDs in lowercase (crypto.randomUUID).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** True for a lowercase UUID: anything else names no stored row, so callers answer not_found without a query. */
export const isUuid = (text: string): boolean => UUID.test(text);
