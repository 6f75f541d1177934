import type { FastifyRequest } from 'fastify';
import { redactUrl } from './redact.ts';
import type { LogLevel } from './config.ts';

/**
 * Fastify's request log at `level` (off when false or `silent`): readable lines when stdout is a
 * terminal (pino-pretty, in pino's worker thread), JSON lines otherwise, for a log collector.
 * Request URLs are logged with their credentials masked; headers and bodies are never logged.
 */
export function loggerOptions(level: LogLevel | false) {
  if (level === false || level === 'silent') return false;
  return {
    level,
    serializers: { req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url) }) },
    ...(process.stdout.isTTY ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } } : {}),
  };
}
