/** ISO 8601 text of a Date or epoch milliseconds, as the API and the projections store it; null stays null. */
export function iso(value: Date | number): string;
export function iso(value: Date | number | null | undefined): string | null;
export function iso(value: Date | number | null | undefined): string | null {
  return value === null || value === undefined ? null : new Date(value).toISOString();
}
