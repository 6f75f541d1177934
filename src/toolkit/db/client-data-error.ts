/** Messages for the PostgreSQL data exceptions clients cause most often. */
const KNOWN_PROBLEMS: Record<string, string> = {
  '22P02': 'a value has the wrong format',
  '22003': 'a number is out of range',
  '22007': 'a date or time has the wrong format',
  '22008': 'a date or time is out of range',
  '22001': 'a value is too long',
};

/**
 * What is wrong with a client's value when the database refused it with a
 * data exception (SQLSTATE class 22, which only a sent value can cause);
 * null for any other error.
 */
export function clientDataProblem(error: unknown): string | null {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  if (!code.startsWith('22')) return null;
  return KNOWN_PROBLEMS[code] ?? 'a value is malformed or out of range';
}
