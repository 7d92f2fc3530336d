/**
 * Reads a content date: a plain `YYYY-MM-DD` is that day at 00:00 UTC; an ISO 8601 date-time keeps
 * its own offset (none means UTC). Returns epoch milliseconds, or undefined when it is not a real date.
 * The strings reaching here have already passed the schema's format check.
 */
export function parseContentDate(text: string): number | undefined {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (day) {
    const [year, month, date] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const ms = Date.UTC(year, month - 1, date);
    const check = new Date(ms);
    return check.getUTCFullYear() === year && check.getUTCMonth() === month - 1 && check.getUTCDate() === date
      ? ms
      : undefined;
  }
  const hasZone = /(?:[zZ]|[+-]\d{2}:?\d{2})$/.test(text);
  const ms = Date.parse(hasZone ? text : `${text}Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The calendar day (UTC) of an instant, `YYYY-MM-DD`. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
