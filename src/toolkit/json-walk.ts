/**
 * Visits every value of a parsed JSON document, object keys included (as strings,
 * at the depth of their values), and returns the first non-null answer of `visit`.
 * Iterative, so a document nested a million levels deep cannot overflow the stack.
 */
export function findInJson<T>(document: unknown, visit: (value: unknown, depth: number) => T | null): T | null {
  const stack: [unknown, number][] = [[document, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    const found = visit(value, depth);
    if (found !== null) return found;
    if (Array.isArray(value)) {
      for (const item of value) stack.push([item, depth + 1]);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        const atKey = visit(key, depth + 1);
        if (atKey !== null) return atKey;
        stack.push([item, depth + 1]);
      }
    }
  }
  return null;
}
