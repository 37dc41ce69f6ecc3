import { createRequire } from 'node:module';
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

/** pino-pretty is a development dependency: a production image has none, and says so. */
function prettyAvailable(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  const base = {
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
  if (process.env.NODE_ENV === 'development') {
    if (prettyAvailable()) {
      return { ...base, transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l' } } };
    }
    process.stderr.write('NODE_ENV=development but pino-pretty is not installed: logging JSON\n');
  }
  return base;
}
