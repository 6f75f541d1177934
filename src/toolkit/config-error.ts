/**
 * A setting the operator got wrong: the CLI prints its message and exits without a stack. In a module of
 * its own so config.ts and limits-config.ts (which config.ts reads) both throw it without importing each other.
 */
export class ConfigError extends Error {}
