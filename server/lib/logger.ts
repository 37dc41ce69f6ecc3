import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';

/** Anything that could carry a secret is censored wherever it appears in a log object. */
export const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["w-token"]',
  'req.headers["w-userid"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers["w-token"]',
  'token',
  'password',
  '*.token',
  '*.password',
  'data.token',
];

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  const base = {
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
  if (process.env.NODE_ENV === 'development') {
    return { ...base, transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l' } } };
  }
  return base;
}
